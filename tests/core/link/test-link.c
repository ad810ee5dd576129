/* The link model on a fake clock: Mahimahi timing, carry-over, looping,
 * propagation delay and deficit round robin, against hand-computed times. */
#include "link/octo-link.h"

#include <string.h>

#define MS OCTO_MSECOND

typedef struct {
  OctoTrace *trace;
  OctoLink *link;
  OctoQdisc *q[2];
} Fixture;

static OctoTrace *
trace_from (const gchar *text)
{
  GError *error = NULL;
  OctoTrace *trace = octo_trace_parse (text, strlen (text), "test", &error);
  g_assert_no_error (error);
  return trace;
}

static void
setup (Fixture *f, const gchar *trace_text, OctoTime delay, guint n_queues)
{
  OctoQdiscEnv env;

  octo_qdisc_env_init (&env);
  f->trace = trace_text ? trace_from (trace_text) : NULL;
  f->link = octo_link_new (f->trace, delay, 0);
  for (guint i = 0; i < n_queues; i++) {
    f->q[i] = octo_qdisc_new ("droptail", &env, NULL);
    g_assert_cmpuint (octo_link_add_queue (f->link, f->q[i]), ==, i);
  }
}

static void
teardown (Fixture *f)
{
  octo_link_free (f->link);
  for (guint i = 0; i < G_N_ELEMENTS (f->q); i++)
    octo_qdisc_free (f->q[i]);
  octo_trace_free (f->trace);
  memset (f, 0, sizeof *f);
}

/* Queues without letting the link run first (a burst arriving at once). */
static void
enqueue_burst (Fixture *f, guint queue, guint id, guint32 size, OctoTime now)
{
  OctoPacket p = { .data = GUINT_TO_POINTER (id), .size = size };
  g_assert_true (octo_qdisc_enqueue (f->q[queue], &p, NULL, NULL, now));
}

static void
enqueue (Fixture *f, guint queue, guint id, guint32 size, OctoTime now)
{
  octo_link_advance (f->link, now);
  enqueue_burst (f, queue, id, size, now);
}

/* Runs the link to @until and checks the (id, delivery time) sequence. */
static void
expect_deliveries (Fixture *f, OctoTime until, const guint *ids,
    const OctoTime *times, guint n)
{
  OctoLinkDelivery d;
  guint got = 0;

  octo_link_advance (f->link, until);
  while (octo_link_pop_delivery (f->link, until, &d)) {
    g_assert_cmpuint (got, <, n);
    g_assert_cmpuint (GPOINTER_TO_UINT (d.packet.data), ==, ids[got]);
    g_assert_cmpuint (d.delivery, ==, times[got]);
    got++;
  }
  g_assert_cmpuint (got, ==, n);
}

static void
test_link_opportunity_serves_1500_bytes (void)
{
  Fixture f = { 0 };
  setup (&f, "10\n20\n", 5 * MS, 1);
  enqueue (&f, 0, 1, 500, 0);
  enqueue (&f, 0, 2, 1000, 0);
  enqueue (&f, 0, 3, 600, 0);
  /* The opportunity at 10 ms carries 1 and 2 exactly; 3 waits for 20 ms. */
  expect_deliveries (&f, 15 * MS, (guint[]) { 1, 2 },
      (OctoTime[]) { 15 * MS, 15 * MS }, 2);
  expect_deliveries (&f, 24 * MS, NULL, NULL, 0);
  expect_deliveries (&f, 25 * MS, (guint[]) { 3 }, (OctoTime[]) { 25 * MS },
      1);
  teardown (&f);
}

static void
test_link_large_packet_carries_over (void)
{
  Fixture f = { 0 };
  setup (&f, "1\n2\n3\n4\n", 0, 1);
  enqueue (&f, 0, 1, 4000, 0);
  enqueue (&f, 0, 2, 100, 0);
  /* 1500 + 1500 + 1000 bytes: done at 3 ms; the 500 left at 3 ms serve
   * packet 2 in the same opportunity. */
  expect_deliveries (&f, 10 * MS, (guint[]) { 1, 2 },
      (OctoTime[]) { 3 * MS, 3 * MS }, 2);
  teardown (&f);
}

static void
test_link_idle_opportunities_are_not_banked (void)
{
  Fixture f = { 0 };
  setup (&f, "1\n", 0, 1);
  /* The opportunity at 5 ms is used (empty) before the arrival at 5 ms. */
  enqueue (&f, 0, 1, 3000, 5 * MS);
  expect_deliveries (&f, 6 * MS, NULL, NULL, 0);
  expect_deliveries (&f, 7 * MS, (guint[]) { 1 }, (OctoTime[]) { 7 * MS }, 1);
  teardown (&f);
}

static void
opportunity_counter (OctoTime time, guint32 bytes, gpointer user_data)
{
  guint64 *sum = user_data;
  g_assert_cmpuint (time % MS, ==, 0);
  *sum += bytes;
}

static void
test_link_long_idle_keeps_the_phase (void)
{
  Fixture f = { 0 };
  guint64 offered = 0;
  setup (&f, "1\n3\n", 0, 1);
  /* Opportunities at 1, 3 | 4, 6 | ...: 3k + 1 and 3k + 3 (period 3). */
  enqueue (&f, 0, 1, 1500, 3000001 * MS + MS / 2);
  expect_deliveries (&f, 3000002 * MS, NULL, NULL, 0);
  expect_deliveries (&f, 3000003 * MS, (guint[]) { 1 },
      (OctoTime[]) { 3000003 * MS }, 1);
  /* Observed links still report every opportunity. */
  octo_link_set_opportunity_func (f.link, opportunity_counter, &offered);
  octo_link_advance (f.link, 3000303 * MS);
  g_assert_cmpuint (offered, ==, 200 * 1500);
  teardown (&f);
}

static void
test_link_trace_loops (void)
{
  Fixture f = { 0 };
  setup (&f, "3\n10\n", 0, 1);
  for (guint i = 1; i <= 5; i++)
    enqueue (&f, 0, i, 1500, 0);
  expect_deliveries (&f, 30 * MS, (guint[]) { 1, 2, 3, 4, 5 },
      (OctoTime[]) { 3 * MS, 10 * MS, 13 * MS, 20 * MS, 23 * MS }, 5);
  teardown (&f);
}

static void
test_link_next_wakeup (void)
{
  Fixture f = { 0 };
  OctoTime t;
  setup (&f, "4\n8\n", 2 * MS, 1);

  g_assert_false (octo_link_next_wakeup (f.link, &t));
  enqueue (&f, 0, 1, 1500, 1 * MS);
  g_assert_true (octo_link_next_wakeup (f.link, &t));
  g_assert_cmpuint (t, ==, 4 * MS);
  octo_link_advance (f.link, 4 * MS);
  g_assert_true (octo_link_next_wakeup (f.link, &t));
  g_assert_cmpuint (t, ==, 6 * MS);
  g_assert_cmpuint (octo_link_in_flight (f.link), ==, 1);
  expect_deliveries (&f, 6 * MS, (guint[]) { 1 }, (OctoTime[]) { 6 * MS }, 1);
  g_assert_false (octo_link_next_wakeup (f.link, &t));
  teardown (&f);
}

static void
test_link_reports_every_opportunity (void)
{
  Fixture f = { 0 };
  guint64 offered = 0;
  setup (&f, "0\n0\n5\n", 0, 1);
  octo_link_set_opportunity_func (f.link, opportunity_counter, &offered);
  /* Opportunities at 0, 0, 5 | 5, 5, 10 | 10, 10, 15 | 15, 15, 20: eleven
   * up to 15 ms. */
  octo_link_advance (f.link, 15 * MS);
  g_assert_cmpuint (offered, ==, 11 * 1500);
  teardown (&f);
}

static void
test_link_drr_is_byte_fair (void)
{
  Fixture f = { 0 };
  setup (&f, NULL, 0, 2);
  for (guint i = 0; i < 4; i++)
    enqueue_burst (&f, 0, 10 + i, 3000, 0);
  for (guint i = 0; i < 6; i++)
    enqueue_burst (&f, 1, 20 + i, 1500, 0);
  /* Queue 0 needs two quanta per packet; queue 1 sends one per visit, so
   * bytes alternate evenly: B A B B A B B A, then A's leftovers. */
  expect_deliveries (&f, 0, (guint[]) { 20, 10, 21, 22, 11, 23, 24, 12, 25,
          13 }, (OctoTime[]) { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }, 10);
  teardown (&f);
}

static void
test_link_shares_opportunities_between_users (void)
{
  Fixture f = { 0 };
  setup (&f, "1\n", 0, 2);
  for (guint i = 0; i < 6; i++)
    enqueue (&f, 0, 10 + i, 1500, 0);
  enqueue (&f, 1, 20, 1500, 0);
  /* User 1's single packet goes out second, not behind user 0's backlog. */
  expect_deliveries (&f, 3 * MS, (guint[]) { 10, 20, 11 },
      (OctoTime[]) { 1 * MS, 2 * MS, 3 * MS }, 3);
  teardown (&f);
}

/* The worst one-way delay of a 4 Mbit/s user (1500 bytes every 3 ms) on a
 * 24 Mbit/s link with 10 ms propagation, over 3 s, beside a 40 Mbit/s
 * flood (1500 bytes every 0.3 ms) in its own queue or in the same one. */
static OctoTime
light_user_worst_delay (gboolean flood, gboolean shared_queue)
{
  Fixture f = { 0 };
  guint flood_queue = shared_queue ? 0 : 1;
  OctoTime worst = 0, next_light = 0, next_flood = 0;
  OctoLinkDelivery d;
  guint delivered = 0, sent = 0;

  setup (&f, "1\n1\n", 10 * MS, 2);
  while (next_light < 3000 * MS) {
    OctoTime now = flood ? MIN (next_light, next_flood) : next_light;

    octo_link_advance (f.link, now);
    while (octo_link_pop_delivery (f.link, now, &d)) {
      /* The light user's packets carry their arrival time + 1. */
      if (GPOINTER_TO_SIZE (d.packet.data) != 0) {
        worst = MAX (worst, d.delivery - (GPOINTER_TO_SIZE (d.packet.data) -
                1));
        delivered++;
      }
    }
    if (now == next_light) {
      OctoPacket p = { .data = GSIZE_TO_POINTER (now + 1), .size = 1500 };
      g_assert_true (octo_qdisc_enqueue (f.q[0], &p, NULL, NULL, now));
      next_light += 3 * MS;
      sent++;
    }
    if (flood && now == next_flood) {
      OctoPacket p = { .data = NULL, .size = 1500 };
      octo_qdisc_enqueue (f.q[flood_queue], &p, NULL, NULL, now);
      next_flood += 300 * OCTO_USECOND;
    }
  }
  octo_link_advance (f.link, 4000 * MS);
  while (octo_link_pop_delivery (f.link, 4000 * MS, &d)) {
    if (GPOINTER_TO_SIZE (d.packet.data) != 0) {
      worst = MAX (worst, d.delivery - (GPOINTER_TO_SIZE (d.packet.data) -
              1));
      delivered++;
    }
  }
  if (!shared_queue)
    g_assert_cmpuint (delivered, ==, sent);
  teardown (&f);
  return worst;
}

static void
test_link_a_flood_in_its_own_queue_leaves_a_light_user_alone (void)
{
  /* Alone: 10 ms propagation plus the wait for the next opportunity (an
   * arrival at an opportunity's instant queues after it is used). */
  g_assert_cmpuint (light_user_worst_delay (FALSE, FALSE), ==, 11 * MS);
  /* Beside the flood, deficit round robin serves the light user's packet
   * in the same opportunity, ahead of the flood's backlog. */
  g_assert_cmpuint (light_user_worst_delay (TRUE, FALSE), ==, 11 * MS);
  /* The control: one shared FIFO puts it behind the flood's full buffer
   * (375 KB at 24 Mbit/s: 125 ms, then the propagation). */
  g_assert_cmpuint (light_user_worst_delay (TRUE, TRUE), >, 100 * MS);
}

typedef struct {
  OctoLink *link;
  OctoTime times[4];
  guint n;
} DropTimes;

static void
record_drop_time (G_GNUC_UNUSED const OctoPacket *packet,
    G_GNUC_UNUSED OctoDropReason reason, gpointer user_data)
{
  DropTimes *d = user_data;
  g_assert_cmpuint (d->n, <, G_N_ELEMENTS (d->times));
  d->times[d->n++] = octo_link_time (d->link);
}

static void
test_link_time_is_the_decision_time (void)
{
  OctoTrace *trace = trace_from ("10\n20\n");
  OctoLink *link = octo_link_new (trace, 0, 0);
  DropTimes d = { .link = link };
  OctoQdiscEnv env;

  octo_qdisc_env_init (&env);
  env.drop_func = record_drop_time;
  env.user_data = &d;
  OctoQdisc *q = octo_qdisc_new ("bode:target=5ms,min_thr=0,limit=1500",
      &env, NULL);
  octo_link_add_queue (link, q);

  OctoPacket a = { .data = GUINT_TO_POINTER (1), .size = 1500 };
  OctoPacket b = { .data = GUINT_TO_POINTER (2), .size = 1500 };
  octo_link_advance (link, 1 * MS);
  octo_qdisc_enqueue (q, &a, NULL, NULL, 1 * MS);
  /* Overflow on arrival at 3 ms: the link's time is the arrival's. */
  octo_link_advance (link, 3 * MS);
  g_assert_false (octo_qdisc_enqueue (q, &b, NULL, NULL, 3 * MS));
  /* Advancing to 12 ms, a (9 ms old) is dropped by the opportunity at
   * 10 ms, not at the previous event (3 ms) nor at 12 ms. */
  octo_link_advance (link, 12 * MS);
  g_assert_cmpuint (d.n, ==, 2);
  g_assert_cmpuint (d.times[0], ==, 3 * MS);
  g_assert_cmpuint (d.times[1], ==, 10 * MS);
  g_assert_cmpuint (octo_link_time (link), ==, 12 * MS);
  octo_link_free (link);
  octo_qdisc_free (q);
  octo_trace_free (trace);
}

static void
test_link_unconstrained_flight_is_bounded (void)
{
  Fixture f = { 0 };
  OctoTime t;
  setup (&f, NULL, 10 * MS, 1);
  octo_link_set_flight_limit (f.link, 3000);
  for (guint i = 1; i <= 4; i++)
    enqueue_burst (&f, 0, i, 1500, 0);
  /* 3000 bytes in propagation: 3 and 4 wait in their queue, and the link
   * next needs the caller when 1 and 2 arrive, not at once. */
  octo_link_advance (f.link, 0);
  g_assert_cmpuint (octo_link_in_flight (f.link), ==, 2);
  g_assert_cmpuint (octo_qdisc_queued_packets (f.q[0]), ==, 2);
  g_assert_true (octo_link_next_wakeup (f.link, &t));
  g_assert_cmpuint (t, ==, 10 * MS);
  expect_deliveries (&f, 10 * MS, (guint[]) { 1, 2 },
      (OctoTime[]) { 10 * MS, 10 * MS }, 2);
  /* Room again: 3 and 4 leave on the next advance, at once. */
  g_assert_true (octo_link_next_wakeup (f.link, &t));
  g_assert_cmpuint (t, ==, 0);
  octo_link_advance (f.link, 10 * MS);
  expect_deliveries (&f, 30 * MS, (guint[]) { 3, 4 },
      (OctoTime[]) { 20 * MS, 20 * MS }, 2);
  /* The packet bound too: 3000 / 64 = 46 tiny packets. */
  for (guint i = 1; i <= 60; i++)
    enqueue_burst (&f, 0, 100 + i, 1, 30 * MS);
  octo_link_advance (f.link, 30 * MS);
  g_assert_cmpuint (octo_link_in_flight (f.link), ==, 46);
  teardown (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shim/link/opportunity-serves-1500-bytes",
      test_link_opportunity_serves_1500_bytes);
  g_test_add_func ("/shim/link/large-packet-carries-over",
      test_link_large_packet_carries_over);
  g_test_add_func ("/shim/link/idle-opportunities-are-not-banked",
      test_link_idle_opportunities_are_not_banked);
  g_test_add_func ("/shim/link/trace-loops", test_link_trace_loops);
  g_test_add_func ("/shim/link/long-idle-keeps-the-phase",
      test_link_long_idle_keeps_the_phase);
  g_test_add_func ("/shim/link/next-wakeup", test_link_next_wakeup);
  g_test_add_func ("/shim/link/reports-every-opportunity",
      test_link_reports_every_opportunity);
  g_test_add_func ("/shim/link/drr-is-byte-fair", test_link_drr_is_byte_fair);
  g_test_add_func ("/shim/link/shares-opportunities-between-users",
      test_link_shares_opportunities_between_users);
  g_test_add_func ("/shim/link/a-flood-in-its-own-queue-leaves-a-light-user-alone",
      test_link_a_flood_in_its_own_queue_leaves_a_light_user_alone);
  g_test_add_func ("/shim/link/time-is-the-decision-time",
      test_link_time_is_the_decision_time);
  g_test_add_func ("/shim/link/unconstrained-flight-is-bounded",
      test_link_unconstrained_flight_is_bounded);
  return g_test_run ();
}
