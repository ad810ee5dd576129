/* octopussvcenc: encodes raw video into scalable VP8 or VP9 on the libvpx API
 * (svc-vpx-encoder.c) in the layer structure of core/svc-pattern.h.
 *
 * VP8: 1-3 temporal layers (caps field temporal-layers, which octopussvcdec
 * reads), one buffer per frame, with gst-plugins-good's
 * "GstVP8Meta" custom meta (so stock rtpvp8pay and octopustag read the
 * layers) and GstOctopusMeta (frame_id, temporal_layer, keyframe).
 *
 * VP9: 1-3 spatial x 1-3 temporal layers (inter-layer prediction; each
 * spatial layer in the temporal structure of VP8's), one buffer per
 * spatial layer of each frame in increasing layer order; the last carries
 * GST_BUFFER_FLAG_MARKER.  Each carries GstOctopusMeta with frame_id,
 * spatial_layer, temporal_layer, keyframe (every layer of a GoP's first
 * picture, and the layers above 0 of a spatial-sync picture, with
 * intra-base-sync its layer 0 too: they reference no earlier frame) and,
 * in media_bitrate_threshold_bps, the layer's cumulative target media
 * bitrate — what octopustag policy=quality turns into the layer's (link)
 * threshold.
 * Only a key picture's layer 0 lacks GST_BUFFER_FLAG_DELTA_UNIT.
 *
 * Both: capture_time = the clock time of the frame's PTS (NONE for frames
 * encoded before PLAYING: a file source needs "identity sync=true" in front
 * to be paced like a camera); the dropping
 * fields stay zero for octopustag.  A bitrate change (property, or the
 * transport's GstOctopusBandwidth event with follow-bandwidth=true: the
 * media rate whose link rate at @mtu is the estimate) takes effect at the
 * next GoP start or spatial sync if it is a rise, at the next frame if it is
 * a fall. */
#include "gstoctopussvcenc.h"

#include "gst/octopus/gstoctopusmeta.h"
#include "svc-vpx-encoder.h"
#include "transport/octo-packet.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_svc_enc_debug);
#define GST_CAT_DEFAULT gst_octopus_svc_enc_debug

enum {
  PROP_0,
  PROP_CODEC,
  PROP_SPATIAL_LAYERS,
  PROP_TEMPORAL_LAYERS,
  PROP_SCALING,
  PROP_LAYER_FRACTIONS,
  PROP_BITRATE,
  PROP_FOLLOW_BANDWIDTH,
  PROP_MAX_BITRATE,
  PROP_MTU,
  PROP_GOP,
  PROP_SPATIAL_SYNC,
  PROP_INTRA_BASE_SYNC,
  PROP_SPEED,
  PROP_MAX_INTRA_BITRATE_PCT,
  PROP_BUFFER_SIZE,
  PROP_BUFFER_INITIAL_SIZE,
  PROP_BUFFER_OPTIMAL_SIZE,
  PROP_THREADS,
};

#define DEFAULT_CODEC GST_OCTOPUS_SVC_ENC_CODEC_VP9
#define DEFAULT_SPATIAL_LAYERS 3
#define DEFAULT_TEMPORAL_LAYERS 1
#define DEFAULT_SCALING NULL
#define DEFAULT_LAYER_FRACTIONS NULL
#define DEFAULT_BITRATE 2000000
#define DEFAULT_SPATIAL_SYNC 0
#define DEFAULT_INTRA_BASE_SYNC FALSE
#define DEFAULT_FOLLOW_BANDWIDTH FALSE
/* Above the shipped cellular traces' peak one-second rates (Verizon LTE
 * 16.8 Mbit/s, 5G driving 24.6) only a loopback or LAN estimate goes, where
 * it ran away to ~900 Mbit/s; libvpx real-time at these sizes gains
 * nothing visible past a few Mbit/s.  The 5G-static trace (up to 250
 * Mbit/s) needs max-bitrate raised or 0. */
#define DEFAULT_MAX_BITRATE 20000000
#define DEFAULT_MTU 1400
#define DEFAULT_GOP 10
#define DEFAULT_SPEED 7
#define DEFAULT_MAX_INTRA_BITRATE_PCT 0
/* libvpx's own (and vp8enc's defaults); libwebrtc uses 1000, 500, 600 */
#define DEFAULT_BUFFER_SIZE 6000
#define DEFAULT_BUFFER_INITIAL_SIZE 4000
#define DEFAULT_BUFFER_OPTIMAL_SIZE 5000
#define DEFAULT_THREADS 2

#define VP8_META_NAME "GstVP8Meta"

struct _GstOctopusSvcEnc {
  GstVideoEncoder parent;

  /* properties (object lock) */
  GstOctopusSvcEncCodec codec;
  guint spatial_layers, temporal_layers;
  gchar *scaling, *layer_fractions;
  guint bitrate;
  gboolean follow_bandwidth;
  guint max_bitrate;
  guint mtu;
  guint gop;
  guint spatial_sync;
  gboolean intra_base_sync;
  gint speed;
  guint max_intra_pct;
  guint buffer_ms, buffer_initial_ms, buffer_optimal_ms;
  guint threads;

  /* streaming (stream lock) */
  SvcVpxEncoder *encoder;
  GstVideoCodecState *input_state;
  GArray *packets;
};

G_DEFINE_TYPE (GstOctopusSvcEnc, gst_octopus_svc_enc, GST_TYPE_VIDEO_ENCODER);
GST_ELEMENT_REGISTER_DEFINE (octopussvcenc, "octopussvcenc", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_SVC_ENC);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw, format = (string) I420, "
        "width = (int) [ 16, 8192 ], height = (int) [ 16, 8192 ], "
        "framerate = (fraction) [ 1/1, 240/1 ]"));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-vp8, temporal-layers = (int) [ 1, 3 ]; "
        "video/x-vp9, "
        "spatial-layers = (int) [ 1, 3 ], temporal-layers = (int) [ 1, 3 ]"));

#define GST_TYPE_OCTOPUS_SVC_ENC_CODEC (gst_octopus_svc_enc_codec_get_type ())
static GType
gst_octopus_svc_enc_codec_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_OCTOPUS_SVC_ENC_CODEC_VP8, "VP8 with temporal layers", "vp8"},
    {GST_OCTOPUS_SVC_ENC_CODEC_VP9, "VP9 with spatial and temporal layers",
        "vp9"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstOctopusSvcEncCodec",
            values));
  return type;
}

/* gst-plugins-good's vp8enc registers GstVP8Meta in its class_init; let it
 * do so if it is installed (registering the name twice is an error), else
 * register the same custom meta ourselves.  Called when streaming starts,
 * not from class_init, which the registry scanner runs before it knows
 * vp8enc. */
static void
ensure_vp8_meta (void)
{
  static const gchar *tags[] = { NULL };
  GstElementFactory *factory;

  if (gst_meta_get_info (VP8_META_NAME))
    return;
  factory = gst_element_factory_find ("vp8enc");
  if (factory) {
    GstPluginFeature *loaded =
        gst_plugin_feature_load (GST_PLUGIN_FEATURE (factory));
    if (loaded) {
      GType type = gst_element_factory_get_element_type (
          GST_ELEMENT_FACTORY (loaded));
      if (type)
        g_type_class_unref (g_type_class_ref (type));
      gst_object_unref (loaded);
    }
    gst_object_unref (factory);
  }
  if (!gst_meta_get_info (VP8_META_NAME))
    gst_meta_register_custom (VP8_META_NAME, tags, NULL, NULL, NULL);
}

static gboolean
gst_octopus_svc_enc_set_format (GstVideoEncoder *venc,
    GstVideoCodecState *state)
{
  GstOctopusSvcEnc *self = GST_OCTOPUS_SVC_ENC (venc);
  SvcEncoderSettings s;
  GstVideoCodecState *out;
  GstCaps *caps;
  GError *error = NULL;
  gboolean vp9;

  GST_OBJECT_LOCK (self);
  vp9 = self->codec == GST_OCTOPUS_SVC_ENC_CODEC_VP9;
  svc_encoder_settings_init (&s, vp9 ? SVC_CODEC_VP9 : SVC_CODEC_VP8,
      vp9 ? self->spatial_layers : 1, self->temporal_layers);
  s.bitrate = self->bitrate;
  s.gop = self->gop;
  s.spatial_sync = self->spatial_sync;
  s.intra_base_sync = self->intra_base_sync;
  s.speed = self->speed;
  s.max_intra_pct = self->max_intra_pct;
  s.buffer_ms = self->buffer_ms;
  s.buffer_initial_ms = self->buffer_initial_ms;
  s.buffer_optimal_ms = self->buffer_optimal_ms;
  s.threads = self->threads;
  if (self->scaling && !svc_config_parse_scaling (self->scaling,
          s.spatial_layers, s.scaling, &error))
    goto bad_property;
  if (self->layer_fractions && !svc_config_parse_fractions
      (self->layer_fractions, vp9 ? s.spatial_layers : s.temporal_layers,
          s.fractions, &error))
    goto bad_property;
  GST_OBJECT_UNLOCK (self);

  s.width = (guint) GST_VIDEO_INFO_WIDTH (&state->info);
  s.height = (guint) GST_VIDEO_INFO_HEIGHT (&state->info);
  s.fps_n = (guint) MAX (GST_VIDEO_INFO_FPS_N (&state->info), 1);
  s.fps_d = (guint) MAX (GST_VIDEO_INFO_FPS_D (&state->info), 1);

  if (!vp9)
    ensure_vp8_meta ();
  g_clear_pointer (&self->encoder, svc_vpx_encoder_free);
  self->encoder = svc_vpx_encoder_new (&s, &error);
  if (!self->encoder) {
    GST_ELEMENT_ERROR (self, LIBRARY, INIT,
        ("Could not configure the %s SVC encoder", vp9 ? "VP9" : "VP8"),
        ("%s", error->message));
    g_error_free (error);
    return FALSE;
  }
  g_clear_pointer (&self->input_state, gst_video_codec_state_unref);
  self->input_state = gst_video_codec_state_ref (state);

  if (vp9)
    caps = gst_caps_new_simple ("video/x-vp9",
        "spatial-layers", G_TYPE_INT, (gint) s.spatial_layers,
        "temporal-layers", G_TYPE_INT, (gint) s.temporal_layers, NULL);
  else
    caps = gst_caps_new_simple ("video/x-vp8",
        "temporal-layers", G_TYPE_INT, (gint) s.temporal_layers, NULL);
  out = gst_video_encoder_set_output_state (venc, caps, state);
  gst_video_codec_state_unref (out);
  gst_video_encoder_set_latency (venc, 0, 0);
  return TRUE;

bad_property:
  GST_OBJECT_UNLOCK (self);
  GST_ELEMENT_ERROR (self, LIBRARY, SETTINGS,
      ("Invalid layer settings"), ("%s", error->message));
  g_error_free (error);
  return FALSE;
}

static GstClockTime
capture_time (GstOctopusSvcEnc *self, GstVideoCodecFrame *frame)
{
  GstVideoEncoder *venc = GST_VIDEO_ENCODER (self);
  GstClockTime rt;
  gboolean playing;

  /* the base time is only known in PLAYING (a prerolled frame has none) */
  GST_OBJECT_LOCK (self);
  playing = GST_STATE (self) == GST_STATE_PLAYING;
  GST_OBJECT_UNLOCK (self);
  if (!playing || !GST_CLOCK_TIME_IS_VALID (frame->pts)
      || venc->input_segment.format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  rt = gst_segment_to_running_time (&venc->input_segment, GST_FORMAT_TIME,
      frame->pts);
  if (!GST_CLOCK_TIME_IS_VALID (rt))
    return GST_CLOCK_TIME_NONE;
  return rt + gst_element_get_base_time (GST_ELEMENT (self));
}

static GstBuffer *
layer_buffer (GstOctopusSvcEnc *self, SvcLayerPacket *p, GstClockTime captured,
    gboolean vp9, gboolean temporal_scaling)
{
  GstBuffer *buf = gst_buffer_new_wrapped_bytes (p->data);
  GstOctopusMeta *m = gst_buffer_add_octopus_meta (buf);

  m->capture_time = captured;
  m->frame_id = p->frame_id;
  m->temporal_layer = (guint8) p->temporal_layer;
  m->keyframe = p->keyframe;
  if (vp9) {
    m->spatial_layer = (guint8) p->spatial_layer;
    m->media_bitrate_threshold_bps = p->cumulative_bps;
  } else {
    GstCustomMeta *vp8 = gst_buffer_add_custom_meta (buf, VP8_META_NAME);
    gst_structure_set (gst_custom_meta_get_structure (vp8),
        "use-temporal-scaling", G_TYPE_BOOLEAN, temporal_scaling,
        "layer-sync", G_TYPE_BOOLEAN, p->layer_sync,
        "layer-id", G_TYPE_UINT, p->temporal_layer,
        "tl0picidx", G_TYPE_UINT, (guint) p->tl0_pic_idx, NULL);
  }
  GST_LOG_OBJECT (self, "frame %u S%u T%u key %d: %" G_GSIZE_FORMAT
      " bytes", p->frame_id, p->spatial_layer, p->temporal_layer,
      p->keyframe, gst_buffer_get_size (buf));
  return buf;
}

static GstFlowReturn
gst_octopus_svc_enc_handle_frame (GstVideoEncoder *venc,
    GstVideoCodecFrame *frame)
{
  GstOctopusSvcEnc *self = GST_OCTOPUS_SVC_ENC (venc);
  GstVideoFrame vframe;
  guint8 *planes[3];
  gint strides[3];
  GError *error = NULL;
  GstClockTime captured = capture_time (self, frame);
  GstFlowReturn ret = GST_FLOW_OK;
  gboolean vp9 = self->codec == GST_OCTOPUS_SVC_ENC_CODEC_VP9;
  gboolean temporal_scaling;
  gboolean ok;

  if (!self->encoder) {
    gst_video_codec_frame_unref (frame);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  GST_OBJECT_LOCK (self);
  temporal_scaling = self->temporal_layers > 1;
  GST_OBJECT_UNLOCK (self);
  if (GST_VIDEO_CODEC_FRAME_IS_FORCE_KEYFRAME (frame))
    svc_vpx_encoder_force_keyframe (self->encoder);
  if (!gst_video_frame_map (&vframe, &self->input_state->info,
          frame->input_buffer, GST_MAP_READ)) {
    gst_video_codec_frame_unref (frame);
    GST_ELEMENT_ERROR (self, STREAM, ENCODE, ("Could not map a frame"),
        (NULL));
    return GST_FLOW_ERROR;
  }
  for (guint i = 0; i < 3; i++) {
    planes[i] = GST_VIDEO_FRAME_PLANE_DATA (&vframe, i);
    strides[i] = GST_VIDEO_FRAME_PLANE_STRIDE (&vframe, i);
  }
  g_array_set_size (self->packets, 0);
  ok = svc_vpx_encoder_encode (self->encoder, planes, strides, self->packets,
      &error);
  gst_video_frame_unmap (&vframe);
  if (!ok) {
    gst_video_codec_frame_unref (frame);
    GST_ELEMENT_ERROR (self, STREAM, ENCODE, ("libvpx failed to encode"),
        ("%s", error->message));
    g_error_free (error);
    return GST_FLOW_ERROR;
  }
  if (self->packets->len == 0)
    return gst_video_encoder_finish_frame (venc, frame);

  for (guint i = 0; i < self->packets->len; i++) {
    SvcLayerPacket *p = &g_array_index (self->packets, SvcLayerPacket, i);
    gboolean last = i + 1 == self->packets->len;

    /* a spatial sync's upper layers need the layers below, and an intra
     * base sync needs a started decoder: not sync points of the stream */
    if (p->keyframe && p->spatial_layer == 0 && !p->base_sync)
      GST_VIDEO_CODEC_FRAME_SET_SYNC_POINT (frame);
    frame->output_buffer = layer_buffer (self, p, captured, vp9,
        temporal_scaling);
    p->data = NULL;             /* owned by the buffer */
    if (last)
      return gst_video_encoder_finish_frame (venc, frame);
    ret = gst_video_encoder_finish_subframe (venc, frame);
    if (ret != GST_FLOW_OK) {
      gst_video_codec_frame_unref (frame);
      return ret;
    }
  }
  return ret;
}

static gboolean
gst_octopus_svc_enc_src_event (GstVideoEncoder *venc, GstEvent *event)
{
  GstOctopusSvcEnc *self = GST_OCTOPUS_SVC_ENC (venc);
  guint64 estimate;

  if (gst_octopus_event_parse_bandwidth (event, &estimate)) {
    gboolean follow;
    guint64 media = 0;

    GST_OBJECT_LOCK (self);
    follow = self->follow_bandwidth;
    if (follow) {
      /* the estimate is a link rate: all layers' link rate fits in it */
      media = svc_config_media_rate_for_link (estimate,
          self->mtu - OCTO_DATA_PREFIX_LEN,
          OCTO_DATA_PREFIX_LEN + OCTO_LINK_OVERHEAD);
      if (self->max_bitrate > 0)
        media = MIN (media, self->max_bitrate);
      self->bitrate = (guint) CLAMP (media, 10000, G_MAXINT);
      media = self->bitrate;
    }
    GST_OBJECT_UNLOCK (self);
    if (follow) {
      GST_DEBUG_OBJECT (self, "bandwidth estimate %" G_GUINT64_FORMAT
          " bits/s (link): media target %" G_GUINT64_FORMAT
          " bits/s (a rise from the next GoP or sync)", estimate, media);
      GST_VIDEO_ENCODER_STREAM_LOCK (self);
      if (self->encoder)
        svc_vpx_encoder_request_bitrate (self->encoder, media);
      GST_VIDEO_ENCODER_STREAM_UNLOCK (self);
    }
    gst_event_unref (event);
    return TRUE;
  }
  return GST_VIDEO_ENCODER_CLASS (gst_octopus_svc_enc_parent_class)->src_event
      (venc, event);
}

/* Layers of the frame being pushed may have been discarded by the flush,
 * so nothing after it may reference what came before. */
static gboolean
gst_octopus_svc_enc_flush (GstVideoEncoder *venc)
{
  GstOctopusSvcEnc *self = GST_OCTOPUS_SVC_ENC (venc);

  if (self->encoder)
    svc_vpx_encoder_force_keyframe (self->encoder);
  return TRUE;
}

static gboolean
gst_octopus_svc_enc_stop (GstVideoEncoder *venc)
{
  GstOctopusSvcEnc *self = GST_OCTOPUS_SVC_ENC (venc);

  g_clear_pointer (&self->encoder, svc_vpx_encoder_free);
  g_clear_pointer (&self->input_state, gst_video_codec_state_unref);
  return TRUE;
}

static void
gst_octopus_svc_enc_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusSvcEnc *self = GST_OCTOPUS_SVC_ENC (object);
  gboolean bitrate_changed = FALSE;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CODEC:
      self->codec = g_value_get_enum (value);
      break;
    case PROP_SPATIAL_LAYERS:
      self->spatial_layers = g_value_get_uint (value);
      break;
    case PROP_TEMPORAL_LAYERS:
      self->temporal_layers = g_value_get_uint (value);
      break;
    case PROP_SCALING:
      g_free (self->scaling);
      self->scaling = g_value_dup_string (value);
      break;
    case PROP_LAYER_FRACTIONS:
      g_free (self->layer_fractions);
      self->layer_fractions = g_value_dup_string (value);
      break;
    case PROP_BITRATE:
      self->bitrate = g_value_get_uint (value);
      bitrate_changed = TRUE;
      break;
    case PROP_MAX_BITRATE:
      self->max_bitrate = g_value_get_uint (value);
      break;
    case PROP_FOLLOW_BANDWIDTH:
      self->follow_bandwidth = g_value_get_boolean (value);
      break;
    case PROP_MTU:
      self->mtu = g_value_get_uint (value);
      break;
    case PROP_GOP:
      self->gop = g_value_get_uint (value);
      break;
    case PROP_SPATIAL_SYNC:
      self->spatial_sync = g_value_get_uint (value);
      break;
    case PROP_INTRA_BASE_SYNC:
      self->intra_base_sync = g_value_get_boolean (value);
      break;
    case PROP_MAX_INTRA_BITRATE_PCT:
      self->max_intra_pct = g_value_get_uint (value);
      break;
    case PROP_BUFFER_SIZE:
      self->buffer_ms = g_value_get_uint (value);
      break;
    case PROP_BUFFER_INITIAL_SIZE:
      self->buffer_initial_ms = g_value_get_uint (value);
      break;
    case PROP_BUFFER_OPTIMAL_SIZE:
      self->buffer_optimal_ms = g_value_get_uint (value);
      break;
    case PROP_SPEED:
      self->speed = g_value_get_int (value);
      break;
    case PROP_THREADS:
      self->threads = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
  if (bitrate_changed) {
    GST_VIDEO_ENCODER_STREAM_LOCK (self);
    if (self->encoder)
      svc_vpx_encoder_request_bitrate (self->encoder, self->bitrate);
    GST_VIDEO_ENCODER_STREAM_UNLOCK (self);
  }
}

static void
gst_octopus_svc_enc_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstOctopusSvcEnc *self = GST_OCTOPUS_SVC_ENC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_CODEC:
      g_value_set_enum (value, self->codec);
      break;
    case PROP_SPATIAL_LAYERS:
      g_value_set_uint (value, self->spatial_layers);
      break;
    case PROP_TEMPORAL_LAYERS:
      g_value_set_uint (value, self->temporal_layers);
      break;
    case PROP_SCALING:
      g_value_set_string (value, self->scaling);
      break;
    case PROP_LAYER_FRACTIONS:
      g_value_set_string (value, self->layer_fractions);
      break;
    case PROP_BITRATE:
      g_value_set_uint (value, self->bitrate);
      break;
    case PROP_MAX_BITRATE:
      g_value_set_uint (value, self->max_bitrate);
      break;
    case PROP_FOLLOW_BANDWIDTH:
      g_value_set_boolean (value, self->follow_bandwidth);
      break;
    case PROP_MTU:
      g_value_set_uint (value, self->mtu);
      break;
    case PROP_GOP:
      g_value_set_uint (value, self->gop);
      break;
    case PROP_SPATIAL_SYNC:
      g_value_set_uint (value, self->spatial_sync);
      break;
    case PROP_INTRA_BASE_SYNC:
      g_value_set_boolean (value, self->intra_base_sync);
      break;
    case PROP_MAX_INTRA_BITRATE_PCT:
      g_value_set_uint (value, self->max_intra_pct);
      break;
    case PROP_BUFFER_SIZE:
      g_value_set_uint (value, self->buffer_ms);
      break;
    case PROP_BUFFER_INITIAL_SIZE:
      g_value_set_uint (value, self->buffer_initial_ms);
      break;
    case PROP_BUFFER_OPTIMAL_SIZE:
      g_value_set_uint (value, self->buffer_optimal_ms);
      break;
    case PROP_SPEED:
      g_value_set_int (value, self->speed);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, self->threads);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_svc_enc_finalize (GObject *object)
{
  GstOctopusSvcEnc *self = GST_OCTOPUS_SVC_ENC (object);

  g_free (self->scaling);
  g_free (self->layer_fractions);
  g_array_unref (self->packets);
  G_OBJECT_CLASS (gst_octopus_svc_enc_parent_class)->finalize (object);
}

static void
gst_octopus_svc_enc_class_init (GstOctopusSvcEncClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstVideoEncoderClass *venc_class = GST_VIDEO_ENCODER_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_octopus_svc_enc_set_property;
  gobject_class->get_property = gst_octopus_svc_enc_get_property;
  gobject_class->finalize = gst_octopus_svc_enc_finalize;

  g_object_class_install_property (gobject_class, PROP_CODEC,
      g_param_spec_enum ("codec", "Codec",
          "vp8: temporal layers, one buffer per frame; vp9: spatial and "
          "temporal layers, one buffer per spatial layer",
          GST_TYPE_OCTOPUS_SVC_ENC_CODEC, DEFAULT_CODEC, rw));
  g_object_class_install_property (gobject_class, PROP_SPATIAL_LAYERS,
      g_param_spec_uint ("spatial-layers", "Spatial layers",
          "VP9 spatial layers (VP8 always has one)", 1, 3,
          DEFAULT_SPATIAL_LAYERS, rw));
  g_object_class_install_property (gobject_class, PROP_TEMPORAL_LAYERS,
      g_param_spec_uint ("temporal-layers", "Temporal layers",
          "Temporal layers in the pattern 0 / 0,1 / 0,2,1,2 (VP9: in every "
          "spatial layer, whose rate they share 0.6,1 / 0.4,0.6,1 "
          "cumulatively)", 1, 3,
          DEFAULT_TEMPORAL_LAYERS, rw));
  g_object_class_install_property (gobject_class, PROP_SCALING,
      g_param_spec_string ("scaling", "Scaling",
          "Size of each spatial layer relative to the input, lowest first, "
          "e.g. \"1/4,1/2,1\" (NULL: halving per layer)", DEFAULT_SCALING,
          rw));
  g_object_class_install_property (gobject_class, PROP_LAYER_FRACTIONS,
      g_param_spec_string ("layer-fractions", "Layer fractions",
          "Cumulative share of the bitrate up to each layer (spatial for "
          "VP9, temporal for VP8), e.g. \"0.2,0.5,1\" (NULL: 0.2,0.5,1 / "
          "0.4,1 spatial; 0.4,0.6,1 / 0.6,1 temporal)",
          DEFAULT_LAYER_FRACTIONS, rw));
  g_object_class_install_property (gobject_class, PROP_BITRATE,
      g_param_spec_uint ("bitrate", "Bitrate",
          "Target bitrate of all layers in bits/s; a rise takes effect at "
          "the next GoP start or spatial sync, a fall at the next frame",
          10000, G_MAXINT, DEFAULT_BITRATE, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_FOLLOW_BANDWIDTH,
      g_param_spec_boolean ("follow-bandwidth", "Follow bandwidth",
          "Set the bitrate to the transport's estimate (the upstream "
          "GstOctopusBandwidth event from octopussink), per GoP",
          DEFAULT_FOLLOW_BANDWIDTH, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_MAX_BITRATE,
      g_param_spec_uint ("max-bitrate", "Maximum bitrate",
          "Cap in bits/s on the bitrate follow-bandwidth sets (a loopback "
          "or LAN estimate grows without bound); 0 = no cap", 0, G_MAXINT,
          DEFAULT_MAX_BITRATE, rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_MTU,
      g_param_spec_uint ("mtu", "MTU",
          "Transport MTU (as octopussink's): turns the link-rate bandwidth "
          "estimate into the media rate whose packets fit in it",
          OCTO_MTU_MIN, OCTO_MTU_MAX, DEFAULT_MTU,
          rw | GST_PARAM_MUTABLE_PLAYING));
  g_object_class_install_property (gobject_class, PROP_GOP,
      g_param_spec_uint ("gop", "GoP",
          "Frames from one key frame to the next", 1, 10000, DEFAULT_GOP,
          rw));
  g_object_class_install_property (gobject_class, PROP_SPATIAL_SYNC,
      g_param_spec_uint ("spatial-sync", "Spatial sync",
          "VP9: every this many frames after a key frame, the spatial layers "
          "above 0 reference only the layer below in their picture (tagged "
          "key frames of their layer), so an upper layer a queue dropped "
          "recovers there without a key frame, and a bitrate change takes "
          "effect there; 0 = at key frames only", 0, 10000,
          DEFAULT_SPATIAL_SYNC, rw));
  g_object_class_install_property (gobject_class, PROP_INTRA_BASE_SYNC,
      g_param_spec_boolean ("intra-base-sync", "Intra base sync",
          "VP9 with spatial-sync: a sync picture's layer 0 references no "
          "earlier frame either (intra-coded, yet an inter frame: a decoder "
          "must have started at a key frame), so every layer of the picture "
          "is tagged a key frame and a queue may drop everything older of "
          "the stream (needs spatial-sync > 0; the layers' key frame flags "
          "are in GstOctopusMeta, the buffer flags stay those of a delta "
          "unit)",
          DEFAULT_INTRA_BASE_SYNC, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_INTRA_BITRATE_PCT,
      g_param_spec_uint ("max-intra-bitrate-pct", "Max intra bitrate pct",
          "Cap on a key frame's size, in percent of a frame's share of the "
          "bitrate (libvpx rc_max_intra_bitrate_pct; libwebrtc caps its key "
          "frames so, for the pacer): a call's first key frame otherwise "
          "takes many frame intervals to send at the start estimate "
          "(0: no cap)", 0, 100000, DEFAULT_MAX_INTRA_BITRATE_PCT, rw));
  g_object_class_install_property (gobject_class, PROP_BUFFER_SIZE,
      g_param_spec_uint ("buffer-size", "Buffer size",
          "Rate control buffer, in ms of the bitrate (libvpx rc_buf_sz; "
          "libwebrtc 1000): the smaller, the sooner the output follows a "
          "lowered bitrate", 1, 60000, DEFAULT_BUFFER_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_BUFFER_INITIAL_SIZE,
      g_param_spec_uint ("buffer-initial-size", "Buffer initial size",
          "Rate control buffer level at the start, ms (libvpx "
          "rc_buf_initial_sz; libwebrtc 500)", 1, 60000,
          DEFAULT_BUFFER_INITIAL_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_BUFFER_OPTIMAL_SIZE,
      g_param_spec_uint ("buffer-optimal-size", "Buffer optimal size",
          "Rate control buffer level aimed at, ms (libvpx "
          "rc_buf_optimal_sz; libwebrtc 600)", 1, 60000,
          DEFAULT_BUFFER_OPTIMAL_SIZE, rw));
  g_object_class_install_property (gobject_class, PROP_SPEED,
      g_param_spec_int ("speed", "Speed",
          "libvpx cpu-used: higher is faster and worse (VP9 5-9 for real "
          "time, VP9 spatial layers below the top one step faster; VP8: a "
          "fixed speed, 0 lets libvpx adapt it to the encode "
          "time)", 0, 16, DEFAULT_SPEED, rw));
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads", "Encoder threads", 1, 16,
          DEFAULT_THREADS, rw));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus SVC encoder", "Codec/Encoder/Video",
      "Real-time VP8 temporal / VP9 spatial x temporal SVC, one buffer per "
      "layer "
      "message with GstOctopusMeta", GST_OCTOPUS_AUTHORS);

  venc_class->set_format = GST_DEBUG_FUNCPTR (gst_octopus_svc_enc_set_format);
  venc_class->handle_frame =
      GST_DEBUG_FUNCPTR (gst_octopus_svc_enc_handle_frame);
  venc_class->src_event = GST_DEBUG_FUNCPTR (gst_octopus_svc_enc_src_event);
  venc_class->stop = GST_DEBUG_FUNCPTR (gst_octopus_svc_enc_stop);
  venc_class->flush = GST_DEBUG_FUNCPTR (gst_octopus_svc_enc_flush);

  gst_type_mark_as_plugin_api (GST_TYPE_OCTOPUS_SVC_ENC_CODEC, 0);
  GST_DEBUG_CATEGORY_INIT (gst_octopus_svc_enc_debug, "octopussvcenc", 0,
      "Octopus SVC encoder");
}

static void
gst_octopus_svc_enc_init (GstOctopusSvcEnc *self)
{
  self->codec = DEFAULT_CODEC;
  self->spatial_layers = DEFAULT_SPATIAL_LAYERS;
  self->temporal_layers = DEFAULT_TEMPORAL_LAYERS;
  self->scaling = g_strdup (DEFAULT_SCALING);
  self->layer_fractions = g_strdup (DEFAULT_LAYER_FRACTIONS);
  self->bitrate = DEFAULT_BITRATE;
  self->follow_bandwidth = DEFAULT_FOLLOW_BANDWIDTH;
  self->max_bitrate = DEFAULT_MAX_BITRATE;
  self->mtu = DEFAULT_MTU;
  self->gop = DEFAULT_GOP;
  self->spatial_sync = DEFAULT_SPATIAL_SYNC;
  self->intra_base_sync = DEFAULT_INTRA_BASE_SYNC;
  self->speed = DEFAULT_SPEED;
  self->max_intra_pct = DEFAULT_MAX_INTRA_BITRATE_PCT;
  self->buffer_ms = DEFAULT_BUFFER_SIZE;
  self->buffer_initial_ms = DEFAULT_BUFFER_INITIAL_SIZE;
  self->buffer_optimal_ms = DEFAULT_BUFFER_OPTIMAL_SIZE;
  self->threads = DEFAULT_THREADS;
  self->packets = g_array_new (FALSE, TRUE, sizeof (SvcLayerPacket));
  g_array_set_clear_func (self->packets, svc_layer_packet_clear);
}
