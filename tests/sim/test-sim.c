/* The simulator: deterministic, and its Oracle keeps the network queue
 * empty while delivering everything it sends. */
#include <string.h>

#include "link/octo-trace.h"
#include "sim-run.h"

static gchar *
data_path (const gchar *kind, const gchar *name)
{
  return g_build_filename (g_getenv ("OCTO_DATA_DIR"), "traces", kind, name,
      NULL);
}

static SimResult *
run_case_cross (guint case_id, const gchar *scheme, const gchar *video,
    guint duration_s, guint64 cross_bps)
{
  gchar *down = data_path ("network", "Verizon-LTE-short.down");
  gchar *vpath = data_path ("video", video);
  SimRunConfig config = {
    .case_id = case_id, .scheme = sim_scheme_find (scheme),
    .down_trace = down, .video_trace = vpath, .rtt_ms = 60,
    .duration_s = duration_s, .seed = 1, .cross_bps = cross_bps,
  };
  GError *error = NULL;
  SimResult *r;

  g_assert_nonnull (config.scheme);
  r = sim_run (&config, &error);
  g_assert_no_error (error);
  g_free (down);
  g_free (vpath);
  return r;
}

static SimResult *
run_case (guint case_id, const gchar *scheme, const gchar *video,
    guint duration_s)
{
  return run_case_cross (case_id, scheme, video, duration_s, 0);
}

static void
test_identical_inputs_give_identical_results (void)
{
  SimResult *a = run_case (2, "octopus", "mot17-10-quality.trace", 10);
  SimResult *b = run_case (2, "octopus", "mot17-10-quality.trace", 10);

  g_assert_cmpuint (a->n_frames, ==, 300);
  g_assert_cmpuint (a->n_frames, ==, b->n_frames);
  g_assert_cmpmem (a->frames, sizeof (OctoFrameRecord) * a->n_frames,
      b->frames, sizeof (OctoFrameRecord) * b->n_frames);
  g_assert_cmpmem (a->outcomes, sizeof (OctoFrameOutcome) * a->n_frames,
      b->outcomes, sizeof (OctoFrameOutcome) * b->n_frames);
  g_assert_cmpmem (&a->summary, sizeof (a->summary), &b->summary,
      sizeof (b->summary));
  /* and it is not trivially empty: frames were shown */
  g_assert_cmpuint (a->summary.n_shown, >, 200);
  sim_result_free (a);
  sim_result_free (b);
}

/* The most bytes the trace offers in any @ms-millisecond window. */
static guint64
max_slot_bytes (const OctoTrace *trace, guint ms)
{
  guint64 best = 0;

  for (guint i = 0, j = 0; i < trace->n; i++) {
    while (j < trace->n && trace->ms[j] < trace->ms[i] + ms)
      j++;
    best = MAX (best, (guint64) (j - i) * 1500);
  }
  return best;
}

static void
test_oracle_keeps_network_queue_empty_and_delivers_what_it_sends (void)
{
  SimResult *r = run_case (2, "oracle", "mot17-10-quality.trace", 20);
  gchar *path = data_path ("network", "Verizon-LTE-short.down");
  OctoTrace *trace = octo_trace_load (path, NULL);
  guint64 network = 0;

  for (guint i = 0; i < OCTO_DROP_N_REASONS; i++)
    network += r->network_drops[i];
  g_assert_cmpuint (network, ==, 0);
  /* every byte it sent arrived; the bottleneck never held more than the
   * link offers in one 5 ms slot (the Oracle paces evenly within a slot, the
   * trace's opportunities come in bursts) */
  g_assert_cmpuint (r->delivered_link_bytes, ==, r->sent_link_bytes);
  g_assert_cmpuint (r->max_queued_bytes, <=, max_slot_bytes (trace, 5));
  g_assert_cmpuint (r->max_queued_bytes, >, 0);
  g_assert_cmpfloat (r->summary.p99_latency_ms, <, 250);
  octo_trace_free (trace);
  g_free (path);
  sim_result_free (r);
}

/* 2 Mbit/s of plain cross traffic shares the bottleneck: it is carried at
 * its rate (its packets are FIFO traffic to every queue) and leaves the
 * stream less of the link. */
static void
test_cross_traffic_shares_the_bottleneck (void)
{
  SimResult *alone = run_case (2, "octopus", "mot17-10-quality.trace", 20);
  SimResult *shared = run_case_cross (2, "octopus", "mot17-10-quality.trace",
      20, 2000000);

  g_assert_cmpuint (alone->cross_sent_bytes, ==, 0);
  /* 2 Mbit/s for the 20 s run and its 2 s drain, in 1500-byte packets */
  g_assert_cmpuint (shared->cross_sent_bytes, ==, 3667 * 1500);
  g_assert_cmpfloat (shared->cross_delivered_bytes, >=,
      0.95 * shared->cross_sent_bytes);
  g_assert_cmpuint (shared->delivered_bytes, <, alone->delivered_bytes);
  sim_result_free (alone);
  sim_result_free (shared);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/deterministic",
      test_identical_inputs_give_identical_results);
  g_test_add_func ("/sim/oracle-queue-empty",
      test_oracle_keeps_network_queue_empty_and_delivers_what_it_sends);
  g_test_add_func ("/sim/cross-traffic",
      test_cross_traffic_shares_the_bottleneck);
  return g_test_run ();
}
