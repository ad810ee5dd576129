/* The simulator's multipath topologies (bench/sim/sim-mp.h). */
#include "sim-mp.h"

#define MS OCTO_MSECOND
#define S OCTO_SECOND

static SimMpLink
link_of (guint mbps, guint one_way_ms, guint buffer_ms)
{
  SimMpLink l = {
    .rate_bps = (guint64) mbps * 1000000,
    .one_way = one_way_ms * MS,
    .buffer_bytes = (guint64) mbps * 1000000 / 8 * buffer_ms / 1000,
  };
  return l;
}

/* A video of at most 2 Mbit/s over two 4 Mbit/s links, 20 and @owd2_ms one
 * way, Delay-BBR paths and the minimum-cost scheduler. */
static SimMpConfig
two_link_video (guint owd2_ms, OctoTime duration)
{
  SimMpConfig c = {
    .n_links = 2,
    .links = { link_of (4, 20, 300), link_of (4, owd2_ms, 300) },
    .n_flows = 1,
    .flows = { {.n_paths = 2,.links = {0, 1},.cc = OCTO_SENDER_DELAY_BBR,
            .scheduler = "min-cost",.video_max_bps = 2000000} },
    .duration = duration,
    .seed = 1,
  };
  return c;
}

/* A 2 Mbit/s video over two idle 4 Mbit/s links of 20 ms: the minimum-cost
 * scheduler spreads each frame over both, every frame arrives whole, and
 * soon after one one-way delay plus its transmission time. */
static void
test_video_over_two_links_uses_both (void)
{
  SimMpConfig c = two_link_video (20, 20 * S);
  SimMpResult r;
  gdouble mean = 0;
  SimMpFlowResult *v;

  sim_mp_run (&c, 10 * S, 20 * S, &r);
  v = &r.flows[0];
  g_assert_cmpuint (v->frames, ==, 600);
  g_assert_cmpuint (v->frames_complete, >=, 598);
  g_assert_cmpuint (v->packets_lost, ==, 0);
  g_assert_cmpuint (v->path_packets[0], >, v->packets_sent * 3 / 10);
  g_assert_cmpuint (v->path_packets[1], >, v->packets_sent * 3 / 10);
  /* the source reached its maximum: ~2 Mbit/s of link bytes */
  g_assert_cmpfloat (v->window_bytes * 8 / 10.0, >, 1.8e6);
  for (guint i = 0; i < v->frame_delays->len; i++)
    mean += (gdouble) g_array_index (v->frame_delays, OctoTime, i) /
        v->frame_delays->len;
  g_assert_cmpfloat (mean, >, 20 * MS);
  g_assert_cmpfloat (mean, <, 40 * MS);
  sim_mp_result_clear (&r);
}

/* A video flow pads as octopussink does: while a path's own estimate is
 * under four times what the flow sends.  At 2 Mbit/s over two 4 Mbit/s
 * links that is every probing phase; at 0.5 Mbit/s the paths' estimates
 * pass the ceiling and the padding stops.  (The simulator's rule before
 * session 30, the paths together under 1.25 times the video's maximum,
 * 2.5 Mbit/s, sent none at 2 Mbit/s.) */
static void
test_a_video_pads_while_its_paths_are_under_four_times_its_rate (void)
{
  SimMpConfig c = two_link_video (20, 30 * S);
  SimMpResult full, low;

  sim_mp_run (&c, 10 * S, 30 * S, &full);
  c.flows[0].video_max_bps = 500000;
  sim_mp_run (&c, 10 * S, 30 * S, &low);
  g_test_message ("padding packets 10-30 s: 2 Mbit/s %" G_GUINT64_FORMAT
      ", 0.5 Mbit/s %" G_GUINT64_FORMAT, full.flows[0].padding_packets,
      low.flows[0].padding_packets);
  g_assert_cmpuint (full.flows[0].padding_packets, >, 100);
  g_assert_cmpuint (low.flows[0].padding_packets, <,
      full.flows[0].padding_packets / 10);
  sim_mp_result_clear (&full);
  sim_mp_result_clear (&low);
}

/* The same inputs give the same run. */
static void
test_runs_are_deterministic (void)
{
  SimMpConfig c = {
    .n_links = 2,
    .links = { link_of (3, 30, 200), link_of (2, 60, 200) },
    .n_flows = 3,
    .flows = {
          {.n_paths = 2,.links = {0, 1},.cc = OCTO_SENDER_BBR,
            .scheduler = "sfl",.video_max_bps = 2000000},
          {.n_paths = 1,.links = {0},.cc = OCTO_SENDER_BBR},
          {.n_paths = 1,.links = {1},.gcc = TRUE,.start = 2 * S},
        },
    .duration = 10 * S,
    .seed = 3,
  };
  SimMpResult a, b;

  sim_mp_run (&c, 0, 10 * S, &a);
  sim_mp_run (&c, 0, 10 * S, &b);
  for (guint f = 0; f < 3; f++) {
    g_assert_cmpuint (a.flows[f].packets_sent, >, 0);
    g_assert_cmpuint (a.flows[f].packets_sent, ==, b.flows[f].packets_sent);
    g_assert_cmpuint (a.flows[f].packets_lost, ==, b.flows[f].packets_lost);
    g_assert_cmpuint (a.flows[f].owd_sum, ==, b.flows[f].owd_sum);
    g_assert_cmpuint (a.flows[f].frames_complete, ==,
        b.flows[f].frames_complete);
  }
  sim_mp_result_clear (&a);
  sim_mp_result_clear (&b);
}

/* A backlogged flow fills its link; what the buffer drops is counted as
 * lost, the rest delivered. */
static void
test_a_backlogged_flow_fills_its_link (void)
{
  SimMpConfig c = {
    .n_links = 1,
    .links = { link_of (3, 100, 300) },
    .n_flows = 1,
    .flows = { {.n_paths = 1,.links = {0},.cc = OCTO_SENDER_BBR} },
    .duration = 30 * S,
    .seed = 1,
  };
  SimMpResult r;
  SimMpFlowResult *f;

  sim_mp_run (&c, 10 * S, 30 * S, &r);
  f = &r.flows[0];
  g_assert_cmpfloat (f->window_bytes * 8 / 20.0, >, 0.9 * 3e6);
  g_assert_cmpfloat (f->window_bytes * 8 / 20.0, <=, 3e6 * 1.001);
  g_assert_cmpuint (f->packets_delivered + f->packets_lost, <=,
      f->packets_sent);
  /* what is still in flight at the end: at most the buffer and the pipe */
  g_assert_cmpuint (f->packets_sent - f->packets_delivered - f->packets_lost,
      <, 200);
  /* one-way delay: at least the propagation delay, at most it plus the
   * buffer */
  g_assert_cmpuint (f->owd_sum / f->packets_delivered, >=, 100 * MS);
  g_assert_cmpuint (f->owd_sum / f->packets_delivered, <=, 401 * MS);
  sim_mp_result_clear (&r);
}

/* Link 0 loses everything for 5 s: the video's path over it goes down,
 * its unACKed packets go out again on path 1 and no frame is lost that
 * would have arrived without the outage; after it, path 0 is back. */
static void
test_a_path_outage_costs_no_frame (void)
{
  SimMpConfig c = two_link_video (50, 30 * S);
  SimMpResult clean, cut;

  sim_mp_run (&c, 0, 30 * S, &clean);
  c.links[0].down_from = 10 * S;
  c.links[0].down_until = 15 * S;
  sim_mp_run (&c, 0, 30 * S, &cut);
  g_assert_cmpuint (clean.flows[0].packets_rescheduled, ==, 0);
  g_assert_cmpuint (cut.flows[0].packets_lost, >, 0);
  g_assert_cmpuint (cut.flows[0].packets_rescheduled, >=,
      cut.flows[0].packets_lost);
  g_assert_cmpuint (cut.flows[0].frames_complete, ==,
      clean.flows[0].frames_complete);
  g_assert_cmpuint (cut.flows[0].frames_complete, >=,
      cut.flows[0].frames - 1);
  /* path 0 is probed while down, comes back and carries the data again:
   * over two thirds of what it carries in the clean run (unprobed, it
   * carried nothing after the outage began: 2,109 of 6,274) */
  g_assert_cmpuint (cut.flows[0].path_packets[0], >,
      clean.flows[0].path_packets[0] * 2 / 3);
  sim_mp_result_clear (&clean);
  sim_mp_result_clear (&cut);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim-mp/video-over-two-links-uses-both",
      test_video_over_two_links_uses_both);
  g_test_add_func
      ("/sim-mp/a-video-pads-while-its-paths-are-under-four-times-its-rate",
      test_a_video_pads_while_its_paths_are_under_four_times_its_rate);
  g_test_add_func ("/sim-mp/runs-are-deterministic",
      test_runs_are_deterministic);
  g_test_add_func ("/sim-mp/a-backlogged-flow-fills-its-link",
      test_a_backlogged_flow_fills_its_link);
  g_test_add_func ("/sim-mp/a-path-outage-costs-no-frame",
      test_a_path_outage_costs_no_frame);
  return g_test_run ();
}
