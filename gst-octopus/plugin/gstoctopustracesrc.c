/* octopustracesrc: replays the Octopus artifact's video traces in real time.
 *
 * One buffer per message, each carrying a GstOctopusMeta with frame id,
 * layer/cell ids and key-frame flag (octopustag derives the dropping
 * parameters from these) and a payload of the trace's size starting with a
 * record of frame, layer and SSIM (GST_OCTOPUS_TRACE_RECORD_*).
 *
 *  temporal   one message per frame; layers of VP8's 3-layer GoP-8 pattern.
 *  quality    one message per layer; at each GoP start the level is the
 *             highest whose aggregate rate <= the transport's estimate
 *             (paper 000 §6.2; the lowest if none); each layer's meta
 *             carries its cumulative rate as bitrate threshold.
 *  pointcloud layers 0..L of every cell, L the highest layer whose
 *             cumulative rate <= the estimate (at least 0).
 *
 * The estimate comes from octopussink's upstream bandwidth event (or the
 * "bitrate" property until the first event). */
#include "gstoctopustracesrc.h"

#include <math.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "octopus-video-trace.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_trace_src_debug);
#define GST_CAT_DEFAULT gst_octopus_trace_src_debug

enum {
  PROP_0,
  PROP_LOCATION,
  PROP_LOOP,
  PROP_BITRATE,
  PROP_LEVEL,
};

#define DEFAULT_LOCATION NULL
#define DEFAULT_LOOP FALSE
#define DEFAULT_BITRATE 0

struct _GstOctopusTraceSrc {
  GstPushSrc parent;

  gchar *location;
  gboolean loop;
  guint64 bitrate;              /* transport estimate, payload bits/s */
  guint level_kbps;             /* quality: level in use */

  OctopusTrace *trace;
  guint64 frame;                /* frames emitted, across loops */
  guint layer, cell;            /* next message within the frame */
  guint level;                  /* index into trace->level_kbps */
  guint top_layer;              /* pointcloud: layers 0..top_layer sent */
};

#define gst_octopus_trace_src_parent_class parent_class
G_DEFINE_TYPE (GstOctopusTraceSrc, gst_octopus_trace_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE (octopustracesrc, "octopustracesrc",
    GST_RANK_NONE, GST_TYPE_OCTOPUS_TRACE_SRC);

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("application/x-octopus-trace"));

static gboolean
gst_octopus_trace_src_start (GstBaseSrc *bsrc)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (bsrc);
  GError *err = NULL;
  gchar *location;

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  GST_OBJECT_UNLOCK (self);
  if (!location) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No trace file given"),
        ("set location to a trace from data/traces/video"));
    return FALSE;
  }
  self->trace = octopus_trace_load (location, &err);
  if (!self->trace) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ,
        ("Could not read trace file '%s'", location), ("%s", err->message));
    g_clear_error (&err);
    g_free (location);
    return FALSE;
  }
  g_free (location);
  self->frame = 0;
  self->layer = self->cell = 0;
  self->level = 0;
  self->top_layer = 0;
  return TRUE;
}

static gboolean
gst_octopus_trace_src_stop (GstBaseSrc *bsrc)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (bsrc);
  g_clear_pointer (&self->trace, octopus_trace_free);
  return TRUE;
}

/* Called at a GoP start (quality) or frame start (pointcloud). */
static void
choose_rate (GstOctopusTraceSrc *self, guint trace_frame)
{
  OctopusTrace *t = self->trace;
  guint64 bw;

  GST_OBJECT_LOCK (self);
  bw = self->bitrate;
  GST_OBJECT_UNLOCK (self);

  if (t->kind == OCTOPUS_TRACE_QUALITY) {
    guint level = 0;
    for (guint i = 0; i < t->n_levels; i++)
      if ((guint64) t->level_kbps[i] * 1000 <= bw)
        level = i;
    if (level != self->level)
      GST_INFO_OBJECT (self, "level %u kbit/s for estimate %" G_GUINT64_FORMAT,
          t->level_kbps[level], bw);
    self->level = level;
    GST_OBJECT_LOCK (self);
    self->level_kbps = t->level_kbps[level];
    GST_OBJECT_UNLOCK (self);
  } else if (t->kind == OCTOPUS_TRACE_POINTCLOUD) {
    guint top = 0;
    for (guint l = 0; l < t->n_layers; l++)
      if ((guint64) octopus_trace_entry (t, 0, trace_frame, l, 0)->cum_kbps *
          1000 <= bw)
        top = l;
    self->top_layer = top;
  }
}

static void
write_record (GstBuffer *buf, guint32 frame, guint8 layer, guint8 cell,
    gdouble ssim_db)
{
  guint8 rec[GST_OCTOPUS_TRACE_RECORD_LEN] = { 0 };
  guint32 ssim = isnan (ssim_db) ? G_MAXUINT32 : (guint32) (ssim_db * 1000);

  GST_WRITE_UINT32_BE (rec, GST_OCTOPUS_TRACE_RECORD_MAGIC);
  GST_WRITE_UINT32_BE (rec + 4, frame);
  rec[8] = layer;
  rec[9] = cell;
  GST_WRITE_UINT32_BE (rec + 12, ssim);
  gst_buffer_fill (buf, 0, rec, MIN (sizeof rec, gst_buffer_get_size (buf)));
}

static GstFlowReturn
gst_octopus_trace_src_create (GstPushSrc *psrc, GstBuffer **out)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (psrc);
  OctopusTrace *t = self->trace;
  guint tf = self->frame % t->n_frames;
  const OctopusTraceEntry *e;
  GstOctopusMeta *m;
  GstBuffer *buf;
  guint8 layer_id = GST_OCTOPUS_LAYER_NONE;

  if (self->frame >= t->n_frames && !self->loop)
    return GST_FLOW_EOS;

  if (self->layer == 0 && self->cell == 0 &&
      (t->kind == OCTOPUS_TRACE_POINTCLOUD ||
          (t->kind == OCTOPUS_TRACE_QUALITY && tf % t->gop == 0)))
    choose_rate (self, tf);

  e = octopus_trace_entry (t, self->level, tf, self->layer, self->cell);
  buf = gst_buffer_new_allocate (NULL, e->size, NULL);
  gst_buffer_memset (buf, 0, 0, e->size);
  m = gst_buffer_add_octopus_meta (buf);
  m->frame_id = self->frame;

  switch (t->kind) {
    case OCTOPUS_TRACE_TEMPORAL:{
      guint pos = tf % t->gop;
      m->keyframe = pos == 0;
      m->temporal_layer = pos % 2 ? 2 : (pos % 4 ? 1 : 0);
      layer_id = m->temporal_layer;
      break;
    }
    case OCTOPUS_TRACE_QUALITY:
      m->keyframe = tf % t->gop == 0;
      m->spatial_layer = layer_id = self->layer;
      m->bitrate_threshold = self->layer == 0 ? 0 : (guint64) e->cum_kbps *
          1000;
      break;
    case OCTOPUS_TRACE_POINTCLOUD:
      m->cell_id = self->cell;
      m->density_layer = layer_id = self->layer;
      break;
  }
  write_record (buf, m->frame_id, layer_id,
      t->kind == OCTOPUS_TRACE_POINTCLOUD ? self->cell : 0, e->ssim_db);
  if (!m->keyframe)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DELTA_UNIT);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale (self->frame, GST_SECOND,
      t->fps);
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale (1, GST_SECOND, t->fps);

  /* Next message: cell-major within a layer for point clouds. */
  if (t->kind == OCTOPUS_TRACE_POINTCLOUD) {
    if (++self->cell == t->n_cells) {
      self->cell = 0;
      if (++self->layer > self->top_layer)
        self->layer = 0;
    }
  } else if (t->kind == OCTOPUS_TRACE_QUALITY) {
    if (++self->layer == t->n_layers)
      self->layer = 0;
  }
  if (self->layer == 0 && self->cell == 0)
    self->frame++;
  *out = buf;
  return GST_FLOW_OK;
}

static void
gst_octopus_trace_src_get_times (GstBaseSrc *bsrc, GstBuffer *buf,
    GstClockTime *start, GstClockTime *end)
{
  (void) bsrc;
  /* Live: each message waits for its frame's capture time. */
  *start = GST_BUFFER_PTS (buf);
  *end = GST_CLOCK_TIME_NONE;
}

static gboolean
gst_octopus_trace_src_event (GstBaseSrc *bsrc, GstEvent *event)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (bsrc);
  guint64 bps;

  if (gst_octopus_event_parse_bandwidth (event, &bps)) {
    GST_OBJECT_LOCK (self);
    self->bitrate = bps;
    GST_OBJECT_UNLOCK (self);
    GST_DEBUG_OBJECT (self, "transport estimate %" G_GUINT64_FORMAT, bps);
    return TRUE;
  }
  return GST_BASE_SRC_CLASS (parent_class)->event (bsrc, event);
}

static void
gst_octopus_trace_src_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    case PROP_LOOP:
      self->loop = g_value_get_boolean (value);
      break;
    case PROP_BITRATE:
      self->bitrate = g_value_get_uint64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_trace_src_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_LOOP:
      g_value_set_boolean (value, self->loop);
      break;
    case PROP_BITRATE:
      g_value_set_uint64 (value, self->bitrate);
      break;
    case PROP_LEVEL:
      g_value_set_uint (value, self->level_kbps);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_trace_src_finalize (GObject *object)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (object);
  g_free (self->location);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_octopus_trace_src_class_init (GstOctopusTraceSrcClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bsrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *psrc_class = GST_PUSH_SRC_CLASS (klass);

  gobject_class->set_property = gst_octopus_trace_src_set_property;
  gobject_class->get_property = gst_octopus_trace_src_get_property;
  gobject_class->finalize = gst_octopus_trace_src_finalize;

  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "Video trace file (temporal, quality or point-cloud format)",
          DEFAULT_LOCATION, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_LOOP,
      g_param_spec_boolean ("loop", "Loop",
          "Start over at the end of the trace instead of ending the stream",
          DEFAULT_LOOP, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_BITRATE,
      g_param_spec_uint64 ("bitrate", "Bitrate",
          "Transport estimate in bits/s that picks levels and layers; "
          "updated by octopussink's bandwidth events", 0, G_MAXUINT64,
          DEFAULT_BITRATE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_LEVEL,
      g_param_spec_uint ("level", "Level",
          "Quality traces: aggregate kbit/s of the level in use", 0,
          G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus video trace source", "Source/Network",
      "Replays an encoded-video trace in real time, one buffer per message "
      "with Octopus metas", "gst-octopus");

  bsrc_class->start = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_start);
  bsrc_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_stop);
  bsrc_class->get_times = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_get_times);
  bsrc_class->event = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_event);
  psrc_class->create = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_create);

  GST_DEBUG_CATEGORY_INIT (gst_octopus_trace_src_debug, "octopustracesrc", 0,
      "Octopus video trace replay");
}

static void
gst_octopus_trace_src_init (GstOctopusTraceSrc *self)
{
  self->loop = DEFAULT_LOOP;
  self->bitrate = DEFAULT_BITRATE;
  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}
