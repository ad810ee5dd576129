/* The multipath schedulers: the exact path of every packet for scripted
 * path states (octo-sched.h). */
#include "transport/octo-sched.h"

#define MS OCTO_MSECOND
#define MBPS 1000000

/* A path of @srtt_ms whose pacer and estimate run at @mbps. */
static OctoSchedPath
path (guint srtt_ms, guint mbps)
{
  OctoSchedPath p = {
    .srtt = srtt_ms * MS,
    .pacing_rate = (guint64) mbps * MBPS,
    .bandwidth = (guint64) mbps * MBPS,
    .up = TRUE,
  };
  return p;
}

/* Assigns @n packets of 1000 bytes and checks the paths against @expect
 * (one digit per packet). */
static void
check (OctoSched *sched, OctoSchedPath *paths, guint n_paths, OctoTime now,
    const gchar *expect)
{
  guint n = strlen (expect);
  guint32 sizes[64];
  guint8 out[64];
  gchar got[65];

  g_assert_cmpuint (n, <=, 64);
  for (guint i = 0; i < n; i++)
    sizes[i] = 1000;
  g_assert_true (octo_sched_assign (sched, paths, n_paths, sizes, n, now,
          out));
  for (guint i = 0; i < n; i++)
    got[i] = '0' + out[i];
  got[n] = '\0';
  g_assert_cmpstr (got, ==, expect);
}

static void
test_names_select_the_five_schedulers (void)
{
  const gchar *const *names = octo_sched_names ();
  guint n = 0;

  for (; names[n]; n++) {
    OctoSched *s = octo_sched_new (names[n]);

    g_assert_nonnull (s);
    g_assert_cmpstr (octo_sched_name (s), ==, names[n]);
    octo_sched_free (s);
  }
  g_assert_cmpuint (n, ==, 5);
  g_assert_null (octo_sched_new ("round-robin"));
  g_assert_null (octo_sched_new (NULL));
}

static void
test_no_path_up_assigns_nothing (void)
{
  for (const gchar *const *name = octo_sched_names (); *name; name++) {
    OctoSched *s = octo_sched_new (*name);
    OctoSchedPath paths[2] = { path (20, 8), path (60, 8) };
    guint32 size = 1000;
    guint8 out = 7;

    paths[0].up = paths[1].up = FALSE;
    g_assert_false (octo_sched_assign (s, paths, 2, &size, 1, 0, &out));
    g_assert_cmpuint (out, ==, 7);
    g_assert_cmpuint (paths[0].queued_bytes + paths[1].queued_bytes, ==, 0);
    octo_sched_free (s);
  }
}

/* At 8 Mbit/s a 1000-byte packet waits 1 ms per queued packet: path 0
 * costs 20 + k0 ms, path 1 50 + k1 ms; ties go to path 0. */
static void
test_min_cost_fills_the_cheaper_path_until_costs_meet (void)
{
  OctoSched *s = octo_sched_new ("min-cost");
  OctoSchedPath paths[2] = { path (40, 8), path (100, 8) };

  check (s, paths, 2, 0,
      "0000000000" "0000000000" "0000000000" "0" "1" "0" "1");
  g_assert_cmpuint (paths[0].queued_bytes, ==, 32000);
  g_assert_cmpuint (paths[1].queued_bytes, ==, 2000);
  octo_sched_free (s);
}

static void
test_min_cost_counts_what_waits_and_skips_down_paths (void)
{
  OctoSched *s = octo_sched_new ("min-cost");
  /* path 0: 10 ms + 25 ms of queue = 35 ms; path 1: 30 ms + 0;
   * path 2 is cheapest but down */
  OctoSchedPath paths[3] = { path (20, 8), path (60, 8), path (2, 100) };

  paths[0].queued_bytes = 25000;
  paths[2].up = FALSE;
  check (s, paths, 3, 0, "11111" "0" "1" "0");
  g_assert_cmpuint (paths[2].queued_bytes, ==, 0);
  octo_sched_free (s);
}

static void
test_min_cost_avoids_a_path_without_rate_that_holds_bytes (void)
{
  OctoSched *s = octo_sched_new ("min-cost");
  OctoSchedPath paths[2] = { path (10, 0), path (200, 1) };

  /* no rate: the first packet may go (nothing waits), the next cannot */
  check (s, paths, 2, 0, "011");
  octo_sched_free (s);
}

/* Path 0's sRTT (20 ms, a round trip old) does not show the 25 KB its own
 * bytes in flight beyond its 20 KB BDP (8 Mbit/s x 20 ms) stand in the
 * network queue: min-cost counts them, 10 + 25 ms against path 1's 30 ms,
 * as if they waited in its pacer (min-cost-counts-what-waits-and-skips-
 * down-paths). */
static void
test_min_cost_counts_the_standing_queue_of_its_bytes_in_flight (void)
{
  OctoSched *s = octo_sched_new ("min-cost");
  OctoSchedPath paths[2] = { path (20, 8), path (60, 8) };

  paths[0].min_rtt = 20 * MS;
  paths[0].inflight_bytes = 45000;
  paths[1].min_rtt = 60 * MS;
  paths[1].inflight_bytes = 60000;      /* its BDP: no standing queue */
  check (s, paths, 2, 0, "11111" "0" "1" "0");
  octo_sched_free (s);
}

/* Weights 3:1; smooth rounds repeat 0 0 1 0 and the credit carries over
 * between messages. */
static void
test_wrr_follows_the_bandwidth_weights_across_messages (void)
{
  OctoSched *s = octo_sched_new ("wrr");
  OctoSchedPath paths[2] = { path (100, 3), path (20, 1) };

  check (s, paths, 2, 0, "001");
  check (s, paths, 2, 0, "00010");
  check (s, paths, 2, 0, "0");
  /* the estimate, not the pacing rate, is the weight */
  paths[0].pacing_rate = 100 * MBPS;
  check (s, paths, 2, 0, "0100");
  octo_sched_free (s);
}

static void
test_wrr_gives_a_down_path_nothing (void)
{
  OctoSched *s = octo_sched_new ("wrr");
  OctoSchedPath paths[3] = { path (10, 1), path (10, 1), path (10, 2) };

  check (s, paths, 3, 0, "2012");
  paths[2].up = FALSE;
  check (s, paths, 3, 0, "0101");
  octo_sched_free (s);
}

/* 8 Mbit/s both, one-way 10 vs 30 ms: the queue term adds 0.8 ms per
 * packet, the M/M/1 term 0.2 ms / (1 - load); path 0 takes 25 packets
 * (10 + 0.8 x 26 + 0.23 > 31.0 = path 1's cost), then they alternate. */
static void
test_edcld_moves_load_to_the_shorter_path_until_costs_meet (void)
{
  OctoSched *s = octo_sched_new ("edcld");
  OctoSchedPath paths[2] = { path (20, 8), path (60, 8) };

  check (s, paths, 2, 0,
      "0000000000" "0000000000" "00000" "1" "0" "1");
  octo_sched_free (s);
}

/* EDCLD's D_p is the fixed propagation delay (the minimum RTT / 2), not the
 * smoothed RTT: a path whose queue holds 80 ms costs what its 20 ms round
 * trip does, so the assignment is the one above; a path without a minimum
 * yet is taken at its smoothed RTT, and then the other path takes 25
 * first. */
static void
test_edcld_delay_is_the_propagation_delay (void)
{
  OctoSched *s = octo_sched_new ("edcld");
  OctoSchedPath paths[2] = { path (100, 8), path (60, 8) };

  paths[0].min_rtt = 20 * MS;
  paths[1].min_rtt = 60 * MS;
  check (s, paths, 2, 0,
      "0000000000" "0000000000" "00000" "1" "0" "1");
  octo_sched_free (s);

  s = octo_sched_new ("edcld");
  paths[0].queued_bytes = paths[1].queued_bytes = 0;
  paths[0].min_rtt = 0;
  check (s, paths, 2, 0,
      "1111111111" "1111111111" "11111" "0" "1" "0");
  octo_sched_free (s);
}

/* The M/M/1 term remembers the load it put on a path even when its queue
 * has drained; the load fades with time. */
static void
test_edcld_remembers_recent_load (void)
{
  OctoSched *s = octo_sched_new ("edcld");
  OctoSchedPath paths[2] = { path (10, 8), path (10, 8) };
  /* one-way 5 and 6 ms */
  OctoSchedPath fresh[2] = { path (10, 8), path (12, 8) };
  guint32 big = 190000;
  guint8 out;

  check (s, paths, 2, 0, "0101010101");
  /* path 0 then carries 195 kB per 0.2 s of its 1 MB/s: its M/M/1 term
   * grows from 0.2 to 6.7 ms, more than path 1's extra 1 ms of delay */
  paths[0].queued_bytes = paths[1].queued_bytes = 0;
  g_assert_true (octo_sched_assign (s, paths, 2, &big, 1, 0, &out));
  g_assert_cmpuint (out, ==, 0);
  check (s, fresh, 2, 1 * MS, "1");
  /* ten time constants later the load is gone */
  fresh[1].queued_bytes = 0;
  check (s, fresh, 2, 2000 * MS, "0");
  octo_sched_free (s);
}

/* One-way 10 and 30 ms at 1 MB/s each: 30 kB fill to level 35.5 ms:
 * sub-frames of 25.5 kB and 5.5 kB; path 0 takes packets while its share
 * is not used up (26), path 1 the rest. */
static void
test_sfl_cuts_sub_frames_by_water_filling (void)
{
  OctoSched *s = octo_sched_new ("sfl");
  OctoSchedPath paths[2] = { path (60, 8), path (20, 8) };

  check (s, paths, 2, 0,
      "1111111111" "1111111111" "111111" "0000");
  octo_sched_free (s);
}

/* A message the delay difference already holds goes to the shortest path
 * whole; SFL ignores the queues. */
static void
test_sfl_sends_a_small_message_on_the_shortest_path (void)
{
  OctoSched *s = octo_sched_new ("sfl");
  OctoSchedPath paths[2] = { path (20, 8), path (60, 8) };

  paths[0].queued_bytes = 1000000;
  check (s, paths, 2, 0, "0000000000");
  octo_sched_free (s);
}

static void
test_sfl_with_three_paths_fills_in_delay_order (void)
{
  OctoSched *s = octo_sched_new ("sfl");
  /* one-way 5, 15, 25 ms at 1, 2, 1 MB/s: level 25 ms holds 20 + 20 = 40
   * kB; 50 kB needs 11 steps of 0.25 ms (the water must exceed the
   * message): 27.75 ms, sub-frames of 22.75, 25.5 and 2.75 kB; each path
   * takes packets while its share lasts (23, 26), the last the rest */
  OctoSchedPath paths[3] = { path (50, 8), path (10, 8), path (30, 16) };
  gchar expect[51];

  memset (expect, '1', 23);
  memset (expect + 23, '2', 26);
  expect[49] = '0';
  expect[50] = '\0';
  check (s, paths, 3, 0, expect);
  octo_sched_free (s);
}

/* Room while the pacer queue drains within one sRTT: path 0 (20 ms at 1
 * MB/s) takes 20 packets, then path 1. */
static void
test_min_rtt_takes_the_shortest_path_with_room (void)
{
  OctoSched *s = octo_sched_new ("min-rtt");
  OctoSchedPath paths[2] = { path (60, 8), path (20, 8) };

  check (s, paths, 2, 0, "1111111111" "1111111111" "00");
  octo_sched_free (s);
}

static void
test_min_rtt_without_room_takes_the_first_drained (void)
{
  OctoSched *s = octo_sched_new ("min-rtt");
  OctoSchedPath paths[3] = { path (20, 8), path (60, 8), path (5, 8) };

  paths[0].queued_bytes = 30000;        /* 30 ms > 20 */
  paths[1].queued_bytes = 70000;        /* 70 ms > 60 */
  paths[2].up = FALSE;
  check (s, paths, 3, 0, "0");
  octo_sched_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/sched/names-select-the-five-schedulers",
      test_names_select_the_five_schedulers);
  g_test_add_func ("/transport/sched/no-path-up-assigns-nothing",
      test_no_path_up_assigns_nothing);
  g_test_add_func ("/transport/sched/min-cost-fills-the-cheaper-path-until-costs-meet",
      test_min_cost_fills_the_cheaper_path_until_costs_meet);
  g_test_add_func ("/transport/sched/min-cost-counts-what-waits-and-skips-down-paths",
      test_min_cost_counts_what_waits_and_skips_down_paths);
  g_test_add_func ("/transport/sched/min-cost-avoids-a-path-without-rate-that-holds-bytes",
      test_min_cost_avoids_a_path_without_rate_that_holds_bytes);
  g_test_add_func ("/transport/sched/min-cost-counts-the-standing-queue-of-its-bytes-in-flight",
      test_min_cost_counts_the_standing_queue_of_its_bytes_in_flight);
  g_test_add_func ("/transport/sched/wrr-follows-the-bandwidth-weights-across-messages",
      test_wrr_follows_the_bandwidth_weights_across_messages);
  g_test_add_func ("/transport/sched/wrr-gives-a-down-path-nothing",
      test_wrr_gives_a_down_path_nothing);
  g_test_add_func ("/transport/sched/edcld-moves-load-to-the-shorter-path-until-costs-meet",
      test_edcld_moves_load_to_the_shorter_path_until_costs_meet);
  g_test_add_func ("/transport/sched/edcld-delay-is-the-propagation-delay",
      test_edcld_delay_is_the_propagation_delay);
  g_test_add_func ("/transport/sched/edcld-remembers-recent-load",
      test_edcld_remembers_recent_load);
  g_test_add_func ("/transport/sched/sfl-cuts-sub-frames-by-water-filling",
      test_sfl_cuts_sub_frames_by_water_filling);
  g_test_add_func ("/transport/sched/sfl-sends-a-small-message-on-the-shortest-path",
      test_sfl_sends_a_small_message_on_the_shortest_path);
  g_test_add_func ("/transport/sched/sfl-with-three-paths-fills-in-delay-order",
      test_sfl_with_three_paths_fills_in_delay_order);
  g_test_add_func ("/transport/sched/min-rtt-takes-the-shortest-path-with-room",
      test_min_rtt_takes_the_shortest_path_with_room);
  g_test_add_func ("/transport/sched/min-rtt-without-room-takes-the-first-drained",
      test_min_rtt_without_room_takes_the_first_drained);
  return g_test_run ();
}
