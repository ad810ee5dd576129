/* octopussvclog: passes every message through and appends it, with its
 * GstOctopusMeta description (frame id, layer, key flag, capture time), to
 * a layer dump (core/svc-dump.h).  Placed before octopussink, it records
 * what the sender produced; octo-svc-quality then decodes the dump, scores
 * every layer of every frame with SSIM against the source clip and writes
 * the sent log that eval/octo-metrics joins with the receiver's
 * octopusframelog. */
#include "gstoctopussvclog.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/svc-dump.h"
#include "gst/octopus/gstoctopusmeta.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_svc_log_debug);
#define GST_CAT_DEFAULT gst_octopus_svc_log_debug

enum {
  PROP_0,
  PROP_LOCATION,
};

#define DEFAULT_LOCATION NULL

struct _GstOctopusSvcLog {
  GstBaseTransform parent;

  gchar *location;              /* object lock */
  FILE *out;                    /* streaming thread */
};

G_DEFINE_TYPE (GstOctopusSvcLog, gst_octopus_svc_log, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (octopussvclog, "octopussvclog", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_SVC_LOG);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS ("video/x-vp8; video/x-vp9; "
        GST_OCTOPUS_MESSAGES_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS ("video/x-vp8; video/x-vp9; "
        GST_OCTOPUS_MESSAGES_CAPS));

static gboolean
gst_octopus_svc_log_start (GstBaseTransform *trans)
{
  GstOctopusSvcLog *self = GST_OCTOPUS_SVC_LOG (trans);
  gchar *location;

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  GST_OBJECT_UNLOCK (self);
  if (!location) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("No dump file given"), ("set the location property"));
    return FALSE;
  }
  self->out = fopen (location, "wb");
  if (!self->out || fwrite (SVC_DUMP_MAGIC, 1, SVC_DUMP_MAGIC_LEN,
          self->out) != SVC_DUMP_MAGIC_LEN) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Could not write the layer dump '%s'", location),
        ("%s", g_strerror (errno)));
    g_free (location);
    return FALSE;
  }
  g_free (location);
  return TRUE;
}

static gboolean
gst_octopus_svc_log_stop (GstBaseTransform *trans)
{
  GstOctopusSvcLog *self = GST_OCTOPUS_SVC_LOG (trans);

  if (self->out)
    fclose (self->out);
  self->out = NULL;
  return TRUE;
}

static GstFlowReturn
gst_octopus_svc_log_transform_ip (GstBaseTransform *trans, GstBuffer *buf)
{
  GstOctopusSvcLog *self = GST_OCTOPUS_SVC_LOG (trans);
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
  guint8 header[SVC_DUMP_RECORD_HEADER];
  SvcDumpRecord r = { 0 };
  GstMapInfo map;
  gboolean ok;

  if (!m) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Buffer without GstOctopusMeta"),
        ("octopussvclog needs octopussvcenc's per-layer description upstream"));
    return GST_FLOW_ERROR;
  }
  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return GST_FLOW_ERROR;
  r.frame_id = m->frame_id;
  r.index = m->spatial_layer == GST_OCTOPUS_LAYER_NONE ? 0 : m->spatial_layer;
  r.temporal_layer = m->temporal_layer == GST_OCTOPUS_LAYER_NONE ? 0 :
      m->temporal_layer;
  r.keyframe = m->keyframe;
  r.capture_ns = GST_CLOCK_TIME_IS_VALID (m->capture_time) ?
      m->capture_time : 0;
  r.size = (guint32) MIN (map.size, SVC_DUMP_MAX_PAYLOAD);
  svc_dump_write_header (&r, header);
  ok = map.size > 0 && map.size <= SVC_DUMP_MAX_PAYLOAD
      && fwrite (header, 1, sizeof (header), self->out) == sizeof (header)
      && fwrite (map.data, 1, map.size, self->out) == map.size;
  gst_buffer_unmap (buf, &map);
  if (!ok) {
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE,
        ("Could not append frame %u layer %u to the layer dump", r.frame_id,
            r.index), ("%s", g_strerror (errno)));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

static void
gst_octopus_svc_log_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusSvcLog *self = GST_OCTOPUS_SVC_LOG (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_svc_log_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstOctopusSvcLog *self = GST_OCTOPUS_SVC_LOG (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_svc_log_finalize (GObject *object)
{
  GstOctopusSvcLog *self = GST_OCTOPUS_SVC_LOG (object);

  g_free (self->location);
  G_OBJECT_CLASS (gst_octopus_svc_log_parent_class)->finalize (object);
}

static void
gst_octopus_svc_log_class_init (GstOctopusSvcLogClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_octopus_svc_log_set_property;
  gobject_class->get_property = gst_octopus_svc_log_get_property;
  gobject_class->finalize = gst_octopus_svc_log_finalize;

  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "Layer dump to write (every message with its description), for "
          "octo-svc-quality", DEFAULT_LOCATION,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus SVC layer dump", "Filter/Video",
      "Records every layer message the sender produced, for scoring the run",
      GST_OCTOPUS_AUTHORS);

  trans_class->start = GST_DEBUG_FUNCPTR (gst_octopus_svc_log_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_svc_log_stop);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_octopus_svc_log_transform_ip);

  GST_DEBUG_CATEGORY_INIT (gst_octopus_svc_log_debug, "octopussvclog", 0,
      "Octopus SVC layer dump");
}

static void
gst_octopus_svc_log_init (GstOctopusSvcLog *self)
{
  self->location = g_strdup (DEFAULT_LOCATION);
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
  gst_base_transform_set_passthrough (GST_BASE_TRANSFORM (self), TRUE);
}
