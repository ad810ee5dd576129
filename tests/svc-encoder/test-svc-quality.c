/* Real SSIM of a run: octopussvcenc ! octopussvclog records a short encode
 * of the shipped clip, octo-svc-quality scores every layer against the clip,
 * and the sent log it writes has one row per message with the quality
 * growing with the spatial layer. */
#include <glib/gstdio.h>
#include <gst/gst.h>
#include <stdlib.h>
#include <string.h>

#define N_FRAMES 20

static void
run_sender (const gchar *encoder, const gchar *dump)
{
  gchar *desc = g_strdup_printf ("filesrc location=\"%s\" ! decodebin ! "
      "videoconvert ! videoscale ! video/x-raw,format=I420,width=320,"
      "height=180 ! identity eos-after=%d ! %s ! octopussvclog "
      "location=\"%s\" ! fakesink sync=false", g_getenv ("OCTOPUS_CLIP"),
      N_FRAMES, encoder, dump);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstMessage *msg;

  g_assert_nonnull (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe),
      GST_CLOCK_TIME_NONE, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  g_assert_cmpint (GST_MESSAGE_TYPE (msg), ==, GST_MESSAGE_EOS);
  gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  g_free (desc);
}

/* Runs octo-svc-quality; returns the sent log's data rows. */
static gchar **
score (const gchar *dump, const gchar *codec, const gchar *out)
{
  gchar *argv[] = { (gchar *) g_getenv ("OCTO_SVC_QUALITY"), "--dump",
    (gchar *) dump, "--clip", (gchar *) g_getenv ("OCTOPUS_CLIP"), "--codec",
    (gchar *) codec, "--width", "320", "--height", "180", "--out",
    (gchar *) out, NULL
  };
  gchar *contents, **lines;
  gint status;
  GError *error = NULL;

  g_assert_true (g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
          NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_get_contents (out, &contents, NULL, NULL));
  lines = g_strsplit (g_strstrip (contents), "\n", -1);
  g_free (contents);
  g_assert_cmpstr (lines[0], ==,
      "frame,index,capture_ns,keyframe,temporal_layer,level,quality");
  return lines;
}

static void
test_vp9_layers_scored_against_clip (void)
{
  gchar *dir = g_dir_make_tmp ("svc-quality-XXXXXX", NULL);
  gchar *dump = g_build_filename (dir, "layers.bin", NULL);
  gchar *out = g_build_filename (dir, "sent.csv", NULL);
  gchar **lines;
  gdouble mean[3] = { 0 };
  guint n_frames;

  run_sender ("octopussvcenc codec=vp9 spatial-layers=3 gop=10 bitrate=600000 "
      "speed=8", dump);
  lines = score (dump, "vp9", out);
  /* identity's eos-after lets its last buffer through too */
  n_frames = (g_strv_length (lines) - 1) / 3;
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 3 * n_frames);
  g_assert_cmpuint (n_frames, >=, N_FRAMES);
  for (guint i = 1; lines[i]; i++) {
    gchar **f = g_strsplit (lines[i], ",", -1);
    gdouble q = g_ascii_strtod (f[6], NULL);
    guint frame = (guint) atoi (f[0]), index = (guint) atoi (f[1]);

    g_assert_cmpuint (g_strv_length (f), ==, 7);
    g_assert_cmpuint (frame, ==, (i - 1) / 3);
    g_assert_cmpuint (index, ==, (i - 1) % 3);
    g_assert_cmpint (atoi (f[3]), ==, frame % 10 == 0);
    g_assert_cmpfloat (q, >, 0.3);
    g_assert_cmpfloat (q, <=, 1.0);
    mean[index] += q / n_frames;
    g_strfreev (f);
  }
  /* upscaled lower layers are worse than the full-size top layer */
  g_assert_cmpfloat (mean[0], <, mean[1]);
  g_assert_cmpfloat (mean[1], <, mean[2]);
  g_assert_cmpfloat (mean[2], >, 0.85);
  g_strfreev (lines);
  g_remove (dump);
  g_remove (out);
  g_rmdir (dir);
  g_free (dump);
  g_free (out);
  g_free (dir);
}

static void
test_vp8_frames_scored_with_layer_ids (void)
{
  gchar *dir = g_dir_make_tmp ("svc-quality-XXXXXX", NULL);
  gchar *dump = g_build_filename (dir, "layers.bin", NULL);
  gchar *out = g_build_filename (dir, "sent.csv", NULL);
  gchar **lines;
  static const guint layer[4] = { 0, 2, 1, 2 };

  run_sender ("octopussvcenc codec=vp8 temporal-layers=3 gop=8 bitrate=500000",
      dump);
  lines = score (dump, "vp8", out);
  g_assert_cmpuint (g_strv_length (lines), >=, 1 + N_FRAMES);
  for (guint i = 1; lines[i]; i++) {
    gchar **f = g_strsplit (lines[i], ",", -1);

    g_assert_cmpint (atoi (f[0]), ==, i - 1);
    g_assert_cmpint (atoi (f[1]), ==, 0);
    g_assert_cmpint (atoi (f[4]), ==, layer[(i - 1) % 4]);
    /* Luma SSIM of this clip at 500 kbit/s is about 0.8-0.9 per frame; a
     * frame scored against the wrong source or decoded wrongly scores far
     * below 0.7. */
    g_assert_cmpfloat (g_ascii_strtod (f[6], NULL), >, 0.7);
    g_strfreev (f);
  }
  g_strfreev (lines);
  g_remove (dump);
  g_remove (out);
  g_rmdir (dir);
  g_free (dump);
  g_free (out);
  g_free (dir);
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/svc/quality/vp9-layers", test_vp9_layers_scored_against_clip);
  g_test_add_func ("/svc/quality/vp8-frames", test_vp8_frames_scored_with_layer_ids);
  return g_test_run ();
}
