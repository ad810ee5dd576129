/* octo-sim: runs one experiment of the matrix on a virtual clock and writes
 * its per-frame CSV, its summary record and the inputs it used.  Identical
 * inputs give byte-identical files; nothing about the host or the date is
 * written (bench/experiments.py keeps that apart). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "octo-json.h"
#include "sim-output.h"

static gint case_id = 0;
static gchar *scheme_name = NULL, *down_trace = NULL, *up_trace = NULL;
static gchar *video_trace = NULL, *out_dir = NULL;
static gchar *trace_label = NULL, *video_label = NULL;
static gchar *scenario_name = NULL, *video_trace2 = NULL;
static gint rtt_ms = 60, duration_s = 60, seed = 1, slack_ms = -1;
static gint duration_ms = 0, drain_ms = -1, encode_lag_ms = 0;
static gdouble cross_mbps = 0;
static gboolean list_schemes = FALSE, list_schemes_csv = FALSE;

static GOptionEntry entries[] = {
  {"case", 'c', 0, G_OPTION_ARG_INT, &case_id,
      "Case study: 1 framerate, 2 quality, 3 volumetric", "N"},
  {"scheme", 's', 0, G_OPTION_ARG_STRING, &scheme_name,
      "Scheme (see --list-schemes)", "NAME"},
  {"trace", 't', 0, G_OPTION_ARG_FILENAME, &down_trace,
      "Downlink Mahimahi trace", "FILE"},
  {"up-trace", 0, 0, G_OPTION_ARG_FILENAME, &up_trace,
      "Uplink trace (default: unconstrained)", "FILE"},
  {"video", 'v', 0, G_OPTION_ARG_FILENAME, &video_trace,
      "Video trace of the case's format", "FILE"},
  {"rtt-ms", 'r', 0, G_OPTION_ARG_INT, &rtt_ms,
      "Round-trip propagation delay in ms (default 60)", "MS"},
  {"duration", 'd', 0, G_OPTION_ARG_INT, &duration_s,
      "Simulated seconds (default 60)", "S"},
  {"duration-ms", 0, 0, G_OPTION_ARG_INT, &duration_ms,
      "Capture for this many ms instead of --duration (a live run's span, so "
      "that the simulated run ends where it ended; default 0: --duration)",
      "MS"},
  {"drain-ms", 0, 0, G_OPTION_ARG_INT, &drain_ms,
      "How long the links run on after the capture ends, in ms, at least "
      "--encode-lag-ms (a live run's, whose links stop that long after its "
      "capture ended; default -1: 2000)", "MS"},
  {"encode-lag-ms", 0, 0, G_OPTION_ARG_INT, &encode_lag_ms,
      "Send each frame this long after its capture, as a live encoder does "
      "(0..1000; default 0)", "MS"},
  {"seed", 0, 0, G_OPTION_ARG_INT, &seed, "Random seed (default 1)", "N"},
  {"cross-mbps", 0, 0, G_OPTION_ARG_DOUBLE, &cross_mbps,
      "Constant-rate cross traffic through the bottleneck queue, Mbit/s "
      "(default 0: none)", "MBPS"},
  {"slack-ms", 0, 0, G_OPTION_ARG_INT, &slack_ms,
      "Slack of every tagged message, as octopustag's slack: droppable only "
      "after its head waited that long in a queue (0..1023; default -1: the "
      "preset's, 10 for case 2, else 0)",
      "MS"},
  {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
      "Directory for frames.csv, summary.json, details.json, series.csv, inputs.json "
      "and the sent/received logs octo-metrics reads",
      "DIR"},
  {"trace-label", 0, 0, G_OPTION_ARG_STRING, &trace_label,
      "Trace name in the summary (default: file name without extension)",
      "NAME"},
  {"video-label", 0, 0, G_OPTION_ARG_STRING, &video_label,
      "Video name in the summary (default: file name up to the first '-' "
      "or '.')", "NAME"},
  {"scenario", 0, 0, G_OPTION_ARG_STRING, &scenario_name,
      "single (default), competing (a 12 Mbit/s legacy drop-tail link "
      "shared with a backlogged BBR flow; --trace unused), two-bottlenecks "
      "(a 12 Mbit/s legacy drop-tail link, then --trace with the scheme's "
      "queue) or two-streams (two streams of the scheme share the queue; "
      "the second's files go to DIR/stream2)", "NAME"},
  {"video2", 0, 0, G_OPTION_ARG_FILENAME, &video_trace2,
      "two-streams: the second stream's video (default: --video)", "FILE"},
  {"list-schemes", 0, 0, G_OPTION_ARG_NONE, &list_schemes,
      "List the schemes and exit", NULL},
  {"list-schemes-csv", 0, 0, G_OPTION_ARG_NONE, &list_schemes_csv,
      "List the schemes for scripts and exit: name,cases,endpoint_baseline,"
      "network_queue (cases space-separated; endpoint_baseline 1 for the "
      "endpoint-adaptation baselines), in report order", NULL},
  G_OPTION_ENTRY_NULL
};


static gchar *
default_label (const gchar *path, gboolean video)
{
  gchar *base = g_path_get_basename (path);
  gchar *cut = strchr (base, '.');

  if (cut)
    *cut = '\0';
  /* mot17-10-quality -> mot17-10 */
  if (video && (cut = strrchr (base, '-')) && cut != strchr (base, '-'))
    *cut = '\0';
  return base;
}




static const gchar *const scenario_names[] = {
  [SIM_SCENARIO_SINGLE] = "single",
  [SIM_SCENARIO_COMPETING] = "competing",
  [SIM_SCENARIO_TWO_BOTTLENECKS] = "two-bottlenecks",
  [SIM_SCENARIO_TWO_STREAMS] = "two-streams",
};

static gboolean
parse_scenario (const gchar *name, SimScenario *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (scenario_names); i++)
    if (g_strcmp0 (name ? name : "single", scenario_names[i]) == 0) {
      *out = i;
      return TRUE;
    }
  return FALSE;
}

static gchar *
file_sha256 (const gchar *path)
{
  gchar *contents, *sum;
  gsize len;

  if (!g_file_get_contents (path, &contents, &len, NULL))
    return g_strdup ("unreadable");
  sum = g_compute_checksum_for_data (G_CHECKSUM_SHA256, (guchar *) contents,
      len);
  g_free (contents);
  return sum;
}

static gchar *
inputs_json (void)
{
  const gchar *paths[] = { down_trace, up_trace, video_trace, video_trace2 };
  const gchar *keys[] = { "trace", "up_trace", "video", "video2" };
  GString *s = g_string_new ("{\n");

  g_string_append_printf (s, "  \"case\": %d, \"scheme\": ", case_id);
  octo_json_append_string (s, scheme_name);
  g_string_append_printf (s, ", \"rtt_ms\": %d, \"duration_s\": %d, "
      "\"seed\": %d, \"cross_mbps\": %g,\n  \"scenario\": ", rtt_ms,
      duration_s, seed, cross_mbps);
  octo_json_append_string (s, scenario_name ? scenario_name : "single");
  /* only when set, so runs without it keep their inputs byte-identical */
  if (slack_ms >= 0)
    g_string_append_printf (s, ", \"slack_ms\": %d", slack_ms);
  if (duration_ms > 0)
    g_string_append_printf (s, ", \"duration_ms\": %d", duration_ms);
  if (drain_ms >= 0)
    g_string_append_printf (s, ", \"drain_ms\": %d", drain_ms);
  if (encode_lag_ms > 0)
    g_string_append_printf (s, ", \"encode_lag_ms\": %d", encode_lag_ms);
  g_string_append (s, ",\n");
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++) {
    gchar *base, *sum;
    if (!paths[i])
      continue;
    base = g_path_get_basename (paths[i]);
    sum = file_sha256 (paths[i]);
    g_string_append_printf (s, "  \"%s\": {\"file\": ", keys[i]);
    octo_json_append_string (s, base);
    g_string_append_printf (s, ", \"sha256\": \"%s\"},\n", sum);
    g_free (base);
    g_free (sum);
  }
  g_string_append_printf (s, "  \"simulator\": \"gst-octopus octo-sim "
      "%s\"\n}\n", PACKAGE_VERSION);
  return g_string_free (s, FALSE);
}


/* One stream's files in @dir. */
static gboolean
write_outputs (const gchar *dir, const SimResult *result,
    const SimLabels *labels, GError **error)
{
  return g_mkdir_with_parents (dir, 0755) == 0
      && sim_output_write (dir, "frames.csv",
          sim_output_frames_csv (result), error)
      && sim_output_write (dir, "summary.json",
          sim_output_summary_json (result, labels), error)
      && sim_output_write (dir, "details.json",
          sim_output_details_json (result), error)
      && sim_output_write (dir, "sent.csv", sim_output_sent_log (result),
          error)
      && sim_output_write (dir, "received.csv",
          sim_output_received_log (result), error)
      && (!result->series_csv || sim_output_write (dir, "series.csv",
              g_strdup (result->series_csv), error))
      && sim_output_write (dir, "inputs.json", inputs_json (), error);
}

int
main (int argc, char **argv)
{
  g_autoptr (GOptionContext) ctx = g_option_context_new ("- simulate one "
      "Octopus experiment");
  GError *error = NULL;
  SimRunConfig config = { 0 };
  SimLabels labels;
  SimResult *result;
  gchar *dir2, *label2 = NULL;
  gboolean ok;

  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_set_description (ctx, "Example:\n  octo-sim --case 2 "
      "--scheme octopus --trace data/traces/network/Verizon-LTE-short.down "
      "--video data/traces/video/mot17-10-quality.trace --out /tmp/run\n");
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("octo-sim: %s\n%s", error->message,
        g_option_context_get_help (ctx, TRUE, NULL));
    return 2;
  }
  if (list_schemes) {
    for (const SimScheme *const *s = sim_scheme_list (); *s; s++)
      g_print ("%-15s %s (network queue: %s)\n", (*s)->name, (*s)->summary,
          (*s)->down_queue);
    return 0;
  }
  if (list_schemes_csv) {
    g_print ("name,cases,endpoint_baseline,network_queue\n");
    for (const SimScheme *const *s = sim_scheme_list (); *s; s++) {
      g_print ("%s,", (*s)->name);
      for (guint c = 1, n = 0; c <= 3; c++)
        if (sim_scheme_runs_case (*s, c))
          g_print ("%s%u", n++ ? " " : "", c);
      g_print (",%d,%s\n", (*s)->endpoint != SIM_ENDPOINT_TRACE,
          (*s)->down_queue);
    }
    return 0;
  }
  config.scheme = scheme_name ? sim_scheme_find (scheme_name) : NULL;
  if (case_id < 1 || case_id > 3 || !config.scheme || !down_trace
      || !video_trace || !out_dir || rtt_ms < 0 || duration_s <= 0
      || cross_mbps < 0 || slack_ms < -1 || slack_ms > OCTO_SLACK_MS_MAX
      || duration_ms < 0 || encode_lag_ms < 0 || encode_lag_ms > 1000
      || (drain_ms >= 0 && drain_ms < encode_lag_ms) || drain_ms < -1
      || !parse_scenario (scenario_name, &config.scenario)) {
    g_printerr ("octo-sim: need --case 1..3, a known --scheme, --trace, "
        "--video, --out, a known --scenario, --slack-ms -1..%d, "
        "--duration-ms >= 0, --encode-lag-ms 0..1000 and --drain-ms -1 or at "
        "least --encode-lag-ms\n%s",
        OCTO_SLACK_MS_MAX,
        g_option_context_get_help (ctx, TRUE, NULL));
    return 2;
  }
  if (!trace_label)
    trace_label = default_label (down_trace, FALSE);
  if (!video_label)
    video_label = default_label (video_trace, TRUE);

  config.case_id = case_id;
  config.down_trace = down_trace;
  config.up_trace = up_trace;
  config.video_trace = video_trace;
  config.rtt_ms = rtt_ms;
  config.duration_s = duration_s;
  config.duration_ms = duration_ms;
  config.drain_set = drain_ms >= 0;
  config.drain_ms = (guint) MAX (drain_ms, 0);
  config.encode_lag_ms = encode_lag_ms;
  config.seed = seed;
  config.cross_bps = (guint64) (cross_mbps * 1e6);
  config.slack_set = slack_ms >= 0;
  config.slack_ms = (guint) MAX (slack_ms, 0);
  config.video_trace2 = video_trace2;
  labels = (SimLabels) { case_id, scheme_name, trace_label, video_label,
    rtt_ms };
  result = sim_run (&config, &error);
  if (!result) {
    g_printerr ("octo-sim: %s\n", error->message);
    return 1;
  }
  ok = write_outputs (out_dir, result, &labels, &error);
  if (ok && result->second) {
    dir2 = g_build_filename (out_dir, "stream2", NULL);
    label2 = g_strdup_printf ("%s#2", video_trace2 ? default_label
        (video_trace2, TRUE) : video_label);
    labels.video = label2;
    ok = write_outputs (dir2, result->second, &labels, &error);
    g_free (dir2);
  }
  if (!ok) {
    g_printerr ("octo-sim: cannot write to %s: %s\n", out_dir,
        error ? error->message : g_strerror (errno));
    return 1;
  }
  g_free (label2);
  sim_result_free (result);
  return 0;
}
