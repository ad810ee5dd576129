/* octopussvcdec: the receiver's decoder for octopussvcenc streams (VP8
 * temporal, VP9 spatial x temporal layers), one input buffer per layer
 * message with GstOctopusMeta (as octopussrc restores it).
 *
 * Per frame it decodes the layers that are decodable (core/
 * svc-decodability.h: arrived, lower layers of the frame and the layer's
 * reference intact), never waits for a missing enhancement layer, and skips
 * undecodable frames until the next decodable one.  A frame goes out when
 * its top layer was handled, or when a newer frame's first message
 * arrives: full-size I420 (lower layers upscaled) with a GstOctopusMeta
 * whose spatial_layer is the highest layer used (layers 0..spatial_layer
 * were decoded).  Buffers without the meta are taken as one whole frame
 * each, in order.
 *
 * No caps are needed (none, or GST_OCTOPUS_MESSAGES_CAPS): the stream
 * describes itself.  The codec is the one whose key frame the first
 * decodable buffer is; the output size is the display size a VP9 layer's
 * header carries (libvpx's SVC encoder writes the full size into every
 * spatial layer), so the top layer is the one decoded at that size; the
 * temporal layer count is learnt from the meta's temporal_layer
 * (svc-decodability.h); the frame rate from the meta's frame_id and
 * capture_time of the first two frames (the first frame waits for the
 * second).  Caps fields (spatial-layers, temporal-layers, width, height,
 * framerate) and the temporal-layers property take precedence. */
#include "gstoctopussvcdec.h"

#include <gst/video/video.h>
#include <string.h>

#include "core/svc-decodability.h"
#include "core/svc-frame-size.h"
#include "gst/octopus/gstoctopusmeta.h"
#include "svc-scale.h"
#include "svc-vpx-decoder.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_svc_dec_debug);
#define GST_CAT_DEFAULT gst_octopus_svc_dec_debug

enum {
  PROP_0,
  PROP_TEMPORAL_LAYERS,
  PROP_THREADS,
  PROP_MAX_FRAME_PIXELS,
  PROP_REQUEST_KEYFRAME,
  PROP_STATS,
};

#define DEFAULT_TEMPORAL_LAYERS 0
#define DEFAULT_THREADS 1
#define DEFAULT_REQUEST_KEYFRAME FALSE
/* a key frame takes a round trip to come: no more requests meanwhile */
#define KEYFRAME_REQUEST_INTERVAL (500 * GST_MSECOND)

struct _GstOctopusSvcDec {
  GstElement parent;
  GstPad *sinkpad, *srcpad;

  /* properties (object lock) */
  guint temporal_layers;
  guint threads;
  guint64 max_frame_pixels;
  gboolean request_keyframe;

  /* streaming (stream lock) */
  SvcCodec codec;
  guint spatial_layers;         /* 0: not in the caps */
  guint temporal_layers_in_use; /* 0: learnt from the stream */
  gint out_width, out_height;   /* 0: from the first picture */
  guint display_width, display_height;  /* VP9 header's, 0 until known */
  gint fps_n, fps_d;            /* 0/1 until known */
  /* the first frame with a capture time, to learn the rate from */
  gboolean rate_ref_valid;
  guint32 rate_ref_id;
  GstClockTime rate_ref_time;
  gboolean caps_sent;
  GList *held_events;           /* sticky events waiting for our caps */
  SvcVpxDecoder *decoder;
  SvcDecodability decodability;
  guint32 next_id;              /* for buffers without a meta */
  /* the frame being assembled: its newest picture and description */
  gboolean pending;
  const vpx_image_t *picture;
  GstOctopusMeta desc;
  GstClockTime pts, duration;
  SvcScaler scaler;
  GstClockTime last_keyframe_request;   /* stream time (PTS), or NONE */

  /* counters (object lock) */
  guint64 frames_shown, layers_decoded, layers_undecodable, layers_late;
  guint64 layers_too_large, keyframes_requested;
};

G_DEFINE_TYPE (GstOctopusSvcDec, gst_octopus_svc_dec, GST_TYPE_ELEMENT);
GST_ELEMENT_REGISTER_DEFINE (octopussvcdec, "octopussvcdec", GST_RANK_NONE,
    GST_TYPE_OCTOPUS_SVC_DEC);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-vp8; video/x-vp9; " GST_OCTOPUS_MESSAGES_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw, format = (string) I420"));

static void
reset_stream (GstOctopusSvcDec *self)
{
  svc_decodability_init (&self->decodability, self->temporal_layers_in_use);
  self->pending = FALSE;
  self->picture = NULL;
}

/* What caps or the stream will tell: nothing known yet. */
static void
reset_description (GstOctopusSvcDec *self)
{
  self->spatial_layers = 0;
  self->temporal_layers_in_use = 0;
  self->out_width = self->out_height = 0;
  self->display_width = self->display_height = 0;
  self->fps_n = 0;
  self->fps_d = 1;
  self->rate_ref_valid = FALSE;
  self->caps_sent = FALSE;
}

static gboolean
start_decoder (GstOctopusSvcDec *self, SvcCodec codec, gint caps_temporal)
{
  guint threads, temporal_prop;
  guint64 max_frame_pixels;
  GError *error = NULL;

  self->codec = codec;
  GST_OBJECT_LOCK (self);
  temporal_prop = self->temporal_layers;
  threads = self->threads;
  max_frame_pixels = self->max_frame_pixels;
  GST_OBJECT_UNLOCK (self);
  self->temporal_layers_in_use = temporal_prop > 0 ? temporal_prop :
      (guint) CLAMP (caps_temporal, 0, SVC_MAX_TEMPORAL_LAYERS);
  GST_DEBUG_OBJECT (self, "%s, %u spatial, %u temporal layers (0: learnt)",
      codec == SVC_CODEC_VP9 ? "VP9" : "VP8", self->spatial_layers,
      self->temporal_layers_in_use);

  svc_vpx_decoder_free (self->decoder);
  self->decoder = svc_vpx_decoder_new (self->codec, threads, &error);
  if (!self->decoder) {
    GST_ELEMENT_ERROR (self, LIBRARY, INIT, ("Could not start libvpx"),
        ("%s", error->message));
    g_error_free (error);
    return FALSE;
  }
  svc_vpx_decoder_set_max_frame_pixels (self->decoder, max_frame_pixels);
  reset_stream (self);
  return TRUE;
}

static gboolean
set_sink_caps (GstOctopusSvcDec *self, GstCaps *caps)
{
  GstStructure *s = gst_caps_get_structure (caps, 0);
  gint spatial = 0, temporal = 0;

  reset_description (self);
  if (gst_structure_has_name (s, GST_OCTOPUS_MESSAGES_CAPS)) {
    /* as without caps: the first key frame says the codec */
    g_clear_pointer (&self->decoder, svc_vpx_decoder_free);
    return TRUE;
  }
  gst_structure_get_int (s, "spatial-layers", &spatial);
  gst_structure_get_int (s, "temporal-layers", &temporal);
  self->spatial_layers = (guint) CLAMP (spatial, 0, 8);
  gst_structure_get_int (s, "width", &self->out_width);
  gst_structure_get_int (s, "height", &self->out_height);
  if (!gst_structure_get_fraction (s, "framerate", &self->fps_n,
          &self->fps_d) || self->fps_n <= 0) {
    self->fps_n = 0;
    self->fps_d = 1;
  }
  return start_decoder (self, gst_structure_has_name (s, "video/x-vp9") ?
      SVC_CODEC_VP9 : SVC_CODEC_VP8, temporal);
}

/* Frames per second from two frames' ids (consecutive per encoded frame)
 * and capture times; a rate within 1 % of a whole number is that number
 * (capture times carry the source's nanosecond rounding and jitter). */
static void
learn_framerate (GstOctopusSvcDec *self, const GstOctopusMeta *desc)
{
  gdouble rate, whole;

  if (self->fps_n > 0 || self->caps_sent
      || !GST_CLOCK_TIME_IS_VALID (desc->capture_time))
    return;
  if (!self->rate_ref_valid) {
    self->rate_ref_valid = TRUE;
    self->rate_ref_id = desc->frame_id;
    self->rate_ref_time = desc->capture_time;
    return;
  }
  if ((gint32) (desc->frame_id - self->rate_ref_id) <= 0
      || desc->capture_time <= self->rate_ref_time)
    return;
  rate = (gdouble) (desc->frame_id - self->rate_ref_id) * GST_SECOND
      / (gdouble) (desc->capture_time - self->rate_ref_time);
  whole = (gdouble) (gint64) (rate + 0.5);
  if (whole >= 1 && ABS (rate - whole) <= 0.01 * rate) {
    self->fps_n = (gint) whole;
    self->fps_d = 1;
  } else {
    gst_util_double_to_fraction (rate, &self->fps_n, &self->fps_d);
  }
  GST_DEBUG_OBJECT (self, "frame rate %d/%d from capture times",
      self->fps_n, self->fps_d);
}

static gboolean
ensure_src_caps (GstOctopusSvcDec *self)
{
  GstCaps *caps;
  gboolean ok;

  if (self->caps_sent)
    return TRUE;
  if (self->out_width <= 0 || self->out_height <= 0)
    return FALSE;
  caps = gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, "I420",
      "width", G_TYPE_INT, self->out_width,
      "height", G_TYPE_INT, self->out_height,
      "framerate", GST_TYPE_FRACTION, self->fps_n, self->fps_d, NULL);
  ok = gst_pad_set_caps (self->srcpad, caps);
  gst_caps_unref (caps);
  self->caps_sent = ok;
  if (ok) {
    GList *events = g_list_reverse (self->held_events);
    self->held_events = NULL;
    for (GList *l = events; l; l = l->next)
      gst_pad_push_event (self->srcpad, l->data);
    g_list_free (events);
  }
  return ok;
}

/* The picture at the output size: lower spatial layers are upscaled. */
static GstBuffer *
render_picture (GstOctopusSvcDec *self, const vpx_image_t *img)
{
  GstVideoInfo out_info;
  GstVideoFrame out;
  GstBuffer *buf;

  gst_video_info_set_format (&out_info, GST_VIDEO_FORMAT_I420,
      (guint) self->out_width, (guint) self->out_height);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&out_info), NULL);
  if (!gst_video_frame_map (&out, &out_info, buf, GST_MAP_WRITE)) {
    gst_buffer_unref (buf);
    return NULL;
  }
  svc_scaler_render (&self->scaler, img, &out);
  gst_video_frame_unmap (&out);
  return buf;
}

static GstFlowReturn
push_pending (GstOctopusSvcDec *self)
{
  GstBuffer *buf;
  GstOctopusMeta *m;
  const vpx_image_t *img = self->picture;

  if (!self->pending)
    return GST_FLOW_OK;
  self->pending = FALSE;
  self->picture = NULL;
  if (!img)
    return GST_FLOW_OK;
  if (img->fmt != VPX_IMG_FMT_I420) {
    GST_ELEMENT_ERROR (self, STREAM, DECODE, ("Unsupported picture format"),
        ("libvpx gave format %d; only 8-bit 4:2:0 (profile 0) is supported",
            img->fmt));
    return GST_FLOW_ERROR;
  }
  if (self->out_width <= 0 || self->out_height <= 0) {
    if (self->display_width > 0) {
      self->out_width = (gint) self->display_width;
      self->out_height = (gint) self->display_height;
    } else {
      guint top = MAX (self->spatial_layers, 1u) - 1;
      guint up = 1u << (top - MIN (self->desc.spatial_layer, top));
      self->out_width = (gint) (img->d_w * up);
      self->out_height = (gint) (img->d_h * up);
    }
  }
  if (!ensure_src_caps (self))
    return GST_FLOW_NOT_NEGOTIATED;
  buf = render_picture (self, img);
  if (!buf)
    return GST_FLOW_ERROR;
  m = gst_buffer_add_octopus_meta (buf);
  gst_octopus_meta_copy_fields (m, &self->desc);
  GST_BUFFER_PTS (buf) = self->pts;
  GST_BUFFER_DURATION (buf) = self->duration;
  GST_OBJECT_LOCK (self);
  self->frames_shown++;
  GST_OBJECT_UNLOCK (self);
  GST_LOG_OBJECT (self, "frame %u shown at layer %u", m->frame_id,
      m->spatial_layer);
  return gst_pad_push (self->srcpad, buf);
}

static void
describe_buffer (GstOctopusSvcDec *self, GstBuffer *buf, GstOctopusMeta *desc)
{
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);

  if (m) {
    gst_octopus_meta_copy_fields (desc, m);
    if (desc->spatial_layer == GST_OCTOPUS_LAYER_NONE)
      desc->spatial_layer = 0;
    if (desc->temporal_layer == GST_OCTOPUS_LAYER_NONE)
      desc->temporal_layer = 0;
    return;
  }
  gst_octopus_meta_reset (desc);
  desc->frame_id = self->next_id++;
  desc->spatial_layer = 0;
  desc->temporal_layer = 0;
  desc->keyframe = !GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_DELTA_UNIT);
}

/* Without caps: a key frame says the codec (libvpx's stream peek); until
 * one arrives buffers are skipped, as they could not be decoded anyway. */
static gboolean
peek_keyframe_codec (GstBuffer *buf, SvcCodec *codec)
{
  GstMapInfo map;
  gboolean key;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return FALSE;
  key = svc_vpx_peek_keyframe (map.data, map.size, codec);
  gst_buffer_unmap (buf, &map);
  return key;
}

/* Whether @buf's layer is its frame's last: the MARKER flag, the caps'
 * spatial-layers, or (VP9 without them) a picture at the display size the
 * stream's header carries; VP8 and buffers without a meta are one frame
 * each. */
static gboolean
is_top_layer (GstOctopusSvcDec *self, GstBuffer *buf,
    const GstOctopusMeta *desc)
{
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_MARKER))
    return TRUE;
  if (self->spatial_layers > 0)
    return (guint) desc->spatial_layer + 1 >= self->spatial_layers;
  if (self->codec == SVC_CODEC_VP8 || !gst_buffer_get_octopus_meta (buf))
    return TRUE;
  return self->pending && self->desc.frame_id == desc->frame_id
      && self->display_width > 0
      && self->picture->d_w >= self->display_width
      && self->picture->d_h >= self->display_height;
}

/* Layer 0 of the newest frame cannot be decoded: nothing will be until a
 * key frame, so ask upstream for one (rtpbin turns it into a PLI), at most
 * once per KEYFRAME_REQUEST_INTERVAL of stream time. */
static void
maybe_request_keyframe (GstOctopusSvcDec *self, GstClockTime pts)
{
  gboolean request;

  GST_OBJECT_LOCK (self);
  request = self->request_keyframe;
  GST_OBJECT_UNLOCK (self);
  if (!request || !GST_CLOCK_TIME_IS_VALID (pts)
      || (GST_CLOCK_TIME_IS_VALID (self->last_keyframe_request)
          && pts < self->last_keyframe_request + KEYFRAME_REQUEST_INTERVAL))
    return;
  self->last_keyframe_request = pts;
  GST_OBJECT_LOCK (self);
  self->keyframes_requested++;
  GST_OBJECT_UNLOCK (self);
  GST_DEBUG_OBJECT (self, "layer 0 undecodable: requesting a key frame");
  gst_pad_push_event (self->sinkpad,
      gst_video_event_new_upstream_force_key_unit (GST_CLOCK_TIME_NONE, TRUE,
          0));
}

static GstFlowReturn
gst_octopus_svc_dec_chain (GstPad *pad, GstObject *parent, GstBuffer *buf)
{
  GstOctopusSvcDec *self = GST_OCTOPUS_SVC_DEC (parent);
  GstOctopusMeta desc;
  GstFlowReturn ret = GST_FLOW_OK;
  gboolean decodable, top;
  GstMapInfo map;

  (void) pad;
  if (!self->decoder) {
    SvcCodec codec;

    if (!peek_keyframe_codec (buf, &codec)) {
      GST_LOG_OBJECT (self, "no caps and not a key frame: skipped");
      GST_OBJECT_LOCK (self);
      self->layers_undecodable++;
      GST_OBJECT_UNLOCK (self);
      maybe_request_keyframe (self, GST_BUFFER_PTS (buf));
      gst_buffer_unref (buf);
      return GST_FLOW_OK;
    }
    reset_description (self);
    if (!start_decoder (self, codec, 0)) {
      gst_buffer_unref (buf);
      return GST_FLOW_ERROR;
    }
  }
  describe_buffer (self, buf, &desc);
  learn_framerate (self, &desc);
  if (self->pending && desc.frame_id != self->desc.frame_id)
    ret = push_pending (self);
  if (ret != GST_FLOW_OK) {
    gst_buffer_unref (buf);
    return ret;
  }

  decodable = svc_decodability_add_layer (&self->decodability,
      desc.frame_id, desc.keyframe, desc.temporal_layer, desc.spatial_layer);
  if (decodable && gst_buffer_map (buf, &map, GST_MAP_READ)) {
    GError *error = NULL;
    const vpx_image_t *img = svc_vpx_decoder_decode (self->decoder,
        map.data, map.size, &error);
    gst_buffer_unmap (buf, &map);
    if (error) {
      /* refused, or libvpx rejected data we thought decodable: skip to the
       * next key frame */
      GST_WARNING_OBJECT (self, "frame %u layer %u: %s", desc.frame_id,
          desc.spatial_layer, error->message);
      if (g_error_matches (error, SVC_DECODER_ERROR,
              SVC_DECODER_ERROR_TOO_LARGE)) {
        GST_OBJECT_LOCK (self);
        self->layers_too_large++;
        GST_OBJECT_UNLOCK (self);
      }
      g_error_free (error);
      reset_stream (self);
    } else if (img) {
      svc_vpx_decoder_display_size (self->decoder, &self->display_width,
          &self->display_height);
      if (!self->pending) {
        self->pts = GST_BUFFER_PTS (buf);
        self->duration = GST_BUFFER_DURATION (buf);
      }
      self->pending = TRUE;
      self->picture = img;
      self->desc = desc;
      GST_OBJECT_LOCK (self);
      self->layers_decoded++;
      GST_OBJECT_UNLOCK (self);
    }
  } else {
    gboolean newest = desc.frame_id == self->decodability.newest_id;

    GST_OBJECT_LOCK (self);
    if (newest)
      self->layers_undecodable++;
    else
      self->layers_late++;
    GST_OBJECT_UNLOCK (self);
    if (newest && desc.spatial_layer == 0)
      maybe_request_keyframe (self, GST_BUFFER_PTS (buf));
  }
  top = is_top_layer (self, buf, &desc);
  gst_buffer_unref (buf);
  /* the first frame waits for the second when that tells the rate */
  if (top && !self->caps_sent && self->fps_n == 0 && self->rate_ref_valid)
    top = FALSE;
  if (top && self->pending && self->desc.frame_id == desc.frame_id)
    ret = push_pending (self);
  return ret;
}

static gboolean
gst_octopus_svc_dec_sink_event (GstPad *pad, GstObject *parent, GstEvent *event)
{
  GstOctopusSvcDec *self = GST_OCTOPUS_SVC_DEC (parent);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_CAPS:{
      GstCaps *caps;
      gboolean ok;

      gst_event_parse_caps (event, &caps);
      ok = set_sink_caps (self, caps);
      gst_event_unref (event);
      /* without width and height in the caps the first picture sets them */
      if (ok && self->out_width > 0 && self->out_height > 0)
        ok = ensure_src_caps (self);
      return ok;
    }
    case GST_EVENT_SEGMENT:
    case GST_EVENT_TAG:
      if (!self->caps_sent) {
        self->held_events = g_list_prepend (self->held_events, event);
        return TRUE;
      }
      break;
    case GST_EVENT_EOS:
      push_pending (self);
      break;
    case GST_EVENT_FLUSH_STOP:
      reset_stream (self);
      break;
    default:
      break;
  }
  return gst_pad_event_default (pad, parent, event);
}

static GstStructure *
make_stats (GstOctopusSvcDec *self)
{
  return gst_structure_new ("octopussvcdec-stats",
      "frames-shown", G_TYPE_UINT64, self->frames_shown,
      "layers-decoded", G_TYPE_UINT64, self->layers_decoded,
      "layers-undecodable", G_TYPE_UINT64, self->layers_undecodable,
      "layers-late", G_TYPE_UINT64, self->layers_late,
      "layers-too-large", G_TYPE_UINT64, self->layers_too_large,
      "keyframes-requested", G_TYPE_UINT64, self->keyframes_requested, NULL);
}

static GstStateChangeReturn
gst_octopus_svc_dec_change_state (GstElement *element,
    GstStateChange transition)
{
  GstOctopusSvcDec *self = GST_OCTOPUS_SVC_DEC (element);
  GstStateChangeReturn ret =
      GST_ELEMENT_CLASS (gst_octopus_svc_dec_parent_class)->change_state
      (element, transition);

  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) {
    g_clear_pointer (&self->decoder, svc_vpx_decoder_free);
    svc_scaler_clear (&self->scaler);
    self->pending = FALSE;
    self->picture = NULL;
    self->next_id = 0;
    self->last_keyframe_request = GST_CLOCK_TIME_NONE;
    g_list_free_full (self->held_events, (GDestroyNotify) gst_event_unref);
    self->held_events = NULL;
    reset_description (self);
  }
  return ret;
}

static void
gst_octopus_svc_dec_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusSvcDec *self = GST_OCTOPUS_SVC_DEC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_TEMPORAL_LAYERS:
      self->temporal_layers = g_value_get_uint (value);
      break;
    case PROP_THREADS:
      self->threads = g_value_get_uint (value);
      break;
    case PROP_MAX_FRAME_PIXELS:
      self->max_frame_pixels = g_value_get_uint64 (value);
      break;
    case PROP_REQUEST_KEYFRAME:
      self->request_keyframe = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_svc_dec_get_property (GObject *object, guint prop_id, GValue *value,
    GParamSpec *pspec)
{
  GstOctopusSvcDec *self = GST_OCTOPUS_SVC_DEC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_TEMPORAL_LAYERS:
      g_value_set_uint (value, self->temporal_layers);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, self->threads);
      break;
    case PROP_MAX_FRAME_PIXELS:
      g_value_set_uint64 (value, self->max_frame_pixels);
      break;
    case PROP_REQUEST_KEYFRAME:
      g_value_set_boolean (value, self->request_keyframe);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, make_stats (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_octopus_svc_dec_finalize (GObject *object)
{
  GstOctopusSvcDec *self = GST_OCTOPUS_SVC_DEC (object);

  svc_vpx_decoder_free (self->decoder);
  svc_scaler_clear (&self->scaler);
  g_list_free_full (self->held_events, (GDestroyNotify) gst_event_unref);
  G_OBJECT_CLASS (gst_octopus_svc_dec_parent_class)->finalize (object);
}

static void
gst_octopus_svc_dec_class_init (GstOctopusSvcDecClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  gobject_class->set_property = gst_octopus_svc_dec_set_property;
  gobject_class->get_property = gst_octopus_svc_dec_get_property;
  gobject_class->finalize = gst_octopus_svc_dec_finalize;

  g_object_class_install_property (gobject_class, PROP_TEMPORAL_LAYERS,
      g_param_spec_uint ("temporal-layers", "Temporal layers",
          "Temporal layers of the stream (pattern 0 / 0,1 / 0,2,1,2), "
          "needed to know each frame's reference; 0 = the caps' "
          "temporal-layers field, else learnt from the stream", 0, 3,
          DEFAULT_TEMPORAL_LAYERS,
          rw));
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads", "Decoder threads", 1, 16,
          DEFAULT_THREADS, rw));
  g_object_class_install_property (gobject_class, PROP_MAX_FRAME_PIXELS,
      g_param_spec_uint64 ("max-frame-pixels", "Max frame pixels",
          "Layers whose header declares a larger frame (width x height, "
          "coded or display size) are refused before libvpx allocates for "
          "them, counted as layers-too-large, and decoding waits for the "
          "next key frame (default 4096x2176: libvpx then allocates under "
          "64 MB at once); applies from the next stream start",
          1, G_MAXUINT64, SVC_DEFAULT_MAX_FRAME_PIXELS, rw));
  g_object_class_install_property (gobject_class, PROP_REQUEST_KEYFRAME,
      g_param_spec_boolean ("request-keyframe", "Request keyframe",
          "When layer 0 of a frame cannot be decoded (its reference was "
          "lost, or the stream started without a key frame), send an "
          "upstream force-key-unit event (a PLI through rtpbin, an ACK flag "
          "through octopussrc), at most "
          "once per 500 ms of stream time", DEFAULT_REQUEST_KEYFRAME, rw));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "frames-shown, layers-decoded, layers-undecodable (reference or "
          "lower layer missing), layers-late (of a frame older than the "
          "newest), layers-too-large (over max-frame-pixels), "
          "keyframes-requested",
          GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus SVC decoder", "Codec/Decoder/Video",
      "Decodes the highest decodable layer of each frame of octopussvcenc's "
      "VP8/VP9 streams and outputs full-size frames", GST_OCTOPUS_AUTHORS);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_octopus_svc_dec_change_state);

  GST_DEBUG_CATEGORY_INIT (gst_octopus_svc_dec_debug, "octopussvcdec", 0,
      "Octopus SVC decoder");
}

static void
gst_octopus_svc_dec_init (GstOctopusSvcDec *self)
{
  self->sinkpad = gst_pad_new_from_static_template (&sink_template, "sink");
  gst_pad_set_chain_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_svc_dec_chain));
  gst_pad_set_event_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_svc_dec_sink_event));
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);
  self->srcpad = gst_pad_new_from_static_template (&src_template, "src");
  gst_pad_use_fixed_caps (self->srcpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);

  self->temporal_layers = DEFAULT_TEMPORAL_LAYERS;
  self->threads = DEFAULT_THREADS;
  self->max_frame_pixels = SVC_DEFAULT_MAX_FRAME_PIXELS;
  self->request_keyframe = DEFAULT_REQUEST_KEYFRAME;
  self->last_keyframe_request = GST_CLOCK_TIME_NONE;
  reset_description (self);
}
