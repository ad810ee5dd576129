/* octopusframelog: decides which received frames are shown (DESIGN.md
 * "Metrics") and writes one CSV row per frame at the end of the stream:
 *
 *   frame_id,capture_ns,show_ns,latency_ms,layers_received,shown_layer,ssim_db
 *
 * A frame is shown if it becomes decodable before a newer frame was shown;
 * its show time is when its highest decodable layer completed.  Decodable:
 *  temporal (temporal_layer set)  arrived and its reference decodable: key
 *      frames none, TL0 f-4, TL1 f-2, TL2 f-1 (VP8 0,2,1,2 pattern);
 *  quality (spatial_layer set)  Qk arrived, Qk-1 of f and (unless f starts
 *      a GoP) Qk of f-1 decodable; shown at the highest decodable layer;
 *  volumetric (cell/density set)  every layer on its own; the row counts
 *      layers received (trace replay: fraction of points, not SSIM).
 * Frames never received appear with empty times so that scoring sees every
 * frame the sender produced up to the last one received.  SSIM comes from
 * octopustracesrc's payload record when present.  Times are clock times
 * (CLOCK_MONOTONIC): latency is meaningful with sender and receiver on one
 * host. */
#include "gstoctopusframelog.h"

#include <math.h>
#include <stdio.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "gstoctopustracesrc.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_frame_log_debug);
#define GST_CAT_DEFAULT gst_octopus_frame_log_debug

enum {
  PROP_0,
  PROP_LOCATION,
};

#define MAX_LAYERS 16
/* How far back a late reference may still make newer frames decodable. */
#define CASCADE_FRAMES 64

typedef enum {
  KIND_UNKNOWN,
  KIND_TEMPORAL,
  KIND_QUALITY,
  KIND_VOLUMETRIC,
} FrameKind;

typedef struct {
  gboolean seen;
  FrameKind kind;
  GstClockTime capture, show;
  gboolean keyframe;
  guint temporal_layer;
  guint32 received;             /* bit per layer (volumetric: per message) */
  guint n_received;
  gint decodable;               /* highest decodable layer, -1 none */
  gint shown_layer;             /* -1: not shown */
  gdouble ssim[MAX_LAYERS];
} Frame;

struct _GstOctopusFrameLog {
  GstBaseSink parent;

  gchar *location;
  GArray *frames;               /* Frame, indexed by frame id */
  gint64 last_shown;            /* -1: none */
};

#define gst_octopus_frame_log_parent_class parent_class
G_DEFINE_TYPE (GstOctopusFrameLog, gst_octopus_frame_log, GST_TYPE_BASE_SINK);
GST_ELEMENT_REGISTER_DEFINE (octopusframelog, "octopusframelog",
    GST_RANK_NONE, GST_TYPE_OCTOPUS_FRAME_LOG);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

static Frame *
frame_at (GstOctopusFrameLog *self, guint64 id)
{
  if (id >= self->frames->len) {
    guint old = self->frames->len;
    g_array_set_size (self->frames, id + 1);
    for (guint i = old; i <= id; i++) {
      Frame *f = &g_array_index (self->frames, Frame, i);
      f->capture = f->show = GST_CLOCK_TIME_NONE;
      f->decodable = f->shown_layer = -1;
      for (guint k = 0; k < MAX_LAYERS; k++)
        f->ssim[k] = NAN;
    }
  }
  return &g_array_index (self->frames, Frame, id);
}

static gint
ref_decodable (GstOctopusFrameLog *self, guint64 id, guint back)
{
  if (id < back)
    return -1;
  return frame_at (self, id - back)->decodable;
}

static gint
compute_decodable (GstOctopusFrameLog *self, guint64 id)
{
  Frame *f = frame_at (self, id);

  switch (f->kind) {
    case KIND_TEMPORAL:{
      static const guint back[] = { 4, 2, 1 };
      if (!f->received)
        return -1;
      if (f->keyframe)
        return 0;
      return ref_decodable (self, id, back[MIN (f->temporal_layer, 2)]) >= 0 ?
          0 : -1;
    }
    case KIND_QUALITY:{
      gint level = -1;
      for (guint k = 0; k < MAX_LAYERS && (f->received & (1u << k)); k++) {
        gboolean gop_start = f->keyframe;
        if (!gop_start && ref_decodable (self, id, 1) < (gint) k)
          break;
        level = k;
      }
      return level;
    }
    case KIND_VOLUMETRIC:
      return f->n_received > 0 ? (gint) f->n_received - 1 : -1;
    case KIND_UNKNOWN:
    default:
      return f->received ? 0 : -1;
  }
}

/* Re-evaluates frames from @id on (a late reference can unlock newer ones)
 * and shows whatever became decodable, in order, at @now. */
static void
update (GstOctopusFrameLog *self, guint64 id, GstClockTime now)
{
  guint64 end = MIN ((guint64) self->frames->len, id + CASCADE_FRAMES);

  for (guint64 g = id; g < end; g++) {
    Frame *f = frame_at (self, g);
    gint d = compute_decodable (self, g);
    if (d == f->decodable)
      continue;
    f->decodable = d;
    if (d < 0 || (gint64) g < self->last_shown)
      continue;
    /* Newest so far, or the newest getting a higher layer. */
    f->shown_layer = d;
    f->show = now;
    self->last_shown = g;
  }
}

static void
read_record (GstBuffer *buf, Frame *f, guint layer)
{
  guint8 rec[GST_OCTOPUS_TRACE_RECORD_LEN];

  if (layer >= MAX_LAYERS || gst_buffer_extract (buf, 0, rec, sizeof rec) !=
      sizeof rec || GST_READ_UINT32_BE (rec) != GST_OCTOPUS_TRACE_RECORD_MAGIC)
    return;
  guint32 ssim = GST_READ_UINT32_BE (rec + 12);
  if (ssim != G_MAXUINT32)
    f->ssim[layer] = ssim / 1000.0;
}

static GstFlowReturn
gst_octopus_frame_log_render (GstBaseSink *bsink, GstBuffer *buf)
{
  GstOctopusFrameLog *self = GST_OCTOPUS_FRAME_LOG (bsink);
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
  GstClock *clock = gst_system_clock_obtain ();
  GstClockTime now = gst_clock_get_time (clock);
  guint layer = 0;
  Frame *f;

  gst_object_unref (clock);
  if (!m) {
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("Buffer without Octopus meta"),
        ("octopusframelog scores messages from octopussrc; ignoring it"));
    return GST_FLOW_OK;
  }
  f = frame_at (self, m->frame_id);
  f->seen = TRUE;
  f->capture = m->capture_time;
  f->keyframe |= m->keyframe;
  if (m->spatial_layer != GST_OCTOPUS_LAYER_NONE) {
    f->kind = KIND_QUALITY;
    layer = m->spatial_layer;
  } else if (m->density_layer != GST_OCTOPUS_LAYER_NONE) {
    f->kind = KIND_VOLUMETRIC;
    layer = m->density_layer;
  } else if (m->temporal_layer != GST_OCTOPUS_LAYER_NONE) {
    f->kind = KIND_TEMPORAL;
    f->temporal_layer = m->temporal_layer;
  }
  if (layer < 32)
    f->received |= 1u << layer;
  f->n_received++;
  read_record (buf, f, f->kind == KIND_QUALITY ? layer : 0);
  update (self, m->frame_id, now);
  return GST_FLOW_OK;
}

static void
write_csv (GstOctopusFrameLog *self)
{
  FILE *out;

  if (!self->location)
    return;
  out = fopen (self->location, "w");
  if (!out) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
        ("Could not write '%s'", self->location), GST_ERROR_SYSTEM);
    return;
  }
  fprintf (out, "frame_id,capture_ns,show_ns,latency_ms,layers_received,"
      "shown_layer,ssim_db\n");
  for (guint i = 0; i < self->frames->len; i++) {
    Frame *f = &g_array_index (self->frames, Frame, i);
    gchar cap[32] = "", show[32] = "", lat[32] = "", ssim[32] = "";
    if (GST_CLOCK_TIME_IS_VALID (f->capture))
      g_snprintf (cap, sizeof cap, "%" G_GUINT64_FORMAT, f->capture);
    if (f->shown_layer >= 0) {
      g_snprintf (show, sizeof show, "%" G_GUINT64_FORMAT, f->show);
      if (GST_CLOCK_TIME_IS_VALID (f->capture) && f->show >= f->capture)
        g_snprintf (lat, sizeof lat, "%.3f", (f->show - f->capture) / 1e6);
      gdouble s = f->ssim[f->kind == KIND_QUALITY ? f->shown_layer : 0];
      if (!isnan (s))
        g_ascii_formatd (ssim, sizeof ssim, "%.3f", s);
    }
    fprintf (out, "%u,%s,%s,%s,%u,%d,%s\n", i, cap, show, lat, f->n_received,
        f->shown_layer, ssim);
  }
  fclose (out);
}

static gboolean
gst_octopus_frame_log_start (GstBaseSink *bsink)
{
  GstOctopusFrameLog *self = GST_OCTOPUS_FRAME_LOG (bsink);
  g_array_set_size (self->frames, 0);
  self->last_shown = -1;
  return TRUE;
}

static gboolean
gst_octopus_frame_log_stop (GstBaseSink *bsink)
{
  GstOctopusFrameLog *self = GST_OCTOPUS_FRAME_LOG (bsink);
  /* Written at stop so an interrupted live run still leaves its record. */
  write_csv (self);
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
  g_array_unref (self->frames);
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
          "CSV file written when the element stops", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_set_static_metadata (element_class, "Octopus frame log",
      "Sink", "Decides which received frames are shown and writes a "
      "per-frame CSV (latency, layers, SSIM)", "gst-octopus");

  bsink_class->render = GST_DEBUG_FUNCPTR (gst_octopus_frame_log_render);
  bsink_class->start = GST_DEBUG_FUNCPTR (gst_octopus_frame_log_start);
  bsink_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_frame_log_stop);

  GST_DEBUG_CATEGORY_INIT (gst_octopus_frame_log_debug, "octopusframelog", 0,
      "Octopus per-frame CSV log");
}

static void
gst_octopus_frame_log_init (GstOctopusFrameLog *self)
{
  self->frames = g_array_new (FALSE, TRUE, sizeof (Frame));
  self->last_shown = -1;
  gst_base_sink_set_sync (GST_BASE_SINK (self), FALSE);
}
