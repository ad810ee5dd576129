/* octopustag: attaches GstOctopusMeta per a dropping policy preset.
 *
 * The presets are the core's (octo-preset.h, docs/design.md "Case-study
 * policies"); they derive the dropping fields from the key-frame flag and
 * the layer ids, never from a frame's position:
 *
 *  framerate  layers from vp8enc's GstVP8Meta, else our meta's temporal id.
 *  quality    Qk from our meta's spatial id; its bitrate threshold is the
 *             upstream meta's media_bitrate_threshold_bps (the cumulative
 *             media rate of the level in use); slack
 *             OCTO_PRESET_QUALITY_SLACK_MS unless @slack is set.
 *  volumetric cells 0/1 front, 2/3 occluded (live, density-layers=5), or
 *             the dance.trace table (density-layers=10).
 *  none       the property values, unless upstream already attached a meta.
 *
 * Bitrate thresholds come in as media rates (the meta's media field, the
 * bitrate-threshold property); this element is where they become the link
 * rates the header carries (per-packet IP, UDP and transport overhead at
 * @mtu).  The "tag" signal lets the application adjust every meta last,
 * through a GstStructure view of it (language bindings cannot reach a
 * GstMeta's fields; a structure they can read and write). */
#include "gstoctopustag.h"

#include "gst/octopus/gstoctopusmeta.h"
#include "octo-preset.h"
#include "transport/octo-packet.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_tag_debug);
#define GST_CAT_DEFAULT gst_octopus_tag_debug

enum {
  PROP_0,
  PROP_POLICY,
  PROP_STREAM_ID,
  PROP_PRIORITY,
  PROP_DROP,
  PROP_PRIORITY_THRESHOLD,
  PROP_BITRATE_THRESHOLD,
  PROP_SLACK,
  PROP_MTU,
  PROP_DENSITY_LAYERS,
};

#define DEFAULT_POLICY GST_OCTOPUS_TAG_POLICY_NONE
#define DEFAULT_STREAM_ID 0
#define DEFAULT_PRIORITY 0
#define DEFAULT_DROP FALSE
#define DEFAULT_PRIORITY_THRESHOLD 0
#define DEFAULT_BITRATE_THRESHOLD 0
#define DEFAULT_SLACK -1        /* the policy's */
#define DEFAULT_MTU 1400
#define DEFAULT_DENSITY_LAYERS 5

enum {
  SIGNAL_TAG,
  LAST_SIGNAL
};

static guint gst_octopus_tag_signals[LAST_SIGNAL];

struct _GstOctopusTag {
  GstBaseTransform parent;

  GstOctopusTagPolicy policy;
  guint stream_id;
  guint priority;
  gboolean drop;
  guint priority_threshold;
  guint64 media_bitrate_threshold_bps;
  gint slack;                   /* -1: the policy's */
  guint mtu;
  guint density_layers;

  guint32 next_frame_id;
};

#define GST_TYPE_OCTOPUS_TAG_POLICY (gst_octopus_tag_policy_get_type ())
static GType
gst_octopus_tag_policy_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_OCTOPUS_TAG_POLICY_NONE, "Property values / upstream meta", "none"},
    {GST_OCTOPUS_TAG_POLICY_FRAMERATE,
        "Case 1: VP8 temporal layers (frame rate)", "framerate"},
    {GST_OCTOPUS_TAG_POLICY_QUALITY,
        "Case 2: spatial/quality layers", "quality"},
    {GST_OCTOPUS_TAG_POLICY_VOLUMETRIC,
        "Case 3: point-cloud cells and density layers", "volumetric"},
    {0, NULL, NULL}
  };
  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstOctopusTagPolicy", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_octopus_tag_parent_class parent_class
G_DEFINE_TYPE (GstOctopusTag, gst_octopus_tag, GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (octopustag, "octopustag", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_TAG);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

/* Media rate -> link rate: each packet of mtu bytes carries the transport
 * prefix and IP/UDP headers around mtu - prefix bytes of payload. */
static guint64
link_rate (GstOctopusTag *self, guint64 media_bps)
{
  return MIN (octo_preset_link_rate (media_bps,
          self->mtu - OCTO_DATA_PREFIX_LEN,
          OCTO_DATA_PREFIX_LEN + OCTO_LINK_OVERHEAD), OCTO_BITRATE_MAX_BPS);
}

/* vp8enc (gst-plugins-good >= 1.20) describes temporal layers in a custom
 * meta named "GstVP8Meta". */
static gboolean
vp8_temporal_layer (GstBuffer *buf, guint *layer)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buf, "GstVP8Meta");
  GstStructure *s;
  gboolean scaling = FALSE;

  if (!meta)
    return FALSE;
  s = gst_custom_meta_get_structure (meta);
  if (!gst_structure_get_boolean (s, "use-temporal-scaling", &scaling))
    return FALSE;
  if (!scaling) {
    *layer = 0;
    return TRUE;
  }
  return gst_structure_get_uint (s, "layer-id", layer);
}

/* The presets set the dropping fields of the core's header: each apply_*
 * runs one on @m's header and writes the result back. */
static void
apply_framerate (GstBuffer *buf, GstOctopusMeta *m)
{
  OctoHeader h;
  guint layer = 0;

  if (!vp8_temporal_layer (buf, &layer) &&
      m->temporal_layer != GST_OCTOPUS_LAYER_NONE)
    layer = m->temporal_layer;
  m->temporal_layer = layer;
  gst_octopus_meta_to_core (m, &h, NULL);
  octo_preset_framerate (m->keyframe, layer, &h);
  gst_octopus_meta_from_core (m, &h, NULL);
}

static void
apply_quality (GstOctopusTag *self, GstOctopusMeta *m)
{
  OctoHeader h;
  guint layer = m->spatial_layer == GST_OCTOPUS_LAYER_NONE ? 0 :
      m->spatial_layer;

  gst_octopus_meta_to_core (m, &h, NULL);
  octo_preset_quality (layer, m->keyframe,
      link_rate (self, m->media_bitrate_threshold_bps), &h);
  if (self->slack >= 0)
    h.slack_ms = (guint16) self->slack;
  gst_octopus_meta_from_core (m, &h, NULL);
}

static void
apply_volumetric (GstOctopusTag *self, GstOctopusMeta *m)
{
  OctoHeader h;
  guint cell = m->cell_id == GST_OCTOPUS_LAYER_NONE ? 0 : m->cell_id;
  guint layer = m->density_layer == GST_OCTOPUS_LAYER_NONE ? 0 :
      m->density_layer;

  gst_octopus_meta_to_core (m, &h, NULL);
  if (self->density_layers <= 5)
    octo_preset_volumetric (cell, cell < 2, layer, m->frame_id, &h);
  else
    octo_preset_volumetric_trace (cell, layer, m->frame_id, &h);
  gst_octopus_meta_from_core (m, &h, NULL);
}

static GstClockTime
capture_time (GstOctopusTag *self, GstBuffer *buf)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstClockTime rt;

  /* Only a time segment maps timestamps to the clock. */
  if (!GST_BUFFER_PTS_IS_VALID (buf) ||
      trans->segment.format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  rt = gst_segment_to_running_time (&trans->segment, GST_FORMAT_TIME,
      GST_BUFFER_PTS (buf));
  if (!GST_CLOCK_TIME_IS_VALID (rt))
    return GST_CLOCK_TIME_NONE;
  return rt + gst_element_get_base_time (GST_ELEMENT (self));
}

#define PARAMS_NAME "octopus-params"

/* The "tag" signal's view of @m: the dropping fields (writable) and the
 * description (for the handler to decide by), named as the meta's fields. */
static GstStructure *
params_from_meta (const GstOctopusMeta *m)
{
  return gst_structure_new (PARAMS_NAME,
      "stream_id", G_TYPE_UINT, (guint) m->stream_id,
      "priority", G_TYPE_UINT, (guint) m->priority,
      "drop", G_TYPE_BOOLEAN, m->drop,
      "priority_threshold", G_TYPE_UINT, (guint) m->priority_threshold,
      "link_bitrate_threshold_bps", G_TYPE_UINT64,
      m->link_bitrate_threshold_bps,
      "slack_ms", G_TYPE_UINT, (guint) m->slack_ms,
      "frame_id", G_TYPE_UINT, m->frame_id,
      "spatial_layer", G_TYPE_UINT, (guint) m->spatial_layer,
      "temporal_layer", G_TYPE_UINT, (guint) m->temporal_layer,
      "cell_id", G_TYPE_UINT, (guint) m->cell_id,
      "density_layer", G_TYPE_UINT, (guint) m->density_layer,
      "keyframe", G_TYPE_BOOLEAN, m->keyframe,
      "capture_time", G_TYPE_UINT64, (guint64) m->capture_time, NULL);
}

/* A field the handler may have set with any integer type (Python ints come
 * as gint or gint64), clamped to 0..@max; FALSE if absent or not a number. */
static gboolean
params_get_clamped (const GstStructure *params, const gchar *field,
    guint64 max, guint64 *out)
{
  const GValue *v = gst_structure_get_value (params, field);
  GValue i = G_VALUE_INIT;
  gboolean ok = FALSE;

  if (!v)
    return FALSE;
  if (G_VALUE_HOLDS_UINT64 (v)) {
    *out = MIN (g_value_get_uint64 (v), max);
    return TRUE;
  }
  g_value_init (&i, G_TYPE_INT64);
  if (g_value_type_transformable (G_VALUE_TYPE (v), G_TYPE_INT64)
      && g_value_transform (v, &i)) {
    gint64 x = g_value_get_int64 (&i);
    *out = x < 0 ? 0 : MIN ((guint64) x, max);
    ok = TRUE;
  }
  g_value_unset (&i);
  return ok;
}

/* Takes back the dropping fields of the "tag" signal's view; the
 * description is the stream's and stays. */
static void
meta_from_params (GstOctopusMeta *m, const GstStructure *params)
{
  guint64 v;
  gboolean b;

  if (params_get_clamped (params, "stream_id", G_MAXUINT16, &v))
    m->stream_id = (guint16) v;
  if (params_get_clamped (params, "priority", GST_OCTOPUS_PRIORITY_MAX, &v))
    m->priority = (guint8) v;
  if (gst_structure_get_boolean (params, "drop", &b))
    m->drop = b;
  else if (params_get_clamped (params, "drop", 1, &v))
    m->drop = v != 0;
  if (params_get_clamped (params, "priority_threshold",
          GST_OCTOPUS_PRIORITY_MAX, &v))
    m->priority_threshold = (guint8) v;
  if (params_get_clamped (params, "link_bitrate_threshold_bps", G_MAXUINT64,
          &v))
    m->link_bitrate_threshold_bps = v;
  if (params_get_clamped (params, "slack_ms", GST_OCTOPUS_SLACK_MS_MAX, &v))
    m->slack_ms = (guint16) v;
}

static GstFlowReturn
gst_octopus_tag_transform_ip (GstBaseTransform *trans, GstBuffer *buf)
{
  GstOctopusTag *self = GST_OCTOPUS_TAG (trans);
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
  gboolean had_meta = m != NULL;
  /* Takes the object lock itself. */
  GstClockTime now_captured = capture_time (self, buf);

  GST_OBJECT_LOCK (self);
  if (!m) {
    m = gst_buffer_add_octopus_meta (buf);
    m->frame_id = self->next_frame_id++;
    m->keyframe = !GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DELTA_UNIT);
  }
  if (!GST_CLOCK_TIME_IS_VALID (m->capture_time))
    m->capture_time = now_captured;

  if (self->policy != GST_OCTOPUS_TAG_POLICY_NONE || !had_meta) {
    m->stream_id = self->stream_id;
    m->slack_ms = MAX (self->slack, 0);
  }
  switch (self->policy) {
    case GST_OCTOPUS_TAG_POLICY_NONE:
      if (!had_meta) {
        m->priority = self->priority;
        m->drop = self->drop;
        m->priority_threshold = self->priority_threshold;
        m->link_bitrate_threshold_bps =
            link_rate (self, self->media_bitrate_threshold_bps);
      }
      break;
    case GST_OCTOPUS_TAG_POLICY_FRAMERATE:
      apply_framerate (buf, m);
      break;
    case GST_OCTOPUS_TAG_POLICY_QUALITY:
      apply_quality (self, m);
      break;
    case GST_OCTOPUS_TAG_POLICY_VOLUMETRIC:
      apply_volumetric (self, m);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (g_signal_has_handler_pending (self, gst_octopus_tag_signals[SIGNAL_TAG],
          0, TRUE)) {
    GstStructure *params = params_from_meta (m);

    g_signal_emit (self, gst_octopus_tag_signals[SIGNAL_TAG], 0, buf, params);
    meta_from_params (m, params);
    gst_structure_free (params);
  }
  GST_LOG_OBJECT (self, "frame %u: priority %u drop %d/%u bitrate %"
      G_GUINT64_FORMAT, m->frame_id, m->priority, m->drop,
      m->priority_threshold, m->link_bitrate_threshold_bps);
  return GST_FLOW_OK;
}

static gboolean
gst_octopus_tag_start (GstBaseTransform *trans)
{
  GstOctopusTag *self = GST_OCTOPUS_TAG (trans);
  GST_OBJECT_LOCK (self);
  self->next_frame_id = 0;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static void
gst_octopus_tag_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusTag *self = GST_OCTOPUS_TAG (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_POLICY:
      self->policy = g_value_get_enum (value);
      break;
    case PROP_STREAM_ID:
      self->stream_id = g_value_get_uint (value);
      break;
    case PROP_PRIORITY:
      self->priority = g_value_get_uint (value);
      break;
    case PROP_DROP:
      self->drop = g_value_get_boolean (value);
      break;
    case PROP_PRIORITY_THRESHOLD:
      self->priority_threshold = g_value_get_uint (value);
      break;
    case PROP_BITRATE_THRESHOLD:
      self->media_bitrate_threshold_bps = g_value_get_uint64 (value);
      break;
    case PROP_SLACK:
      self->slack = g_value_get_int (value);
      break;
    case PROP_MTU:
      self->mtu = g_value_get_uint (value);
      break;
    case PROP_DENSITY_LAYERS:
      self->density_layers = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_tag_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstOctopusTag *self = GST_OCTOPUS_TAG (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_POLICY:
      g_value_set_enum (value, self->policy);
      break;
    case PROP_STREAM_ID:
      g_value_set_uint (value, self->stream_id);
      break;
    case PROP_PRIORITY:
      g_value_set_uint (value, self->priority);
      break;
    case PROP_DROP:
      g_value_set_boolean (value, self->drop);
      break;
    case PROP_PRIORITY_THRESHOLD:
      g_value_set_uint (value, self->priority_threshold);
      break;
    case PROP_BITRATE_THRESHOLD:
      g_value_set_uint64 (value, self->media_bitrate_threshold_bps);
      break;
    case PROP_SLACK:
      g_value_set_int (value, self->slack);
      break;
    case PROP_MTU:
      g_value_set_uint (value, self->mtu);
      break;
    case PROP_DENSITY_LAYERS:
      g_value_set_uint (value, self->density_layers);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_tag_class_init (GstOctopusTagClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  gobject_class->set_property = gst_octopus_tag_set_property;
  gobject_class->get_property = gst_octopus_tag_get_property;

  g_object_class_install_property (gobject_class, PROP_POLICY,
      g_param_spec_enum ("policy", "Policy",
          "Dropping-policy preset deriving the parameters from layer ids",
          GST_TYPE_OCTOPUS_TAG_POLICY, DEFAULT_POLICY, rw));
  g_object_class_install_property (gobject_class, PROP_STREAM_ID,
      g_param_spec_uint ("stream-id", "Stream ID",
          "Stream of the sender the messages belong to", 0, G_MAXUINT16,
          DEFAULT_STREAM_ID, rw));
  g_object_class_install_property (gobject_class, PROP_PRIORITY,
      g_param_spec_uint ("priority", "Priority",
          "Message priority for policy=none (0 = most important)", 0,
          GST_OCTOPUS_PRIORITY_MAX, DEFAULT_PRIORITY, rw));
  g_object_class_install_property (gobject_class, PROP_DROP,
      g_param_spec_boolean ("drop", "Dropper",
          "policy=none: each message drops older queued messages of the "
          "stream whose priority >= priority-threshold", DEFAULT_DROP, rw));
  g_object_class_install_property (gobject_class, PROP_PRIORITY_THRESHOLD,
      g_param_spec_uint ("priority-threshold", "Priority threshold",
          "policy=none: lowest priority value a dropper discards", 0,
          GST_OCTOPUS_PRIORITY_MAX, DEFAULT_PRIORITY_THRESHOLD, rw));
  g_object_class_install_property (gobject_class, PROP_BITRATE_THRESHOLD,
      g_param_spec_uint64 ("bitrate-threshold", "Bitrate threshold",
          "policy=none: drop when the stream's bandwidth is below this media "
          "rate in bits/s (0 = never)", 0, G_MAXUINT64,
          DEFAULT_BITRATE_THRESHOLD, rw));
  g_object_class_install_property (gobject_class, PROP_SLACK,
      g_param_spec_int ("slack", "Slack",
          "Milliseconds a message must queue before it may be dropped; -1: "
          "the policy's (quality " G_STRINGIFY (OCTO_PRESET_QUALITY_SLACK_MS)
          ", the others 0)", -1,
          GST_OCTOPUS_SLACK_MS_MAX, DEFAULT_SLACK, rw));
  g_object_class_install_property (gobject_class, PROP_MTU,
      g_param_spec_uint ("mtu", "MTU",
          "Transport MTU used to scale bitrate thresholds by packet overhead",
          OCTO_MTU_MIN, OCTO_MTU_MAX, DEFAULT_MTU, rw));
  g_object_class_install_property (gobject_class, PROP_DENSITY_LAYERS,
      g_param_spec_uint ("density-layers", "Density layers",
          "policy=volumetric: 5 = live pipeline table, more = trace-replay "
          "table (10 layers)", 1, 255, DEFAULT_DENSITY_LAYERS, rw));

  /**
   * GstOctopusTag::tag:
   * @tag: the element
   * @buffer: the buffer being tagged
   * @params: its GstOctopusMeta as a writable GstStructure "octopus-params"
   *   with fields named as the meta's: stream_id, priority, drop,
   *   priority_threshold, link_bitrate_threshold_bps, slack_ms (written
   *   back to the meta, clamped to the wire's ranges) and frame_id,
   *   spatial_layer, temporal_layer, cell_id, density_layer, keyframe,
   *   capture_time (read only)
   *
   * Emitted for every buffer after the policy was applied, so the
   * application can set per-buffer values (from Python too:
   * params.set_value ("priority", 3)).
   */
  gst_octopus_tag_signals[SIGNAL_TAG] = g_signal_new ("tag",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 2, GST_TYPE_BUFFER | G_SIGNAL_TYPE_STATIC_SCOPE,
      GST_TYPE_STRUCTURE | G_SIGNAL_TYPE_STATIC_SCOPE);

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class, "Octopus tagger",
      "Filter/Network", "Attaches Octopus dropping parameters to messages",
      GST_OCTOPUS_AUTHORS);

  trans_class->transform_ip = GST_DEBUG_FUNCPTR (gst_octopus_tag_transform_ip);
  trans_class->start = GST_DEBUG_FUNCPTR (gst_octopus_tag_start);
  trans_class->passthrough_on_same_caps = FALSE;

  gst_type_mark_as_plugin_api (GST_TYPE_OCTOPUS_TAG_POLICY, 0);
  GST_DEBUG_CATEGORY_INIT (gst_octopus_tag_debug, "octopustag", 0,
      "Octopus tagger");
}

static void
gst_octopus_tag_init (GstOctopusTag *self)
{
  self->policy = DEFAULT_POLICY;
  self->stream_id = DEFAULT_STREAM_ID;
  self->priority = DEFAULT_PRIORITY;
  self->drop = DEFAULT_DROP;
  self->priority_threshold = DEFAULT_PRIORITY_THRESHOLD;
  self->media_bitrate_threshold_bps = DEFAULT_BITRATE_THRESHOLD;
  self->slack = DEFAULT_SLACK;
  self->mtu = DEFAULT_MTU;
  self->density_layers = DEFAULT_DENSITY_LAYERS;
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
