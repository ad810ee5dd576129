/* octopuspcdec: the decoder element.  pc-layer.c's merger decides; this
 * element pushes the frames it completes (a frame completes when a layer
 * of a newer frame arrives, or at EOS), counts what it refused, and can log
 * every layer that arrived whole (received-log=, the receiver log of
 * eval/octo-metrics, index = send order). */
#include "gstoctopuspcdec.h"

#include "gst/octopus/gstoctopusmeta.h"
#include "gstoctopuspcenc.h"
#include "octo-frame-log.h"
#include "pc-layer.h"
#include "pc-partition.h"

#include <stdio.h>

GST_DEBUG_CATEGORY_STATIC (gst_octopus_pc_dec_debug);
#define GST_CAT_DEFAULT gst_octopus_pc_dec_debug

enum {
  PROP_0,
  PROP_RECEIVED_LOG,
  PROP_STATS,
};

struct _GstOctopusPcDec {
  GstElement parent;
  GstPad *sinkpad, *srcpad;

  gchar *received_log;

  FILE *log;
  GstClock *clock;
  OctoPcMerger *merger;
  GstClockTime frame_pts;       /* of the frame being merged */
  guint64 messages, added, late, duplicate, malformed, frames;
};

#define gst_octopus_pc_dec_parent_class parent_class
G_DEFINE_TYPE (GstOctopusPcDec, gst_octopus_pc_dec, GST_TYPE_ELEMENT);
GST_ELEMENT_REGISTER_DEFINE (octopuspcdec, "octopuspcdec", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_PC_DEC);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (GST_OCTOPUS_PC_LAYER_CAPS "; " GST_OCTOPUS_MESSAGES_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (OCTO_PC_CAPS));

static gboolean
copy_field (GQuark field, const GValue *value, gpointer dest)
{
  gst_structure_id_set_value (dest, field, value);
  return TRUE;
}

static gboolean
density_meta_transform (GstBuffer *transbuf, GstCustomMeta *meta,
    GstBuffer *buffer, GQuark type, gpointer data, gpointer user_data)
{
  GstCustomMeta *copy;
  (void) buffer;
  (void) type;
  (void) data;
  (void) user_data;
  copy = gst_buffer_add_custom_meta (transbuf, GST_OCTOPUS_PC_DENSITY_META);
  gst_structure_foreach (gst_custom_meta_get_structure (meta), copy_field,
      gst_custom_meta_get_structure (copy));
  return TRUE;
}

static void
add_uint_array (GstStructure *s, const gchar *field, const guint32 *v,
    guint n)
{
  GValue arr = G_VALUE_INIT;
  gst_value_array_init (&arr, n);
  for (guint i = 0; i < n; i++) {
    GValue e = G_VALUE_INIT;
    g_value_init (&e, G_TYPE_UINT);
    g_value_set_uint (&e, v[i]);
    gst_value_array_append_and_take_value (&arr, &e);
  }
  gst_structure_take_value (s, field, &arr);
}

static GstFlowReturn
push_frame (GstOctopusPcDec *self, OctoPcMergedFrame *f)
{
  guint n_cells = f->nx * f->nz;
  guint32 *layers = g_new (guint32, n_cells);
  GstBuffer *out;
  GstStructure *s;

  gsize size = (gsize) f->points->len * sizeof (OctoPcPoint);

  out = size ? gst_buffer_new_wrapped (g_array_steal (f->points, NULL), size)
      : gst_buffer_new ();
  GST_BUFFER_PTS (out) = self->frame_pts;
  GST_BUFFER_OFFSET (out) = f->frame_id;
  s = gst_custom_meta_get_structure (gst_buffer_add_custom_meta (out,
          GST_OCTOPUS_PC_DENSITY_META));
  gst_structure_set (s, "frame-id", G_TYPE_UINT, f->frame_id,
      "cells-x", G_TYPE_UINT, f->nx, "cells-z", G_TYPE_UINT, f->nz,
      "density-layers", G_TYPE_UINT, f->n_layers, NULL);
  for (guint c = 0; c < n_cells; c++)
    layers[c] = octo_pc_merged_frame_layers (f, c);
  add_uint_array (s, "layers", layers, n_cells);
  add_uint_array (s, "cell-points", f->cell_points, n_cells);
  g_free (layers);
  octo_pc_merged_frame_free (f);
  GST_OBJECT_LOCK (self);
  self->frames++;
  GST_OBJECT_UNLOCK (self);
  return gst_pad_push (self->srcpad, out);
}

static GstFlowReturn
gst_octopus_pc_dec_chain (GstPad *pad, GstObject *parent, GstBuffer *in)
{
  GstOctopusPcDec *self = GST_OCTOPUS_PC_DEC (parent);
  GstMapInfo map;
  OctoPcLayerHeader h;
  OctoPcMergedFrame *done = NULL;
  GError *error = NULL;
  OctoPcMergeResult res;
  GstFlowReturn ret = GST_FLOW_OK;

  (void) pad;
  gst_buffer_map (in, &map, GST_MAP_READ);
  if (self->log && octo_pc_layer_header_parse (map.data, map.size, &h, NULL)) {
    gchar line[OCTO_FRAME_LOG_ROW_MAX];
    fwrite (line, 1, octo_frame_log_received_row (h.frame_id,
            octo_pc_send_index (h.nx * h.nz, h.n_layers, h.rank, h.layer),
            gst_clock_get_time (self->clock), line), self->log);
  }
  res = octo_pc_merger_push (self->merger, map.data, map.size, &done, &error);
  gst_buffer_unmap (in, &map);

  GST_OBJECT_LOCK (self);
  self->messages++;
  switch (res) {
    case OCTO_PC_MERGE_ADDED: self->added++; break;
    case OCTO_PC_MERGE_LATE: self->late++; break;
    case OCTO_PC_MERGE_DUPLICATE: self->duplicate++; break;
    case OCTO_PC_MERGE_MALFORMED: self->malformed++; break;
  }
  GST_OBJECT_UNLOCK (self);
  if (res == OCTO_PC_MERGE_MALFORMED) {
    GST_ELEMENT_WARNING (self, STREAM, DECODE, ("Rejected a malformed "
            "point-cloud layer"), ("message of %" G_GSIZE_FORMAT " bytes: %s",
            gst_buffer_get_size (in), error->message));
    g_error_free (error);
  }
  if (done)
    ret = push_frame (self, done);
  /* the first layer of a frame gives its timestamp */
  if (res == OCTO_PC_MERGE_ADDED && (done
          || !GST_CLOCK_TIME_IS_VALID (self->frame_pts)))
    self->frame_pts = GST_BUFFER_PTS (in);
  gst_buffer_unref (in);
  return ret;
}

static gboolean
gst_octopus_pc_dec_sink_event (GstPad *pad, GstObject *parent,
    GstEvent *event)
{
  GstOctopusPcDec *self = GST_OCTOPUS_PC_DEC (parent);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_CAPS:{
      GstCaps *caps = gst_caps_from_string (OCTO_PC_MEDIA_TYPE
          ", format = (string) xyz32f-rgb8, framerate = (fraction) 0/1");
      gst_event_unref (event);
      event = gst_event_new_caps (caps);
      gst_caps_unref (caps);
      return gst_pad_push_event (self->srcpad, event);
    }
    case GST_EVENT_EOS:{
      OctoPcMergedFrame *f = octo_pc_merger_flush (self->merger);
      if (f)
        push_frame (self, f);
      if (self->log)
        fflush (self->log);
      break;
    }
    case GST_EVENT_FLUSH_STOP:
      octo_pc_merged_frame_free (octo_pc_merger_flush (self->merger));
      break;
    default:
      break;
  }
  return gst_pad_event_default (pad, parent, event);
}

static GstStateChangeReturn
gst_octopus_pc_dec_change_state (GstElement *element,
    GstStateChange transition)
{
  GstOctopusPcDec *self = GST_OCTOPUS_PC_DEC (element);
  GstStateChangeReturn ret;

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    gchar *path;
    GST_OBJECT_LOCK (self);
    path = g_strdup (self->received_log);
    self->messages = self->added = self->late = self->duplicate = 0;
    self->malformed = self->frames = 0;
    GST_OBJECT_UNLOCK (self);
    self->merger = octo_pc_merger_new ();
    self->frame_pts = GST_CLOCK_TIME_NONE;
    if (path) {
      self->log = fopen (path, "w");
      if (!self->log) {
        GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
            ("Could not write received log '%s'", path), GST_ERROR_SYSTEM);
        g_free (path);
        return GST_STATE_CHANGE_FAILURE;
      }
      fputs (OCTO_FRAME_LOG_RECEIVED_HEADER, self->log);
      /* the clock octopusframelog and the senders' capture times use */
      self->clock = gst_system_clock_obtain ();
    }
    g_free (path);
  }
  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) {
    g_clear_pointer (&self->merger, octo_pc_merger_free);
    if (self->log) {
      fclose (self->log);
      self->log = NULL;
    }
    gst_clear_object (&self->clock);
  }
  return ret;
}

static void
gst_octopus_pc_dec_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusPcDec *self = GST_OCTOPUS_PC_DEC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RECEIVED_LOG:
      g_free (self->received_log);
      self->received_log = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_pc_dec_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstOctopusPcDec *self = GST_OCTOPUS_PC_DEC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_RECEIVED_LOG:
      g_value_set_string (value, self->received_log);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, gst_structure_new (
              "application/x-octopus-pcdec-stats",
              "messages", G_TYPE_UINT64, self->messages,
              "layers-added", G_TYPE_UINT64, self->added,
              "late", G_TYPE_UINT64, self->late,
              "duplicate", G_TYPE_UINT64, self->duplicate,
              "malformed", G_TYPE_UINT64, self->malformed,
              "frames", G_TYPE_UINT64, self->frames, NULL));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_pc_dec_finalize (GObject *object)
{
  GstOctopusPcDec *self = GST_OCTOPUS_PC_DEC (object);
  g_free (self->received_log);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_octopus_pc_dec_class_init (GstOctopusPcDecClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  static const gchar *no_tags[] = { NULL };

  gobject_class->set_property = gst_octopus_pc_dec_set_property;
  gobject_class->get_property = gst_octopus_pc_dec_get_property;
  gobject_class->finalize = gst_octopus_pc_dec_finalize;

  g_object_class_install_property (gobject_class, PROP_RECEIVED_LOG,
      g_param_spec_string ("received-log", "Received log",
          "CSV of every layer that arrived whole (frame,index,arrival_ns; "
          "index = send order) for eval/octo-metrics", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "messages, layers-added, late, duplicate, malformed (rejected, "
          "e.g. bad Draco payloads) and frames pushed",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus point-cloud decoder", "Codec/Decoder/PointCloud",
      "Decodes and merges whatever density layers of each frame arrived; "
      "the per-cell density rides in a GstOctopusPcDensity custom meta",
      GST_OCTOPUS_AUTHORS);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_octopus_pc_dec_change_state);

  gst_meta_register_custom (GST_OCTOPUS_PC_DENSITY_META, no_tags,
      density_meta_transform, NULL, NULL);
  GST_DEBUG_CATEGORY_INIT (gst_octopus_pc_dec_debug, "octopuspcdec", 0,
      "Octopus point-cloud decoder");
}

static void
gst_octopus_pc_dec_init (GstOctopusPcDec *self)
{
  self->sinkpad = gst_pad_new_from_static_template (&sink_template, "sink");
  gst_pad_set_chain_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_pc_dec_chain));
  gst_pad_set_event_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_pc_dec_sink_event));
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);
  self->srcpad = gst_pad_new_from_static_template (&src_template, "src");
  gst_pad_use_fixed_caps (self->srcpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);
}
