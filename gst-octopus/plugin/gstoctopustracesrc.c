/* octopustracesrc: replays the Octopus artifact's video traces in real time.
 *
 * The application logic is the core's OctoTraceSource (octo-trace-source.h,
 * shared with the simulator): per frame the messages with their sizes,
 * quality and the case's preset tags; the quality trace's level per GoP and
 * the point cloud's layer count per frame from the transport's estimate.
 * This element releases each frame at its capture time, one buffer per
 * message with a GstOctopusMeta (frame id, layer/cell ids, key frame and,
 * with tag=true, the dropping parameters), and can log what it sent
 * (sent-log) for eval/octo-metrics.
 *
 * The estimate comes from octopussink's upstream bandwidth event (or the
 * "bitrate" property until the first event).  An upstream force-key-unit
 * event (octopussink's, after an outage or on the receiver's request) makes
 * the next frame a GoP start: the trace skips ahead to one. */
#include "gstoctopustracesrc.h"

#include <stdio.h>

#include "gst/octopus/gstoctopusmeta.h"
#include <gst/video/video.h>
#include "octo-frame-log.h"
#include "octo-trace-source.h"
#include "transport/octo-packet.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_trace_src_debug);
#define GST_CAT_DEFAULT gst_octopus_trace_src_debug

enum {
  PROP_0,
  PROP_LOCATION,
  PROP_KIND,
  PROP_LOOP,
  PROP_TAG,
  PROP_MTU,
  PROP_BITRATE,
  PROP_LEVEL,
  PROP_SENT_LOG,
};

typedef enum {
  GST_OCTOPUS_TRACE_KIND_TEMPORAL = OCTO_SOURCE_TEMPORAL,
  GST_OCTOPUS_TRACE_KIND_QUALITY = OCTO_SOURCE_QUALITY,
  GST_OCTOPUS_TRACE_KIND_CLOUD = OCTO_SOURCE_CLOUD,
} GstOctopusTraceKind;

#define DEFAULT_KIND GST_OCTOPUS_TRACE_KIND_TEMPORAL
#define DEFAULT_LOOP FALSE
#define DEFAULT_TAG TRUE
#define DEFAULT_MTU 1400
#define DEFAULT_BITRATE 0

struct _GstOctopusTraceSrc {
  GstPushSrc parent;

  /* properties (object lock) */
  gchar *location;
  GstOctopusTraceKind kind;
  gboolean loop;
  gboolean tag;
  guint mtu;
  guint64 bitrate;              /* transport estimate, link bits/s */
  guint level;
  gchar *sent_log;
  gboolean key_unit_asked;      /* an upstream force-key-unit came */

  /* streaming thread */
  OctoTemporalTrace *temporal;
  OctoQualityTrace *quality;
  OctoCloudTrace *cloud;
  OctoTraceSource *source;
  FILE *log;
  guint64 frame;
  guint64 n_frames;             /* one pass of the trace */
  OctoSourceMessage pending[OCTO_SOURCE_MAX_MESSAGES];
  guint n_pending, next_pending;
};

#define GST_TYPE_OCTOPUS_TRACE_KIND (gst_octopus_trace_kind_get_type ())
static GType
gst_octopus_trace_kind_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_OCTOPUS_TRACE_KIND_TEMPORAL, "*-temp.trace: VP8 temporal layers "
          "(case 1)", "temporal"},
    {GST_OCTOPUS_TRACE_KIND_QUALITY, "*-quality.trace: 3 quality layers "
          "(case 2)", "quality"},
    {GST_OCTOPUS_TRACE_KIND_CLOUD, "dance.trace: point-cloud cells and "
          "density layers (case 3)", "cloud"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstOctopusTraceKind", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_octopus_trace_src_parent_class parent_class
G_DEFINE_TYPE (GstOctopusTraceSrc, gst_octopus_trace_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE (octopustracesrc, "octopustracesrc",
    GST_RANK_NONE, GST_TYPE_OCTOPUS_TRACE_SRC);

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("application/x-octopus-trace"));

static void
free_traces (GstOctopusTraceSrc *self)
{
  g_clear_pointer (&self->source, octo_trace_source_free);
  g_clear_pointer (&self->temporal, octo_temporal_trace_free);
  g_clear_pointer (&self->quality, octo_quality_trace_free);
  g_clear_pointer (&self->cloud, octo_cloud_trace_free);
}

static gboolean
gst_octopus_trace_src_start (GstBaseSrc *bsrc)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (bsrc);
  OctoTraceSourceConfig config;
  GError *err = NULL;
  gchar *location, *sent_log;
  GstOctopusTraceKind kind;

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  sent_log = g_strdup (self->sent_log);
  kind = self->kind;
  octo_trace_source_config_init (&config, (OctoSourceKind) kind);
  config.tag = self->tag;
  /* Rates in the tags are link rates of this transport's packets. */
  config.payload = self->mtu - OCTO_DATA_PREFIX_LEN;
  config.overhead = OCTO_DATA_PREFIX_LEN + OCTO_LINK_OVERHEAD;
  GST_OBJECT_UNLOCK (self);

  if (!location) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("No trace file given"),
        ("set location to a trace from data/traces/video and kind to its "
            "format"));
    g_free (sent_log);
    return FALSE;
  }
  switch (kind) {
    case GST_OCTOPUS_TRACE_KIND_TEMPORAL:
      config.temporal = self->temporal =
          octo_temporal_trace_load (location, &err);
      break;
    case GST_OCTOPUS_TRACE_KIND_QUALITY:
      config.quality = self->quality = octo_quality_trace_load (location, &err);
      break;
    case GST_OCTOPUS_TRACE_KIND_CLOUD:
      config.cloud = self->cloud = octo_cloud_trace_load (location, &err);
      break;
  }
  if (!err)
    self->source = octo_trace_source_new (&config, &err);
  if (err) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ,
        ("Could not read trace file '%s'", location),
        ("%s (is kind right for this file?)", err->message));
    g_clear_error (&err);
    free_traces (self);
    g_free (location);
    g_free (sent_log);
    return FALSE;
  }
  if (sent_log) {
    self->log = fopen (sent_log, "w");
    if (!self->log) {
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE,
          ("Could not write sent log '%s'", sent_log), GST_ERROR_SYSTEM);
      free_traces (self);
      g_free (location);
      g_free (sent_log);
      return FALSE;
    }
    fputs (OCTO_FRAME_LOG_SENT_HEADER, self->log);
  }
  g_free (location);
  g_free (sent_log);
  self->n_frames = self->temporal ? self->temporal->n_frames :
      self->quality ? self->quality->n_frames : self->cloud->n_frames;
  self->frame = 0;
  self->n_pending = self->next_pending = 0;
  return TRUE;
}

static gboolean
gst_octopus_trace_src_stop (GstBaseSrc *bsrc)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (bsrc);
  if (self->log) {
    fclose (self->log);
    self->log = NULL;
  }
  free_traces (self);
  return TRUE;
}

static GstFlowReturn
gst_octopus_trace_src_create (GstPushSrc *psrc, GstBuffer **out)
{
  GstOctopusTraceSrc *self = GST_OCTOPUS_TRACE_SRC (psrc);
  GstClockTime pts;
  GstOctopusMeta *m;
  GstBuffer *buf;

  if (self->next_pending == self->n_pending) {
    guint64 bw;
    gboolean loop, restart;
    GST_OBJECT_LOCK (self);
    loop = self->loop;
    GST_OBJECT_UNLOCK (self);
    if (self->frame == self->n_frames && !loop)
      return GST_FLOW_EOS;
    GST_OBJECT_LOCK (self);
    bw = self->bitrate;
    restart = self->key_unit_asked;
    self->key_unit_asked = FALSE;
    GST_OBJECT_UNLOCK (self);
    if (restart)
      octo_trace_source_restart (self->source);
    self->n_pending = octo_trace_source_next_frame (self->source,
        octo_trace_source_capture_time (self->source, self->frame), bw,
        self->pending);
    self->next_pending = 0;
    self->frame++;
    GST_OBJECT_LOCK (self);
    self->level = octo_trace_source_level (self->source);
    GST_OBJECT_UNLOCK (self);
  }
  const OctoSourceMessage *msg = &self->pending[self->next_pending++];

  buf = gst_buffer_new_allocate (NULL, msg->size, NULL);
  gst_buffer_memset (buf, 0, 0, msg->size);
  guint8 rec[GST_OCTOPUS_TRACE_RECORD_LEN];
  GST_WRITE_UINT32_BE (rec, GST_OCTOPUS_TRACE_RECORD_MAGIC);
  GST_WRITE_UINT32_BE (rec + 4, msg->frame);
  GST_WRITE_UINT16_BE (rec + 8, msg->index);
  gst_buffer_fill (buf, 0, rec, MIN (sizeof rec, msg->size));

  m = gst_buffer_add_octopus_meta (buf);
  m->frame_id = msg->frame;
  m->keyframe = msg->keyframe;
  switch (self->kind) {
    case GST_OCTOPUS_TRACE_KIND_TEMPORAL:
      m->temporal_layer = msg->layer;
      break;
    case GST_OCTOPUS_TRACE_KIND_QUALITY:
      m->spatial_layer = msg->layer;
      break;
    case GST_OCTOPUS_TRACE_KIND_CLOUD:
      m->cell_id = msg->cell;
      m->density_layer = msg->layer;
      break;
  }
  gst_octopus_meta_from_core (m, &msg->header, NULL);
  if (!self->tag && self->kind == GST_OCTOPUS_TRACE_KIND_QUALITY) {
    /* Layer info for octopustag: the cumulative media rate of the level. */
    const OctoQualityLevel *level =
        &self->quality->levels[octo_trace_source_level (self->source)];
    m->media_bitrate_threshold_bps =
        (guint64) level->cumulative_kbps[msg->layer] * 1000;
  }
  if (!m->keyframe)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_DELTA_UNIT);

  pts = msg->capture;
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = octo_trace_source_frame_interval (self->source);
  /* Capture = the clock time this frame is released at. */
  m->capture_time = gst_element_get_base_time (GST_ELEMENT (self)) + pts;
  if (self->log) {
    OctoSentRow row = {
      .frame = msg->frame, .index = msg->index, .capture = m->capture_time,
      .keyframe = msg->keyframe,
      .temporal_layer = self->kind == GST_OCTOPUS_TRACE_KIND_TEMPORAL ?
          msg->layer : 0,
      .level = octo_trace_source_level (self->source),
      .quality = msg->quality,
    };
    gchar line[OCTO_FRAME_LOG_ROW_MAX];
    fwrite (line, 1, octo_frame_log_sent_row (&row, line), self->log);
  }
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
  if (gst_video_event_is_force_key_unit (event)) {
    GST_OBJECT_LOCK (self);
    self->key_unit_asked = TRUE;
    GST_OBJECT_UNLOCK (self);
    GST_DEBUG_OBJECT (self, "key unit asked: the next frame starts a GoP");
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
    case PROP_KIND:
      self->kind = g_value_get_enum (value);
      break;
    case PROP_LOOP:
      self->loop = g_value_get_boolean (value);
      break;
    case PROP_TAG:
      self->tag = g_value_get_boolean (value);
      break;
    case PROP_MTU:
      self->mtu = g_value_get_uint (value);
      break;
    case PROP_BITRATE:
      self->bitrate = g_value_get_uint64 (value);
      break;
    case PROP_SENT_LOG:
      g_free (self->sent_log);
      self->sent_log = g_value_dup_string (value);
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
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_LOOP:
      g_value_set_boolean (value, self->loop);
      break;
    case PROP_TAG:
      g_value_set_boolean (value, self->tag);
      break;
    case PROP_MTU:
      g_value_set_uint (value, self->mtu);
      break;
    case PROP_BITRATE:
      g_value_set_uint64 (value, self->bitrate);
      break;
    case PROP_LEVEL:
      g_value_set_uint (value, self->level);
      break;
    case PROP_SENT_LOG:
      g_value_set_string (value, self->sent_log);
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
  g_free (self->sent_log);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_octopus_trace_src_class_init (GstOctopusTraceSrcClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *bsrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *psrc_class = GST_PUSH_SRC_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_octopus_trace_src_set_property;
  gobject_class->get_property = gst_octopus_trace_src_get_property;
  gobject_class->finalize = gst_octopus_trace_src_finalize;

  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "Video trace file from data/traces/video", NULL, rw));
  g_object_class_install_property (gobject_class, PROP_KIND,
      g_param_spec_enum ("kind", "Kind", "Format of the trace file",
          GST_TYPE_OCTOPUS_TRACE_KIND, DEFAULT_KIND, rw));
  g_object_class_install_property (gobject_class, PROP_LOOP,
      g_param_spec_boolean ("loop", "Loop",
          "Start over at the end of the trace instead of ending the stream "
          "(frame ids keep counting)", DEFAULT_LOOP, rw));
  g_object_class_install_property (gobject_class, PROP_TAG,
      g_param_spec_boolean ("tag", "Tag",
          "Set the case's preset dropping parameters in the meta (false: "
          "only frame, layer and key-frame fields, for octopustag)",
          DEFAULT_TAG, rw));
  g_object_class_install_property (gobject_class, PROP_MTU,
      g_param_spec_uint ("mtu", "MTU",
          "octopussink's mtu, to express rate thresholds as link rates",
          OCTO_MTU_MIN, OCTO_MTU_MAX, DEFAULT_MTU, rw));
  g_object_class_install_property (gobject_class, PROP_BITRATE,
      g_param_spec_uint64 ("bitrate", "Bitrate",
          "Transport estimate in link bits/s that picks levels and layers; "
          "updated by octopussink's bandwidth events", 0, G_MAXUINT64,
          DEFAULT_BITRATE, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_LEVEL,
      g_param_spec_uint ("level", "Level",
          "Quality level index (quality) or top density layer (cloud) in use",
          0, G_MAXUINT, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_SENT_LOG,
      g_param_spec_string ("sent-log", "Sent log",
          "CSV of every message sent (frame,index,capture_ns,keyframe,"
          "temporal_layer,level,quality) for eval/octo-metrics", NULL,
          rw));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus video trace source", "Source/Network",
      "Replays an encoded-video trace in real time, one buffer per message "
      "with Octopus metas", GST_OCTOPUS_AUTHORS);

  bsrc_class->start = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_start);
  bsrc_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_stop);
  bsrc_class->get_times = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_get_times);
  bsrc_class->event = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_event);
  psrc_class->create = GST_DEBUG_FUNCPTR (gst_octopus_trace_src_create);

  gst_type_mark_as_plugin_api (GST_TYPE_OCTOPUS_TRACE_KIND, 0);
  GST_DEBUG_CATEGORY_INIT (gst_octopus_trace_src_debug, "octopustracesrc", 0,
      "Octopus video trace replay");
}

static void
gst_octopus_trace_src_init (GstOctopusTraceSrc *self)
{
  self->kind = DEFAULT_KIND;
  self->loop = DEFAULT_LOOP;
  self->tag = DEFAULT_TAG;
  self->mtu = DEFAULT_MTU;
  self->bitrate = DEFAULT_BITRATE;
  gst_base_src_set_live (GST_BASE_SRC (self), TRUE);
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}
