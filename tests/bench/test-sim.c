/* The simulator: deterministic, and its Oracle keeps the network queue
 * empty while delivering everything it sends. */
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "link/octo-trace.h"
#include "sim-run.h"
#include "sim-world.h"

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

static SimResult *
run_scenario (guint case_id, const gchar *scheme, const gchar *video,
    guint duration_s, SimScenario scenario)
{
  gchar *down = data_path ("network", case_id == 3 ? "5G-static-1.down" :
      "Verizon-LTE-short.down");
  gchar *vpath = data_path ("video", video);
  SimRunConfig config = {
    .case_id = case_id, .scheme = sim_scheme_find (scheme),
    .down_trace = down, .video_trace = vpath, .rtt_ms = 60,
    .duration_s = duration_s, .seed = 1, .scenario = scenario,
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

static void
assert_same_result (const SimResult *a, const SimResult *b)
{
  g_assert_cmpuint (a->n_frames, ==, b->n_frames);
  g_assert_cmpmem (a->frames, sizeof (OctoFrameRecord) * a->n_frames,
      b->frames, sizeof (OctoFrameRecord) * b->n_frames);
  g_assert_cmpmem (a->outcomes, sizeof (OctoFrameOutcome) * a->n_frames,
      b->outcomes, sizeof (OctoFrameOutcome) * b->n_frames);
  g_assert_cmpmem (&a->summary, sizeof (a->summary), &b->summary,
      sizeof (b->summary));
}

/* Every endpoint baseline, in every case it models, twice: the same
 * frames, the same outcomes; and each shows frames at 3 fps or more
 * (AWStream starts at its lowest configuration, key frames at 3.75 fps). */
static void
test_baselines_are_deterministic (void)
{
  static const struct { guint case_id; const gchar *scheme, *video; } runs[] = {
    { 1, "salsify", "mot17-10-temp.trace" },
    { 1, "awstream-bbr", "mot17-10-temp.trace" },
    { 1, "awstream-cubic", "mot17-10-temp.trace" },
    { 2, "gcc", "mot17-10-quality.trace" },
    { 2, "salsify", "mot17-10-quality.trace" },
    { 2, "awstream-bbr", "mot17-10-quality.trace" },
    { 2, "awstream-cubic", "mot17-10-quality.trace" },
    { 3, "vivo", "dance.trace" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (runs); i++) {
    SimResult *a = run_scenario (runs[i].case_id, runs[i].scheme,
        runs[i].video, 10, SIM_SCENARIO_SINGLE);
    SimResult *b = run_scenario (runs[i].case_id, runs[i].scheme,
        runs[i].video, 10, SIM_SCENARIO_SINGLE);
    g_test_message ("case %u %s: %u of %u shown", runs[i].case_id,
        runs[i].scheme, a->summary.n_shown, a->n_frames);
    assert_same_result (a, b);
    g_assert_cmpuint (a->summary.n_shown, >=, a->n_frames / 10);
    sim_result_free (a);
    sim_result_free (b);
  }
}

/* A baseline asked for a case it does not model is refused by name. */
static void
test_baseline_refuses_other_cases (void)
{
  gchar *down = data_path ("network", "Verizon-LTE-short.down");
  gchar *vpath = data_path ("video", "mot17-10-temp.trace");
  SimRunConfig config = {
    .case_id = 1, .scheme = sim_scheme_find ("vivo"), .down_trace = down,
    .video_trace = vpath, .rtt_ms = 60, .duration_s = 1, .seed = 1,
  };
  GError *error = NULL;

  g_assert_null (sim_run (&config, &error));
  g_assert_nonnull (strstr (error->message, "does not model case 1"));
  g_error_free (error);
  g_free (down);
  g_free (vpath);
}

/* ViVo's transport is reliable and in order: the messages that arrived
 * are exactly the first ones it sent (what is missing is still queued
 * behind them at the end of the drain). */
static void
test_vivo_delivers_in_order_without_loss (void)
{
  SimResult *r = run_scenario (3, "vivo", "dance.trace", 20,
      SIM_SCENARIO_SINGLE);
  guint64 prefix = 0;
  gboolean gap = FALSE;

  for (guint f = 0; f < r->n_frames; f++)
    for (guint k = 0; k < r->frames[f].n_layers; k++) {
      gboolean arrived = r->frames[f].arrival[k] != OCTO_TIME_NONE;
      g_assert_false (gap && arrived);
      gap = gap || !arrived;
      prefix += arrived;
    }
  g_assert_cmpuint (prefix, ==, r->messages_delivered);
  g_assert_cmpuint (r->messages_delivered, >, r->messages_sent / 2);
  sim_result_free (r);
}

/* ViVo fetches: on a link that carries its lowest level (24 Mbit/s; the
 * level is 13.7), a 1 s outage delays the frames around it, and 3 s later
 * every frame shown is again within half a second (a frame's download and
 * a round trip), rather than behind seconds of frames nobody asked for. */
static void
test_vivo_latency_recovers_after_an_outage (void)
{
  gchar *vpath = data_path ("video", "dance.trace");
  gchar *down;
  GString *text = g_string_new (NULL);
  gint fd = g_file_open_tmp ("vivo-outage-XXXXXX.down", &down, NULL);
  SimRunConfig config = {
    .case_id = 3, .scheme = sim_scheme_find ("vivo"), .video_trace = vpath,
    .rtt_ms = 60, .duration_s = 20, .seed = 1,
  };
  GError *error = NULL;
  SimResult *r;
  gdouble worst_ms = 0;
  guint shown = 0;

  /* 2 packets per ms (24 Mbit/s), nothing in [5 s, 6 s), for 25 s */
  for (guint ms = 1; ms <= 25000; ms++)
    if (ms < 5000 || ms >= 6000)
      g_string_append_printf (text, "%u\n%u\n", ms, ms);
  g_assert_cmpint (fd, >=, 0);
  g_assert_true (g_file_set_contents (down, text->str, text->len, NULL));
  config.down_trace = down;
  r = sim_run (&config, &error);
  g_assert_no_error (error);
  for (guint f = 0; f < r->n_frames; f++)
    if (r->frames[f].capture >= 9 * OCTO_SECOND && r->outcomes[f].shown) {
      shown++;
      worst_ms = MAX (worst_ms,
          (r->outcomes[f].show_time - r->frames[f].capture) / 1e6);
    }
  g_test_message ("after the outage: %u frames shown, worst latency %.0f ms",
      shown, worst_ms);
  g_assert_cmpfloat (worst_ms, <, 500);
  /* and it still streams: most of the 220 frames of [9 s, 20 s) */
  g_assert_cmpuint (shown, >=, 150);
  sim_result_free (r);
  close (fd);
  g_unlink (down);
  g_free (down);
  g_free (vpath);
  g_string_free (text, TRUE);
}

/* Two Octopus streams of the quality case share one Octopus queue: each
 * gets close to half of what the two carry (the engine's max-min fair share
 * per stream, both wanting more than half). */
static void
test_two_octopus_streams_share_the_queue_fairly (void)
{
  SimResult *r = run_scenario (2, "octopus", "mot17-10-quality.trace", 30,
      SIM_SCENARIO_TWO_STREAMS);
  guint64 a, b;

  g_assert_nonnull (r->second);
  a = r->delivered_bytes;
  b = r->second->delivered_bytes;
  g_test_message ("stream 1 %" G_GUINT64_FORMAT " B, stream 2 %"
      G_GUINT64_FORMAT " B", a, b);
  g_assert_cmpuint (r->other_delivered_bytes, ==, b);
  g_assert_cmpfloat (MIN (a, b), >=, 0.8 * MAX (a, b));
  g_assert_cmpuint (r->second->summary.n_shown, >, 600);
  sim_result_free (r);
}

/* At a 12 Mbit/s legacy FIFO shared with a backlogged BBR flow, Octopus
 * runs as OctoBBR (the same run, byte for byte), and the link is busy. */
static void
test_competing_flow_at_legacy_fifo (void)
{
  SimResult *octopus = run_scenario (2, "octopus", "mot17-10-quality.trace",
      20, SIM_SCENARIO_COMPETING);
  SimResult *octobbr = run_scenario (2, "octobbr", "mot17-10-quality.trace",
      20, SIM_SCENARIO_COMPETING);
  gdouble total = (gdouble) (octopus->delivered_bytes +
      octopus->other_delivered_bytes) / octopus->capacity_bytes;

  assert_same_result (octopus, octobbr);
  g_test_message ("stream %.2f, competitor %.2f of the link",
      (gdouble) octopus->delivered_bytes / octopus->capacity_bytes,
      (gdouble) octopus->other_delivered_bytes / octopus->capacity_bytes);
  g_assert_cmpuint (octopus->other_delivered_bytes, >, 0);
  g_assert_cmpfloat (total, >=, 0.9);
  sim_result_free (octopus);
  sim_result_free (octobbr);
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

/* series.csv: a row every 100 ms up to the end, whose capacities add up
 * to what the link offered over the run. */
static void
test_series_rows_cover_the_run (void)
{
  SimResult *r = run_case (2, "octopus", "mot17-10-quality.trace", 5);
  gchar **lines = g_strsplit (r->series_csv, "\n", -1);
  guint rows = g_strv_length (lines) - 2;       /* header, trailing "" */
  gdouble capacity_bits = 0;
  gchar **last = NULL;

  g_assert_true (g_str_has_prefix (lines[0], "time_ms,capacity_bps,"
          "estimate_bps,"));
  g_assert_cmpuint (rows, ==, 50);
  for (guint i = 1; i <= rows; i++) {
    gchar **f = g_strsplit (lines[i], ",", -1);
    g_assert_cmpuint (g_strv_length (f), ==, 11);
    g_assert_cmpuint (g_ascii_strtoull (f[0], NULL, 10), ==, 100 * i);
    capacity_bits += g_ascii_strtod (f[1], NULL) / 10;
    g_strfreev (last);
    last = f;
  }
  g_assert_cmpfloat (fabs (capacity_bits / 8 - r->capacity_bytes), <=,
      0.01 * r->capacity_bytes);
  g_assert_cmpuint (g_ascii_strtoull (last[2], NULL, 10), >, 0);
  g_assert_cmpstr (last[10], ==, "probe-bw");
  g_strfreev (last);
  g_strfreev (lines);
  sim_result_free (r);
}

/* 2 Mbit/s of plain cross traffic shares the bottleneck: it is carried at
 * its rate (its packets are FIFO traffic to every queue) and leaves the
 * stream less of the link.  Its losses are overflows of the shared buffer:
 * 4.7 % with the stream at slack 0, 5.5 % at the quality preset's 10 ms,
 * which keeps more of the stream queued. */
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
      0.94 * shared->cross_sent_bytes);
  g_assert_cmpuint (shared->delivered_bytes, <, alone->delivered_bytes);
  sim_result_free (alone);
  sim_result_free (shared);
}

/* A backlogged TCP CUBIC transfer fills a constant link and loses only
 * what overflows the bottleneck buffer: every byte it sent beyond that
 * arrives (reliability). */
static void
test_backlogged_tcp_fills_a_constant_link (void)
{
  SimWorldConfig c;
  OctoTrace *trace = sim_constant_trace (2);    /* 24 Mbit/s */
  const SimFlowStats *fs;
  const SimLinkStats *ls;
  OctoTcpStats ts;
  SimWorld *w;

  sim_world_config_init (&c);
  c.down_trace = trace;
  c.one_way_delay = 30 * OCTO_MSECOND;
  c.n_more_flows = 1;
  c.more_flows[0].transport = SIM_TRANSPORT_TCP;
  c.more_flows[0].backlogged = TRUE;
  w = sim_world_new (&c, NULL, NULL, NULL);
  sim_world_run_until (w, 20 * OCTO_SECOND);
  fs = sim_world_flow_stats (w, 1);
  ls = sim_world_link_stats (w);
  octo_tcp_sender_get_stats (sim_world_flow_tcp (w, 1), &ts);
  g_test_message ("delivered %.1f%% of capacity, %" G_GUINT64_FORMAT
      " loss events, %" G_GUINT64_FORMAT " timeouts, %" G_GUINT64_FORMAT
      " of %" G_GUINT64_FORMAT " segments resent, cwnd %.1f, srtt %.1f ms",
      100.0 * fs->delivered_bytes / ls->capacity_bytes, ts.loss_events,
      ts.timeouts, ts.segments_retransmitted, ts.segments_sent, ts.cwnd,
      ts.srtt / 1e6);
  g_assert_cmpfloat (fs->delivered_bytes, >=, 0.9 * ls->capacity_bytes);
  g_assert_cmpuint (ts.timeouts, ==, 0);
  sim_world_free (w);
  octo_trace_free (trace);
}

/* A constant 12 Mbit/s link that the Oracle never fills, case 2: */
static SimResult *
run_constant_oracle (guint duration_ms, gint drain_ms, guint encode_lag_ms)
{
  gchar *vpath = data_path ("video", "mot17-10-quality.trace");
  gchar *down;
  gint fd = g_file_open_tmp ("sim-constant-XXXXXX.down", &down, NULL);
  SimRunConfig config = {
    .case_id = 2, .scheme = sim_scheme_find ("oracle"), .video_trace = vpath,
    .rtt_ms = 60, .duration_s = 10, .duration_ms = duration_ms,
    .drain_set = drain_ms >= 0, .drain_ms = (guint) MAX (drain_ms, 0),
    .encode_lag_ms = encode_lag_ms, .seed = 1,
  };
  GError *error = NULL;
  SimResult *r;

  g_assert_cmpint (fd, >=, 0);
  g_assert_true (g_file_set_contents (down, "1\n", -1, NULL));
  config.down_trace = down;
  r = sim_run (&config, &error);
  g_assert_no_error (error);
  close (fd);
  g_unlink (down);
  g_free (down);
  g_free (vpath);
  return r;
}

/* --duration-ms ends the capture there (a live run's span), not at a whole
 * second: the 30 fps clip's frames k / 30 s for k < 75, every one captured
 * before 2.5 s (the 76th would be at 2.5 s itself). */
static void
test_duration_in_ms_ends_the_capture (void)
{
  SimResult *r = run_constant_oracle (2500, -1, 0);

  g_assert_cmpuint (r->n_frames, ==, 75);
  g_assert_cmpuint (r->frames[0].capture, ==, 0);
  g_assert_cmpuint (r->frames[74].capture, <, 2500 * OCTO_MSECOND);
  sim_result_free (r);
}

/* --drain-ms: the links stop that long after the capture span (a live
 * run's shim), so what would arrive later never does.  With a 10 ms drain
 * nothing arrives after 2510 ms, some layers the default 2 s lets arrive
 * after it are lost, and everything that arrives does so as without it. */
static void
test_drain_in_ms_ends_the_links (void)
{
  SimResult *a = run_constant_oracle (2500, -1, 0);
  SimResult *b = run_constant_oracle (2500, 10, 0);
  OctoTime stop = 2510 * OCTO_MSECOND;
  guint later = 0;

  for (guint f = 0; f < a->n_frames; f++)
    for (guint k = 0; k < a->frames[f].n_layers; k++) {
      OctoTime t = b->frames[f].arrival[k];
      if (a->frames[f].arrival[k] != OCTO_TIME_NONE
          && a->frames[f].arrival[k] > stop)
        later++;
      if (t == OCTO_TIME_NONE)
        continue;
      g_assert_cmpint (t, <=, stop);
      g_assert_cmpint (t, ==, a->frames[f].arrival[k]);
    }
  g_assert_cmpuint (later, >, 0);
  g_assert_cmpuint (b->messages_delivered + later, <=, a->messages_delivered);
  sim_result_free (a);
  sim_result_free (b);
}

/* The encoder's lag: each frame goes 40 ms after its capture (more than
 * the clip's 33 ms frame interval, so a frame is captured before the one
 * before it is sent); on a link
 * that never queues and an Oracle whose 5 ms slots the lag keeps in phase,
 * every layer arrives exactly 40 ms later than without the lag, and the
 * capture times (what latency counts from) do not move. */
static void
test_encode_lag_delays_every_frame (void)
{
  SimResult *a = run_constant_oracle (3000, -1, 0);
  SimResult *b = run_constant_oracle (3000, -1, 40);
  guint layers = 0;

  g_assert_cmpuint (a->n_frames, ==, b->n_frames);
  for (guint f = 0; f < a->n_frames; f++) {
    g_assert_cmpuint (a->frames[f].capture, ==, b->frames[f].capture);
    g_assert_cmpuint (a->frames[f].n_layers, ==, b->frames[f].n_layers);
    for (guint k = 0; k < a->frames[f].n_layers; k++) {
      if (a->frames[f].arrival[k] == OCTO_TIME_NONE) {
        g_test_message ("frame %u layer %u not delivered", f, k);
        g_assert_cmpint (b->frames[f].arrival[k], ==, OCTO_TIME_NONE);
        continue;
      }
      g_assert_cmpuint (b->frames[f].arrival[k], ==,
          a->frames[f].arrival[k] + 40 * OCTO_MSECOND);
      layers++;
    }
  }
  g_assert_cmpuint (layers, >, a->n_frames);
  sim_result_free (a);
  sim_result_free (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sim/deterministic",
      test_identical_inputs_give_identical_results);
  g_test_add_func ("/sim/oracle-queue-empty",
      test_oracle_keeps_network_queue_empty_and_delivers_what_it_sends);
  g_test_add_func ("/sim/series-rows-cover-the-run",
      test_series_rows_cover_the_run);
  g_test_add_func ("/sim/cross-traffic",
      test_cross_traffic_shares_the_bottleneck);
  g_test_add_func ("/sim/baselines-deterministic",
      test_baselines_are_deterministic);
  g_test_add_func ("/sim/baseline-refuses-other-cases",
      test_baseline_refuses_other_cases);
  g_test_add_func ("/sim/vivo-reliable-in-order",
      test_vivo_delivers_in_order_without_loss);
  g_test_add_func ("/sim/vivo-latency-recovers",
      test_vivo_latency_recovers_after_an_outage);
  g_test_add_func ("/sim/two-streams-fair",
      test_two_octopus_streams_share_the_queue_fairly);
  g_test_add_func ("/sim/competing-legacy-fifo",
      test_competing_flow_at_legacy_fifo);
  g_test_add_func ("/sim/tcp-fills-link",
      test_backlogged_tcp_fills_a_constant_link);
  g_test_add_func ("/sim/duration-in-ms",
      test_duration_in_ms_ends_the_capture);
  g_test_add_func ("/sim/drain-in-ms",
      test_drain_in_ms_ends_the_links);
  g_test_add_func ("/sim/encode-lag",
      test_encode_lag_delays_every_frame);
  return g_test_run ();
}
