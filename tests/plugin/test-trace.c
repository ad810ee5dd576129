/* octopustracesrc (trace replay) and octopusframelog. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <glib/gstdio.h>

#include "gst/octopus/gstoctopusmeta.h"
#include <gst/video/video.h>

static gchar *
write_temp (const gchar *contents)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("octo-trace-XXXXXX", &path, NULL);
  fail_unless (fd >= 0);
  fail_unless (g_file_set_contents (path, contents, -1, NULL));
  close (fd);
  return path;
}

/* The source is live: it releases each frame at its capture time on the
 * (system) clock; the assertions never depend on when. */
static GstBuffer *
next_message (GstHarness *h)
{
  GstBuffer *buf = gst_harness_pull (h);
  fail_unless (buf != NULL);
  return buf;
}

/* Plays a temporal trace (GoP 8) of @n_frames frames of 100 + f bytes,
 * written to a temporary file (@path, for stop_replay()). */
static GstHarness *
start_temporal_replay (guint n_frames, gchar **path)
{
  GString *trace = g_string_new ("8\n");
  for (guint f = 0; f < n_frames; f++)
    g_string_append_printf (trace, "%u %u %u.5\n", f, 100 + f, 10 + f);
  *path = write_temp (trace->str);
  gchar *desc = g_strdup_printf ("octopustracesrc kind=temporal location=%s",
      *path);
  GstHarness *h = gst_harness_new_parse (desc);

  g_free (desc);
  g_string_free (trace, TRUE);
  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  return h;
}

static void
stop_replay (GstHarness *h, gchar *path)
{
  gst_harness_teardown (h);
  g_unlink (path);
  g_free (path);
}

GST_START_TEST (test_temporal_trace_replays_frames_with_layers)
{
  gchar *path;
  GstHarness *h = start_temporal_replay (16, &path);
  static const guint layer[] = { 0, 2, 1, 2, 0, 2, 1, 2 };
  static const guint prio[] = { 0, 3, 2, 3, 1, 3, 2, 3 };
  GstClockTime first = 0;

  for (guint f = 0; f < 16; f++) {
    GstBuffer *buf = next_message (h);
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
    guint8 rec[10];
    fail_unless (m != NULL);
    fail_unless_equals_int (m->frame_id, f);
    fail_unless_equals_int (gst_buffer_get_size (buf), 100 + f);
    fail_unless_equals_int (m->temporal_layer, layer[f % 8]);
    fail_unless_equals_int (m->keyframe, f % 8 == 0);
    /* A live source's timestamps start where the clock stood. */
    if (f == 0)
      first = GST_BUFFER_PTS (buf);
    GstClockTime offset = GST_BUFFER_PTS (buf) - first;
    fail_unless_equals_uint64 (offset, gst_util_uint64_scale (f, GST_SECOND,
            30));
    /* The preset's tags come with it (tag=true by default). */
    fail_unless_equals_int (m->priority, prio[f % 8]);
    fail_unless (m->drop);
    gst_buffer_extract (buf, 0, rec, 10);
    fail_unless_equals_int (GST_READ_UINT32_BE (rec), 0x4f435452);
    fail_unless_equals_int (GST_READ_UINT32_BE (rec + 4), f);
    fail_unless_equals_int (GST_READ_UINT16_BE (rec + 8), 0);
    gst_buffer_unref (buf);
  }
  stop_replay (h, path);
}

GST_END_TEST;

/* An upstream force-key-unit (octopussink's after an outage) makes the
 * next frame a GoP start: the replay skips ahead to the trace's next key
 * frame and goes on from there. */
GST_START_TEST (test_key_unit_request_starts_a_gop)
{
  gchar *path;
  GstHarness *h = start_temporal_replay (24, &path);
  GstBuffer *buf;
  GstOctopusMeta *m;
  guint pulled = 0;

  for (guint f = 0; f < 3; f++)
    gst_buffer_unref (next_message (h));
  fail_unless (gst_harness_push_upstream_event (h,
          gst_video_event_new_upstream_force_key_unit (GST_CLOCK_TIME_NONE,
              TRUE, 0)));
  /* the frame being made when the event came may still be trace frame 3 */
  do {
    buf = next_message (h);
    m = gst_buffer_get_octopus_meta (buf);
    pulled++;
    if (!m->keyframe)
      gst_buffer_unref (buf);
  } while (!m->keyframe && pulled < 3);
  fail_unless (m->keyframe);
  fail_unless (m->frame_id == 3 || m->frame_id == 4);
  fail_unless_equals_int (gst_buffer_get_size (buf), 108);
  gst_buffer_unref (buf);
  buf = next_message (h);
  fail_unless_equals_int (gst_buffer_get_size (buf), 109);
  fail_unless (!gst_buffer_get_octopus_meta (buf)->keyframe);
  gst_buffer_unref (buf);
  stop_replay (h, path);
}

GST_END_TEST;

/* The level is the highest whose aggregate rate fits the estimate; the
 * estimate follows octopussink's upstream bandwidth event. */
GST_START_TEST (test_quality_trace_picks_level_from_estimate)
{
  GString *trace = g_string_new ("2 2\n");
  for (guint level = 0; level < 2; level++)
    for (guint f = 0; f < 6; f++)
      for (guint l = 0; l < 2; l++)
        g_string_append_printf (trace, "%u %u %u %u %u 10.0\n",
            level ? 3000 : 1000, f, l, 100 + 10 * level, (l + 1) * (level ?
                1500 : 500));
  gchar *path = write_temp (trace->str);
  /* 3 Mbit/s of media is about 3.13 Mbit/s on the link: 3.5 fits. */
  gchar *desc = g_strdup_printf ("octopustracesrc kind=quality tag=false "
      "location=%s bitrate=3500000", path);
  GstHarness *h = gst_harness_new_parse (desc);
  GstElement *src = gst_harness_find_element (h, "octopustracesrc");
  guint64 bitrate = 0;
  guint level = 0;

  gst_harness_use_systemclock (h);
  gst_harness_play (h);
  for (guint f = 0; f < 6; f++) {
    for (guint l = 0; l < 2; l++) {
      GstBuffer *buf = next_message (h);
      GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
      fail_unless_equals_int (m->frame_id, f);
      fail_unless_equals_int (m->spatial_layer, l);
      fail_unless_equals_int (m->keyframe, f % 2 == 0);
      fail_unless_equals_int (gst_buffer_get_size (buf), 110);
      /* tag=false: the cumulative media rate, as layer info for octopustag */
      fail_unless_equals_uint64 (m->media_bitrate_threshold_bps,
          (l + 1) * 1500000);
      gst_buffer_unref (buf);
    }
  }
  g_object_get (src, "level", &level, NULL);
  fail_unless_equals_int (level, 1);
  fail_unless (gst_harness_push_upstream_event (h,
          gst_octopus_event_new_bandwidth (900000)));
  g_object_get (src, "bitrate", &bitrate, NULL);
  fail_unless_equals_uint64 (bitrate, 900000);
  gst_object_unref (src);
  gst_harness_teardown (h);
  g_unlink (path);
  g_free (path);
  g_free (desc);
  g_string_free (trace, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_trace_with_bad_line_is_an_actionable_error)
{
  gchar *path = write_temp ("8\n0 100 10.0\n1 abc 10.0\n");
  GstElement *src = gst_element_factory_make ("octopustracesrc", NULL);
  g_object_set (src, "location", path, "kind", 0, NULL);
  fail_unless_equals_int (gst_element_set_state (src, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (src, GST_STATE_NULL);
  gst_object_unref (src);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* The arrival log: one row per message, frame and index from the trace
 * record (or the meta without one). */
GST_START_TEST (test_frame_log_writes_one_row_per_message)
{
  gchar *path = write_temp ("");
  gchar *desc = g_strdup_printf ("octopusframelog location=%s", path);
  GstHarness *h = gst_harness_new_parse (desc);
  gchar *csv;

  gst_harness_set_src_caps_str (h, "application/x-octopus-trace");
  for (guint i = 0; i < 3; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 20, NULL);
    guint8 rec[10];
    gst_buffer_memset (buf, 0, 0, 20);
    GST_WRITE_UINT32_BE (rec, 0x4f435452);
    GST_WRITE_UINT32_BE (rec + 4, 7);
    GST_WRITE_UINT16_BE (rec + 8, i);
    gst_buffer_fill (buf, 0, rec, sizeof rec);
    fail_unless_equals_int (gst_harness_push (h, buf), GST_FLOW_OK);
  }
  GstBuffer *plain = gst_buffer_new_allocate (NULL, 4, NULL);
  GstOctopusMeta *m = gst_buffer_add_octopus_meta (plain);
  m->frame_id = 9;
  m->spatial_layer = 2;
  fail_unless_equals_int (gst_harness_push (h, plain), GST_FLOW_OK);
  gst_harness_teardown (h);

  fail_unless (g_file_get_contents (path, &csv, NULL, NULL));
  gchar **lines = g_strsplit (csv, "\n", -1);
  fail_unless_equals_string (lines[0], "frame,index,arrival_ns");
  static const gchar *expect[] = { "7,0,", "7,1,", "7,2,", "9,2," };
  for (guint i = 0; i < G_N_ELEMENTS (expect); i++)
    fail_unless (g_str_has_prefix (lines[i + 1], expect[i]), "row %u: %s",
        i, lines[i + 1]);
  g_strfreev (lines);
  g_free (csv);
  g_unlink (path);
  g_free (path);
  g_free (desc);
}

GST_END_TEST;

static Suite *
octopus_trace_suite (void)
{
  Suite *s = suite_create ("octopus-trace");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_temporal_trace_replays_frames_with_layers);
  tcase_add_test (tc, test_quality_trace_picks_level_from_estimate);
  tcase_add_test (tc, test_key_unit_request_starts_a_gop);
  tcase_add_test (tc, test_trace_with_bad_line_is_an_actionable_error);
  tcase_add_test (tc, test_frame_log_writes_one_row_per_message);
  return s;
}

GST_CHECK_MAIN (octopus_trace);
