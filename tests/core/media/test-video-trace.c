/* The shipped video traces load as documented; bad files fail with the
 * file, the line and the reason. */
#include "octo-trace-source.h"

#include <glib/gstdio.h>
#include <unistd.h>

static gchar *
data_path (const gchar *name)
{
  return g_build_filename (g_getenv ("OCTO_DATA_DIR"), "traces", "video",
      name, NULL);
}

static void
test_temporal_trace_loads_with_layers_from_gop_position (void)
{
  gchar *path = data_path ("mot17-10-temp.trace");
  GError *error = NULL;
  OctoTemporalTrace *t = octo_temporal_trace_load (path, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (t->gop_len, ==, 8);
  g_assert_cmpuint (t->n_frames, ==, 640);
  g_assert_cmpuint (t->frames[0].size, ==, 8910);
  g_assert_cmpfloat (t->frames[0].ssim_db, ==, 11.045);
  g_assert_true (t->frames[8].keyframe);
  g_assert_cmpuint (t->frames[12].temporal_layer, ==, 0);
  g_assert_cmpuint (t->frames[10].temporal_layer, ==, 1);
  g_assert_cmpuint (t->frames[13].temporal_layer, ==, 2);
  g_assert_cmpuint (t->frames[639].size, ==, 15112);
  octo_temporal_trace_free (t);
  g_free (path);
}

static void
test_quality_trace_loads_levels_and_picks_by_estimate (void)
{
  gchar *path = data_path ("mot17-10-quality.trace");
  GError *error = NULL;
  OctoQualityTrace *t = octo_quality_trace_load (path, &error);
  OctoTraceSourceConfig c;

  g_assert_no_error (error);
  g_assert_cmpuint (t->gop_len, ==, 10);
  g_assert_cmpuint (t->n_layers, ==, 3);
  g_assert_cmpuint (t->n_levels, ==, 10);
  g_assert_cmpuint (t->n_frames, ==, 500);
  g_assert_cmpuint (t->levels[0].aggregate_kbps, ==, 1200);
  g_assert_cmpuint (t->levels[0].cumulative_kbps[1], ==, 700);
  g_assert_cmpuint (t->levels[0].frames[0].bytes[2], ==, 4436);
  g_assert_cmpfloat (t->levels[0].frames[1].ssim_db[0], ==, 9.73);
  g_assert_cmpuint (t->levels[9].aggregate_kbps, ==, 15000);
  /* the apps' rule: the highest level at or below the estimate, the lowest
   * if none; rates compared as link rates (here without overhead, then
   * with 10 % of it) */
  octo_trace_source_config_init (&c, OCTO_SOURCE_QUALITY);
  c.quality = t;
  c.payload = 1000;
  c.overhead = 0;
  g_assert_cmpuint (octo_trace_source_pick_level (&c, 500000), ==, 0);
  g_assert_cmpuint (octo_trace_source_pick_level (&c, 2050000), ==, 1);
  g_assert_cmpuint (octo_trace_source_pick_level (&c, 2049999), ==, 0);
  g_assert_cmpuint (octo_trace_source_pick_level (&c, 100000000), ==, 9);
  c.overhead = 100;
  g_assert_cmpuint (octo_trace_source_pick_level (&c, 2254999), ==, 0);
  g_assert_cmpuint (octo_trace_source_pick_level (&c, 2255000), ==, 1);
  octo_quality_trace_free (t);
  g_free (path);
}

static void
test_cloud_trace_loads_cells_and_layers (void)
{
  gchar *path = data_path ("dance.trace");
  GError *error = NULL;
  OctoCloudTrace *t = octo_cloud_trace_load (path, &error);
  OctoTraceSourceConfig c;

  g_assert_no_error (error);
  g_assert_cmpuint (t->n_layers, ==, 10);
  g_assert_cmpuint (t->n_cells, ==, 2);
  g_assert_cmpuint (t->n_frames, ==, 200);
  g_assert_cmpuint (octo_cloud_trace_bytes (t, 0, 0, 1), ==, 42066);
  g_assert_cmpuint (t->cumulative_kbps[0], ==, 13740);
  octo_trace_source_config_init (&c, OCTO_SOURCE_CLOUD);
  c.cloud = t;
  c.overhead = 0;
  g_assert_cmpuint (octo_trace_source_pick_level (&c, 1000), ==, 0);
  g_assert_cmpuint (octo_trace_source_pick_level (&c, 27485000), ==, 1);
  octo_cloud_trace_free (t);
  g_free (path);
}

/* The quality preset's slack goes on every message unless the app sets its
 * own (octopustag's slack), up to what the field holds; none goes on a
 * message left untagged. */
static void
test_source_gives_every_tagged_message_its_slack (void)
{
  gchar *path = data_path ("mot17-10-quality.trace");
  GError *error = NULL;
  OctoQualityTrace *t = octo_quality_trace_load (path, &error);
  OctoSourceMessage out[OCTO_SOURCE_MAX_MESSAGES];
  const struct {
    gboolean tag;
    gint slack_ms;
    guint want;
  } cases[] = { {TRUE, -1, OCTO_PRESET_QUALITY_SLACK_MS}, {TRUE, 120, 120},
    {TRUE, 5000, OCTO_SLACK_MS_MAX}, {TRUE, 0, 0}, {FALSE, 120, 0},
    {FALSE, -1, 0} };

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    OctoTraceSourceConfig c;
    OctoTraceSource *s;
    octo_trace_source_config_init (&c, OCTO_SOURCE_QUALITY);
    g_assert_cmpint (c.slack_ms, ==, -1);
    c.quality = t;
    c.tag = cases[i].tag;
    c.slack_ms = cases[i].slack_ms;
    s = octo_trace_source_new (&c, &error);
    g_assert_no_error (error);
    for (guint frame = 0; frame < 12; frame++) {
      guint n = octo_trace_source_next_frame (s, frame * 40 * OCTO_MSECOND,
          100000000, out);
      g_assert_cmpuint (n, ==, t->n_layers);
      for (guint k = 0; k < n; k++)
        g_assert_cmpuint (out[k].header.slack_ms, ==, cases[i].want);
    }
    octo_trace_source_free (s);
  }
  octo_quality_trace_free (t);
  g_free (path);
}

/* A restart makes the next frame a GoP start, the trace skipping ahead to
 * its next one, and the frames after it follow the trace from there: on
 * the temporal trace (GoP 8) a restart asked before frame 3 plays trace
 * frames 8, 9, ... as frames 3, 4, ...; asked when the next frame starts a
 * GoP anyway it skips nothing.  A quality source re-chooses its level there. */
static void
test_restart_starts_a_gop (void)
{
  gchar *path = data_path ("mot17-10-temp.trace");
  GError *error = NULL;
  OctoTemporalTrace *t = octo_temporal_trace_load (path, &error);
  OctoSourceMessage out[OCTO_SOURCE_MAX_MESSAGES];
  OctoTraceSourceConfig c;
  OctoTraceSource *s;

  g_assert_no_error (error);
  g_assert_cmpuint (t->gop_len, ==, 8);
  octo_trace_source_config_init (&c, OCTO_SOURCE_TEMPORAL);
  c.temporal = t;
  c.tag = TRUE;
  s = octo_trace_source_new (&c, &error);
  for (guint frame = 0; frame < 3; frame++)
    octo_trace_source_next_frame (s, 0, 0, out);
  octo_trace_source_restart (s);
  for (guint i = 0; i < 9; i++) {
    g_assert_cmpuint (octo_trace_source_next_frame (s, 0, 0, out), ==, 1);
    g_assert_cmpuint (out[0].frame, ==, 3 + i);
    g_assert_cmpuint (out[0].size, ==, t->frames[8 + i].size);
    g_assert_cmpint (out[0].keyframe, ==, i % 8 == 0);
    g_assert_cmpuint (out[0].layer, ==, t->frames[8 + i].temporal_layer);
  }
  /* at frame 12, trace frame 17: the next GoP start is trace frame 24 */
  octo_trace_source_restart (s);
  octo_trace_source_next_frame (s, 0, 0, out);
  g_assert_true (out[0].keyframe);
  g_assert_cmpuint (out[0].size, ==, t->frames[24].size);
  /* asked when the next frame starts a GoP anyway: nothing skipped */
  for (guint i = 25; i < 32; i++)
    octo_trace_source_next_frame (s, 0, 0, out);
  octo_trace_source_restart (s);
  octo_trace_source_next_frame (s, 0, 0, out);
  g_assert_true (out[0].keyframe);
  g_assert_cmpuint (out[0].frame, ==, 20);
  g_assert_cmpuint (out[0].size, ==, t->frames[32].size);
  octo_trace_source_next_frame (s, 0, 0, out);
  g_assert_false (out[0].keyframe);
  g_assert_cmpuint (out[0].size, ==, t->frames[33].size);
  octo_trace_source_free (s);
  octo_temporal_trace_free (t);
  g_free (path);

  path = data_path ("mot17-10-quality.trace");
  OctoQualityTrace *q = octo_quality_trace_load (path, &error);
  g_assert_no_error (error);
  octo_trace_source_config_init (&c, OCTO_SOURCE_QUALITY);
  c.quality = q;
  c.tag = TRUE;
  c.adapt = TRUE;
  s = octo_trace_source_new (&c, &error);
  octo_trace_source_next_frame (s, 0, 0, out);
  g_assert_cmpuint (octo_trace_source_level (s), ==, 0);
  octo_trace_source_next_frame (s, 0, G_MAXUINT64, out);
  g_assert_cmpuint (octo_trace_source_level (s), ==, 0);
  octo_trace_source_restart (s);
  octo_trace_source_next_frame (s, 0, G_MAXUINT64, out);
  g_assert_true (out[0].keyframe);
  g_assert_cmpuint (octo_trace_source_level (s), ==, q->n_levels - 1);
  g_assert_cmpuint (out[0].size, ==,
      q->levels[q->n_levels - 1].frames[q->gop_len].bytes[0]);
  octo_trace_source_free (s);
  octo_quality_trace_free (q);
  g_free (path);
}

typedef gpointer (*LoadFunc) (const gchar *path, GError **error);

static void
assert_load_fails (LoadFunc load, const gchar *contents, guint line,
    const gchar *reason)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("octo-trace-XXXXXX", &path, NULL);
  GError *error = NULL;
  gchar *want;

  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  g_assert_null (load (path, &error));
  g_assert_nonnull (error);
  want = g_strdup_printf ("%s:%u: %s", path, line, reason);
  g_assert_cmpstr (error->message, ==, want);
  g_free (want);
  g_error_free (error);
  g_unlink (path);
  g_free (path);
}

static void
test_bad_files_name_file_line_and_reason (void)
{
  GError *error = NULL;

  assert_load_fails ((LoadFunc) octo_temporal_trace_load, "8\n0 100 10.5\n1 x 3\n",
      3, "field 2: 'x' is not an integer in 0..4294967295");
  assert_load_fails ((LoadFunc) octo_temporal_trace_load, "8\n0 100 10.5\n2 100 3\n",
      3, "frame ids must count up from 0 without gaps");
  assert_load_fails ((LoadFunc) octo_temporal_trace_load, "0\n", 1,
      "GoP length must be at least 1");
  assert_load_fails ((LoadFunc) octo_temporal_trace_load, "8\n0 100\n", 2,
      "expected 3 fields, found 2");
  assert_load_fails ((LoadFunc) octo_temporal_trace_load, "8\n0 100 nan\n", 2,
      "field 3: 'nan' is not a finite number");
  assert_load_fails ((LoadFunc) octo_quality_trace_load,
      "10 2\n100 0 0 5 50 9\n100 0 1 5 100 10\n100 2 0 5 50 9\n", 4,
      "expected the next layer of the current frame, or layer 0 of the next "
      "frame");
  assert_load_fails ((LoadFunc) octo_quality_trace_load,
      "10 2\n100 0 0 5 50 9\n100 0 1 5 100 10\n200 0 0 5 50 9\n"
      "200 0 1 5 50 9\n200 1 0 5 50 9\n200 1 1 5 50 9\n", 7,
      "every level must have the same number of frames");
  assert_load_fails ((LoadFunc) octo_quality_trace_load, "10 2\n100 0 3 5 50 9\n",
      2, "field 3: '3' is not an integer in 0..1");
  assert_load_fails ((LoadFunc) octo_cloud_trace_load,
      "3 1 1\n0 0 0 1000 5000\n0 1 0 1000 5000\n", 3,
      "missing (frame, layer, cell) entries");
  /* a 13-byte header must not size tables for 4 G entries */
  assert_load_fails ((LoadFunc) octo_cloud_trace_load, "64 64 1000000\n", 1,
      "4096000000 (frame, layer, cell) entries cannot fit in 14 bytes");
  assert_load_fails ((LoadFunc) octo_cloud_trace_load,
      "1 1 1\n0 0 0 10 5\n0 0 0 10 5\n", 3, "duplicate (frame, layer, cell)");

  g_assert_null (octo_temporal_trace_load ("/nonexistent/trace", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_error_free (error);
}

/* A header may end with the frame rate; without it the traces are 30 fps,
 * and a trace source's frames are that far apart. */
static void
test_header_frame_rate_sets_capture_times (void)
{
  const gchar temporal[] = "8 25\n0 100 10\n";
  const gchar quality[] = "10 1 24\n100 0 0 5 50 9\n";
  const gchar artifact[] = "10 1\n100 0 0 5 50 9\n";
  GError *error = NULL;
  OctoTemporalTrace *t = octo_temporal_trace_parse ("t", temporal,
      sizeof (temporal) - 1, &error);
  OctoQualityTrace *q = octo_quality_trace_parse ("q", quality,
      sizeof (quality) - 1, &error);
  OctoQualityTrace *a = octo_quality_trace_parse ("a", artifact,
      sizeof (artifact) - 1, &error);
  OctoTraceSourceConfig c;
  OctoTraceSource *s;

  g_assert_no_error (error);
  g_assert_cmpuint (t->fps, ==, 25);
  g_assert_cmpuint (q->fps, ==, 24);
  g_assert_cmpuint (a->fps, ==, 30);
  octo_trace_source_config_init (&c, OCTO_SOURCE_TEMPORAL);
  c.temporal = t;
  s = octo_trace_source_new (&c, &error);
  g_assert_cmpuint (octo_trace_source_frame_interval (s), ==, 40 * OCTO_MSECOND);
  g_assert_cmpuint (octo_trace_source_capture_time (s, 3), ==, 120 * OCTO_MSECOND);
  octo_trace_source_free (s);
  octo_trace_source_config_init (&c, OCTO_SOURCE_QUALITY);
  c.quality = a;
  s = octo_trace_source_new (&c, &error);
  g_assert_cmpuint (octo_trace_source_capture_time (s, 3), ==, 100 * OCTO_MSECOND);
  octo_trace_source_free (s);
  octo_temporal_trace_free (t);
  octo_quality_trace_free (q);
  octo_quality_trace_free (a);

  g_assert_null (octo_temporal_trace_parse ("t", "8 0\n", 4, &error));
  g_assert_cmpstr (error->message, ==, "t:1: the frame rate must be at least 1");
  g_clear_error (&error);
  g_assert_null (octo_quality_trace_parse ("q", "10 1 25 3\n", 10, &error));
  g_assert_cmpstr (error->message, ==, "q:1: expected 3 fields, found 4");
  g_clear_error (&error);
  g_assert_null (octo_quality_trace_parse ("q", "10\n", 3, &error));
  g_assert_cmpstr (error->message, ==, "q:1: expected 2 fields, found 1");
  g_clear_error (&error);
}

/* A binary file keeps its reason: the bad bytes escaped, a NUL located. */
static void
test_binary_files_name_line_and_escaped_bytes (void)
{
  const gchar high[] = "8\n0 \xff\xfe\x01 3\n";
  const gchar nul[] = "8\n0 100 3\n\0\x01";
  GError *error = NULL;

  g_assert_null (octo_temporal_trace_parse ("t.trace", high,
          sizeof (high) - 1, &error));
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  g_assert_cmpstr (error->message, ==, "t.trace:2: field 2: "
      "'\\377\\376\\001' is not an integer in 0..4294967295");
  g_clear_error (&error);
  g_assert_null (octo_quality_trace_parse ("q.trace", nul, sizeof (nul) - 1,
          &error));
  g_assert_cmpstr (error->message, ==,
      "q.trace:3: a NUL byte: not a text trace");
  g_clear_error (&error);
  g_assert_null (octo_cloud_trace_parse ("c.trace", NULL, 0, &error));
  g_assert_cmpstr (error->message, ==,
      "c.trace:0: empty file: expected 'num_layers num_cells num_frames'");
  g_clear_error (&error);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/video-trace/temporal",
      test_temporal_trace_loads_with_layers_from_gop_position);
  g_test_add_func ("/video-trace/quality",
      test_quality_trace_loads_levels_and_picks_by_estimate);
  g_test_add_func ("/video-trace/cloud", test_cloud_trace_loads_cells_and_layers);
  g_test_add_func ("/video-trace/source-slack",
      test_source_gives_every_tagged_message_its_slack);
  g_test_add_func ("/video-trace/restart-starts-a-gop",
      test_restart_starts_a_gop);
  g_test_add_func ("/video-trace/bad-files",
      test_bad_files_name_file_line_and_reason);
  g_test_add_func ("/video-trace/frame-rate",
      test_header_frame_rate_sets_capture_times);
  g_test_add_func ("/video-trace/binary-files",
      test_binary_files_name_line_and_escaped_bytes);
  return g_test_run ();
}
