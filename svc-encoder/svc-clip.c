#include "svc-clip.h"

#include <gst/app/gstappsink.h>

#define SVC_CLIP_ERROR g_quark_from_static_string ("svc-clip-error")

struct _SvcClip {
  gchar *description;
  gchar *path;
  GstElement *pipeline, *sink;
  guint8 *frame;
  gsize frame_size;
  guint64 position;
  gboolean got_frame_this_pass;
};

static void
stop_pipeline (SvcClip *clip)
{
  if (!clip->pipeline)
    return;
  gst_element_set_state (clip->pipeline, GST_STATE_NULL);
  gst_clear_object (&clip->sink);
  gst_clear_object (&clip->pipeline);
}

static gboolean
start_pipeline (SvcClip *clip, GError **error)
{
  clip->pipeline = gst_parse_launch (clip->description, error);
  if (!clip->pipeline)
    return FALSE;
  clip->sink = gst_bin_get_by_name (GST_BIN (clip->pipeline), "sink");
  clip->got_frame_this_pass = FALSE;
  if (gst_element_set_state (clip->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_set_error (error, SVC_CLIP_ERROR, 0, "cannot play '%s'", clip->path);
    stop_pipeline (clip);
    return FALSE;
  }
  return TRUE;
}

SvcClip *
svc_clip_open (const gchar *path, guint width, guint height, GError **error)
{
  SvcClip *clip = g_new0 (SvcClip, 1);
  gchar *quoted_path = g_strescape (path, NULL);

  clip->path = g_strdup (path);
  clip->description = g_strdup_printf ("filesrc location=\"%s\" ! decodebin "
      "! videoconvert ! videoscale ! video/x-raw,format=I420,width=%u,"
      "height=%u ! appsink name=sink sync=false max-buffers=4", quoted_path,
      width, height);
  g_free (quoted_path);
  clip->frame_size = (gsize) width * height * 3 / 2;
  clip->frame = g_malloc (clip->frame_size);
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR)) {
    g_set_error (error, SVC_CLIP_ERROR, 0, "'%s' is not a file", path);
    svc_clip_free (clip);
    return NULL;
  }
  if (!start_pipeline (clip, error)) {
    svc_clip_free (clip);
    return NULL;
  }
  return clip;
}

void
svc_clip_free (SvcClip *clip)
{
  if (!clip)
    return;
  stop_pipeline (clip);
  g_free (clip->frame);
  g_free (clip->path);
  g_free (clip->description);
  g_free (clip);
}

const guint8 *
svc_clip_next (SvcClip *clip, GError **error)
{
  for (guint attempt = 0; attempt < 2; attempt++) {
    GstSample *sample = gst_app_sink_pull_sample (GST_APP_SINK (clip->sink));

    if (sample) {
      GstBuffer *buf = gst_sample_get_buffer (sample);
      gsize got = gst_buffer_extract (buf, 0, clip->frame, clip->frame_size);
      gst_sample_unref (sample);
      if (got != clip->frame_size) {
        g_set_error (error, SVC_CLIP_ERROR, 0, "'%s': short frame (%"
            G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " bytes)", clip->path, got,
            clip->frame_size);
        return NULL;
      }
      clip->got_frame_this_pass = TRUE;
      clip->position++;
      return clip->frame;
    }
    /* end of the file: loop, unless it has no frame at all */
    if (!clip->got_frame_this_pass)
      break;
    stop_pipeline (clip);
    if (!start_pipeline (clip, error))
      return NULL;
  }
  g_set_error (error, SVC_CLIP_ERROR, 0, "'%s': no video frames decoded",
      clip->path);
  return NULL;
}

guint64
svc_clip_position (const SvcClip *clip)
{
  return clip->position;
}
