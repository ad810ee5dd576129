/* rtpvp9svcpay: payloads octopussvcenc's VP9 output in RFC 9628 flexible mode.
 *
 * Input: one buffer per spatial layer frame, in increasing spatial order,
 * each with GstOctopusMeta (frame id, spatial and temporal layer, key
 * frame), GST_BUFFER_FLAG_MARKER on the last layer of a frame; caps
 * video/x-vp9 with spatial-layers.  Output: per layer frame, RTP packets
 * with the payload descriptor (picture id, layer indices, B/E per layer
 * frame, P_DIFF references from rtpvp9descriptor.h, the scalability
 * structure on a key picture's first packet) and the RTP marker on the last
 * packet of the picture.  1.22's rtpvp9pay is non-flexible and single-layer.
 * Each layer frame is one Octopus message: rtphdrextoctopus ends it at E. */
#include "gstrtpvp9svcpay.h"

#include "gst/octopus/gstoctopusmeta.h"
#include "rtpvp9descriptor.h"

GST_DEBUG_CATEGORY_STATIC (gst_rtp_vp9_svc_pay_debug);
#define GST_CAT_DEFAULT gst_rtp_vp9_svc_pay_debug

#define DEFAULT_PICTURE_ID_OFFSET -1
#define DEFAULT_MARKER_PER_LAYER_FRAME FALSE

enum {
  PROP_0,
  PROP_PICTURE_ID_OFFSET,
  PROP_MARKER_PER_LAYER_FRAME,
};

struct _GstRtpVp9SvcPay {
  GstRTPBasePayload parent;

  gint picture_id_offset;
  gboolean marker_per_layer_frame;
  guint spatial_layers;
  RtpVp9Pictures pictures;
};

#define gst_rtp_vp9_svc_pay_parent_class parent_class
G_DEFINE_TYPE (GstRtpVp9SvcPay, gst_rtp_vp9_svc_pay,
    GST_TYPE_RTP_BASE_PAYLOAD);
GST_ELEMENT_REGISTER_DEFINE (rtpvp9svcpay, "rtpvp9svcpay", GST_RANK_NONE,
    GST_TYPE_RTP_VP9_SVC_PAY);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS ("video/x-vp9"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("application/x-rtp, media=(string)video, "
        "payload=(int)[ 96, 127 ], clock-rate=(int)90000, "
        "encoding-name=(string){ \"VP9\", \"VP9-DRAFT-IETF-01\" }"));

static void
reset_pictures (GstRtpVp9SvcPay *self)
{
  guint16 first = self->picture_id_offset >= 0 ?
      (guint16) self->picture_id_offset :
      (guint16) g_random_int_range (0, RTP_VP9_PICTURE_ID_MASK + 1);
  rtp_vp9_pictures_init (&self->pictures, first);
}

static gboolean
gst_rtp_vp9_svc_pay_set_caps (GstRTPBasePayload *payload, GstCaps *caps)
{
  GstRtpVp9SvcPay *self = GST_RTP_VP9_SVC_PAY (payload);
  const GstStructure *s = gst_caps_get_structure (caps, 0);
  gint layers = 1;

  gst_structure_get_int (s, "spatial-layers", &layers);
  if (layers < 1 || layers > RTP_VP9_MAX_SPATIAL_LAYERS) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Unsupported VP9 caps"),
        ("spatial-layers=%d, expected 1..%d", layers,
            RTP_VP9_MAX_SPATIAL_LAYERS));
    return FALSE;
  }
  self->spatial_layers = (guint) layers;
  gst_rtp_base_payload_set_options (payload, "video", TRUE, "VP9", 90000);
  return gst_rtp_base_payload_set_outcaps (payload, NULL);
}

static GstFlowReturn
gst_rtp_vp9_svc_pay_handle_buffer (GstRTPBasePayload *payload,
    GstBuffer *buffer)
{
  GstRtpVp9SvcPay *self = GST_RTP_VP9_SVC_PAY (payload);
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (buffer);
  RtpVp9Descriptor d = { .flexible = TRUE, .has_layers = TRUE };
  gboolean keyframe = !GST_BUFFER_FLAG_IS_SET (buffer,
      GST_BUFFER_FLAG_DELTA_UNIT);
  gboolean marker = GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_MARKER);
  /* without a meta every buffer is a picture of its own */
  guint32 frame_id = self->pictures.frame_id + 1;
  gsize size = gst_buffer_get_size (buffer), offset = 0;
  GstBufferList *list;

  if (m) {
    frame_id = m->frame_id;
    keyframe = m->keyframe;
    if (m->spatial_layer != GST_OCTOPUS_LAYER_NONE)
      d.sid = m->spatial_layer;
    if (m->temporal_layer != GST_OCTOPUS_LAYER_NONE)
      d.tid = m->temporal_layer;
  } else {
    marker = TRUE;              /* a single layer: every buffer a picture */
  }
  GST_OBJECT_LOCK (self);
  marker |= self->marker_per_layer_frame;
  GST_OBJECT_UNLOCK (self);
  if (d.sid >= self->spatial_layers || d.tid > 7) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("Invalid VP9 layer ids"),
        ("spatial layer %u of %u, temporal layer %u (at most 7)", d.sid,
            self->spatial_layers, d.tid));
    gst_buffer_unref (buffer);
    return GST_FLOW_ERROR;
  }
  rtp_vp9_pictures_next (&self->pictures, frame_id, d.sid, d.tid, keyframe,
      &d);
  d.inter_layer = d.sid > 0;
  d.not_reference = d.sid + 1u == self->spatial_layers;

  list = gst_buffer_list_new ();
  do {
    GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
    d.start = offset == 0;
    d.has_ss = d.start && keyframe && d.sid == 0;
    d.ss_spatial_layers = (guint8) self->spatial_layers;
    gsize desc_len = rtp_vp9_descriptor_size (&d);
    guint room = gst_rtp_buffer_calc_payload_len (
        GST_RTP_BASE_PAYLOAD_MTU (payload), 0, 0);
    if (room <= desc_len) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT, ("MTU too small"),
          ("mtu %u leaves no payload after the %" G_GSIZE_FORMAT
              "-byte descriptor", GST_RTP_BASE_PAYLOAD_MTU (payload),
              desc_len));
      gst_buffer_list_unref (list);
      gst_buffer_unref (buffer);
      return GST_FLOW_ERROR;
    }
    gsize chunk = MIN (size - offset, room - desc_len);
    d.end = offset + chunk == size;
    GstBuffer *out = gst_rtp_base_payload_allocate_output_buffer (payload,
        (guint) (desc_len + chunk), 0, 0);
    gst_rtp_buffer_map (out, GST_MAP_WRITE, &rtp);
    guint8 *p = gst_rtp_buffer_get_payload (&rtp);
    rtp_vp9_descriptor_write (&d, p, desc_len);
    gst_buffer_extract (buffer, offset, p + desc_len, chunk);
    gst_rtp_buffer_set_marker (&rtp, d.end && marker);
    gst_rtp_buffer_unmap (&rtp);
    GST_BUFFER_PTS (out) = GST_BUFFER_PTS (buffer);
    gst_buffer_list_add (list, out);
    offset += chunk;
  } while (offset < size);
  GST_LOG_OBJECT (self, "picture %u layer %u/%u: %u packets", d.picture_id,
      d.sid, d.tid, gst_buffer_list_length (list));
  gst_buffer_unref (buffer);
  return gst_rtp_base_payload_push_list (payload, list);
}

static GstStateChangeReturn
gst_rtp_vp9_svc_pay_change_state (GstElement *element,
    GstStateChange transition)
{
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED)
    reset_pictures (GST_RTP_VP9_SVC_PAY (element));
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

static void
gst_rtp_vp9_svc_pay_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstRtpVp9SvcPay *self = GST_RTP_VP9_SVC_PAY (object);

  switch (prop_id) {
    case PROP_PICTURE_ID_OFFSET:
      self->picture_id_offset = g_value_get_int (value);
      break;
    case PROP_MARKER_PER_LAYER_FRAME:
      GST_OBJECT_LOCK (self);
      self->marker_per_layer_frame = g_value_get_boolean (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_rtp_vp9_svc_pay_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstRtpVp9SvcPay *self = GST_RTP_VP9_SVC_PAY (object);

  switch (prop_id) {
    case PROP_PICTURE_ID_OFFSET:
      g_value_set_int (value, self->picture_id_offset);
      break;
    case PROP_MARKER_PER_LAYER_FRAME:
      GST_OBJECT_LOCK (self);
      g_value_set_boolean (value, self->marker_per_layer_frame);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_rtp_vp9_svc_pay_class_init (GstRtpVp9SvcPayClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstRTPBasePayloadClass *pay_class = GST_RTP_BASE_PAYLOAD_CLASS (klass);

  gobject_class->set_property = gst_rtp_vp9_svc_pay_set_property;
  gobject_class->get_property = gst_rtp_vp9_svc_pay_get_property;
  g_object_class_install_property (gobject_class, PROP_PICTURE_ID_OFFSET,
      g_param_spec_int ("picture-id-offset", "Picture ID offset",
          "The first picture id (15 bits); -1 = random (RFC 9628)",
          -1, RTP_VP9_PICTURE_ID_MASK, DEFAULT_PICTURE_ID_OFFSET,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_MARKER_PER_LAYER_FRAME,
      g_param_spec_boolean ("marker-per-layer-frame", "Marker per layer frame",
          "Set the RTP marker at the end of every spatial layer frame, not "
          "only of the picture (RFC 9628): a GStreamer receiver sends "
          "transport-cc feedback per marker, so it keeps reporting when a "
          "queue drops the upper layers; rtpvp9svcdepay then tells the "
          "picture's end by the layer count", DEFAULT_MARKER_PER_LAYER_FRAME,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  element_class->change_state = gst_rtp_vp9_svc_pay_change_state;
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "RTP VP9 SVC payloader (flexible mode)", "Codec/Payloader/Network/RTP",
      "Payloads VP9 spatial/temporal layer frames in RTP packets, RFC 9628 "
      "flexible mode, one RTP frame per spatial layer", GST_OCTOPUS_AUTHORS);
  pay_class->set_caps = gst_rtp_vp9_svc_pay_set_caps;
  pay_class->handle_buffer = gst_rtp_vp9_svc_pay_handle_buffer;
  GST_DEBUG_CATEGORY_INIT (gst_rtp_vp9_svc_pay_debug, "rtpvp9svcpay", 0,
      "RTP VP9 SVC payloader");
}

static void
gst_rtp_vp9_svc_pay_init (GstRtpVp9SvcPay *self)
{
  self->picture_id_offset = DEFAULT_PICTURE_ID_OFFSET;
  self->marker_per_layer_frame = DEFAULT_MARKER_PER_LAYER_FRAME;
  self->spatial_layers = 1;
}
