/* Embeds the Octopus elements in an application: a VP9 SVC sender
 * (videotestsrc -> octopussvcenc -> octopustag -> octopussink) and its
 * receiver (octopussrc -> octopussvcdec -> appsink) in one process over
 * loopback, built element by element.  The sender's application marks
 * every spatial layer above the base as droppable first (priority from the
 * layer, on the "tag" signal); the receiver reads each shown frame's
 * GstOctopusMeta directly (C can, GstOctopusMeta is public in
 * <gst/octopus/gstoctopusmeta.h>).
 *
 *   octopus-embed [FRAMES]     prints one line per shown frame, exits 0
 *                              when at least 90 % of FRAMES were shown */
#include <gst/app/gstappsink.h>
#include <gst/gst.h>
#include <stdlib.h>

#include "gst/octopus/gstoctopusmeta.h"

static GstElement *
make (const gchar *factory, const gchar *first_property, ...)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  va_list args;

  if (!e) {
    g_printerr ("no element %s: is GST_PLUGIN_PATH set "
        "(scripts/gst-env.sh)?\n", factory);
    exit (2);
  }
  va_start (args, first_property);
  g_object_set_valist (G_OBJECT (e), first_property, args);
  va_end (args);
  return e;
}

static GstElement *
chain (GstElement *pipeline, GstElement **elements, guint n)
{
  for (guint i = 0; i < n; i++)
    gst_bin_add (GST_BIN (pipeline), elements[i]);
  for (guint i = 0; i + 1 < n; i++)
    if (!gst_element_link (elements[i], elements[i + 1])) {
      g_printerr ("could not link %s to %s\n",
          GST_ELEMENT_NAME (elements[i]), GST_ELEMENT_NAME (elements[i + 1]));
      exit (2);
    }
  return pipeline;
}

/* The application's rule, per buffer: the spatial layer is the priority. */
static void
on_tag (GstElement *tag, GstBuffer *buffer, GstStructure *params,
    gpointer user_data)
{
  guint layer = 0;

  (void) tag;
  (void) buffer;
  (void) user_data;
  gst_structure_get_uint (params, "spatial_layer", &layer);
  gst_structure_set (params, "priority", G_TYPE_UINT, layer, NULL);
}

int
main (int argc, char **argv)
{
  guint frames = argc > 1 ? (guint) atoi (argv[1]) : 60, shown = 0;
  GstElement *rx, *tx, *appsink, *src, *tag;
  GstCaps *caps;
  GstSample *sample;
  gint port = 0;

  gst_init (&argc, &argv);

  src = make ("octopussrc", "port", 0, "stats-interval", 0, NULL);
  appsink = make ("appsink", "sync", FALSE, NULL);
  rx = chain (gst_pipeline_new ("receiver"), (GstElement *[]) {
        src, make ("octopussvcdec", NULL, NULL), appsink}, 3);
  gst_element_set_state (rx, GST_STATE_PLAYING);
  g_object_get (src, "bound-port", &port, NULL);

  caps = gst_caps_from_string ("video/x-raw,width=320,height=180,"
      "framerate=30/1");
  tag = make ("octopustag", "mtu", 1400, NULL);
  gst_util_set_object_arg (G_OBJECT (tag), "policy", "quality");
  g_signal_connect (tag, "tag", G_CALLBACK (on_tag), NULL);
  tx = chain (gst_pipeline_new ("sender"), (GstElement *[]) {
        make ("videotestsrc", "is-live", TRUE, "num-buffers", frames, NULL),
        make ("capsfilter", "caps", caps, NULL),
        make ("octopussvcenc", "spatial-layers", 3, NULL),
        tag,
        make ("octopussink", "host", "127.0.0.1", "port", port,
            "stats-interval", 0, NULL)}, 5);
  gst_caps_unref (caps);
  gst_element_set_state (tx, GST_STATE_PLAYING);

  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (appsink),
              2 * GST_SECOND))) {
    GstBuffer *buf = gst_sample_get_buffer (sample);
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
    GstStructure *s = gst_caps_get_structure (gst_sample_get_caps (sample), 0);
    gint w = 0, h = 0;

    gst_structure_get_int (s, "width", &w);
    gst_structure_get_int (s, "height", &h);
    g_print ("frame %u: %dx%d, layers 0..%u\n", m ? m->frame_id : 0, w, h,
        m ? m->spatial_layer : 0);
    shown++;
    gst_sample_unref (sample);
  }
  gst_element_set_state (tx, GST_STATE_NULL);
  gst_element_set_state (rx, GST_STATE_NULL);
  gst_object_unref (tx);
  gst_object_unref (rx);
  g_print ("%u of %u frames shown\n", shown, frames);
  gst_deinit ();
  return shown >= frames * 9 / 10 ? 0 : 1;
}
