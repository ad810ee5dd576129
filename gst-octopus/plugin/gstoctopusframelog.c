/* octopusframelog: writes one CSV row per message that arrived whole,
 *
 *   frame,index,arrival_ns
 *
 * the receiver half of a real run's logs; eval/octo-metrics joins it
 * with octopustracesrc's sent-log and computes the per-frame table (shown
 * frames, show time, layers used, SSIM) and the summary with the project's
 * one implementation of the metrics (octo-metrics.h).  Frame and index come
 * from octopustracesrc's payload record, else from the meta (frame id, and
 * the layer as index).  Arrival times are clock times (CLOCK_MONOTONIC), the
 * clock the sender's capture times use when both run on one host. */
#include "gstoctopusframelog.h"

#include <stdio.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "octo-frame-log.h"
#include "gstoctopustracesrc.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_frame_log_debug);
#define GST_CAT_DEFAULT gst_octopus_frame_log_debug

enum {
  PROP_0,
  PROP_LOCATION,
};

struct _GstOctopusFrameLog {
  GstBaseSink parent;

  gchar *location;
  FILE *out;
  GstClock *clock;
};

#define gst_octopus_frame_log_parent_class parent_class
G_DEFINE_TYPE (GstOctopusFrameLog, gst_octopus_frame_log, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE (octopusframelog, "octopusframelog",
    GST_RANK_NONE, GST_TYPE_OCTOPUS_FRAME_LOG);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static GstFlowReturn
gst_octopus_frame_log_render (GstBaseSink *bsink, GstBuffer *buf)
{
  GstOctopusFrameLog *self = GST_OCTOPUS_FRAME_LOG (bsink);
  GstClockTime now = gst_clock_get_time (self->clock);
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
  guint8 rec[GST_OCTOPUS_TRACE_RECORD_LEN];
  guint32 frame;
  guint index;

  if (gst_buffer_extract (buf, 0, rec, sizeof rec) == sizeof rec &&
      GST_READ_UINT32_BE (rec) == GST_OCTOPUS_TRACE_RECORD_MAGIC) {
    frame = GST_READ_UINT32_BE (rec + 4);
    index = GST_READ_UINT16_BE (rec + 8);
  } else if (m) {
    frame = m->frame_id;
    index = m->spatial_layer != GST_OCTOPUS_LAYER_NONE ? m->spatial_layer : 0;
  } else {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("Buffer without Octopus meta or trace record"),
        ("octopusframelog logs messages from octopussrc; ignoring it"));
    return GST_FLOW_OK;
  }
  if (self->out) {
    gchar line[OCTO_FRAME_LOG_ROW_MAX];
    fwrite (line, 1, octo_frame_log_received_row (frame, index, now, line),
        self->out);
  }
  return GST_FLOW_OK;
}

static gboolean
gst_octopus_frame_log_start (GstBaseSink *bsink)
{
  GstOctopusFrameLog *self = GST_OCTOPUS_FRAME_LOG (bsink);
  gchar *location;

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  GST_OBJECT_UNLOCK (self);
  if (!location) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No log file given"),
        ("set location to the CSV file to write"));
    return FALSE;
  }
  self->out = fopen (location, "w");
  if (!self->out) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Could not write '%s'", location), GST_ERROR_SYSTEM);
    g_free (location);
    return FALSE;
  }
  g_free (location);
  fputs (OCTO_FRAME_LOG_RECEIVED_HEADER, self->out);
  self->clock = gst_system_clock_obtain ();
  return TRUE;
}

static gboolean
gst_octopus_frame_log_stop (GstBaseSink *bsink)
{
  GstOctopusFrameLog *self = GST_OCTOPUS_FRAME_LOG (bsink);
  if (self->out) {
    fclose (self->out);
    self->out = NULL;
  }
  gst_clear_object (&self->clock);
  return TRUE;
}

static void
gst_octopus_frame_log_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusFrameLog *self = GST_OCTOPUS_FRAME_LOG (object);

  switch (prop_id) {
    case PROP_LOCATION:
      GST_OBJECT_LOCK (self);
      g_free (self->location);
      self->location = g_value_dup_string (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_octopus_frame_log_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstOctopusFrameLog *self = GST_OCTOPUS_FRAME_LOG (object);

  switch (prop_id) {
    case PROP_LOCATION:
      GST_OBJECT_LOCK (self);
      g_value_set_string (value, self->location);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_octopus_frame_log_finalize (GObject *object)
{
  GstOctopusFrameLog *self = GST_OCTOPUS_FRAME_LOG (object);
  g_free (self->location);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_octopus_frame_log_class_init (GstOctopusFrameLogClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSinkClass *bsink_class = GST_BASE_SINK_CLASS (klass);

  gobject_class->set_property = gst_octopus_frame_log_set_property;
  gobject_class->get_property = gst_octopus_frame_log_get_property;
  gobject_class->finalize = gst_octopus_frame_log_finalize;

  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "CSV file receiving one row per message (frame,index,arrival_ns)",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class, "Octopus frame log",
      "Sink", "Logs the arrival of every received message for scoring with "
      "octo-metrics", GST_OCTOPUS_AUTHORS);

  bsink_class->render = GST_DEBUG_FUNCPTR (gst_octopus_frame_log_render);
  bsink_class->start = GST_DEBUG_FUNCPTR (gst_octopus_frame_log_start);
  bsink_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_frame_log_stop);

  GST_DEBUG_CATEGORY_INIT (gst_octopus_frame_log_debug, "octopusframelog", 0,
      "Octopus message arrival log");
}

static void
gst_octopus_frame_log_init (GstOctopusFrameLog *self)
{
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
}
