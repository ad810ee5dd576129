/* rtpvp9svcdepay: reassembles RFC 9628 VP9 RTP (flexible or not) into one
 * buffer per spatial layer frame — unlike 1.22's rtpvp9depay, which merges
 * a picture's layers — so that a picture whose upper layers a queue dropped
 * still yields its lower ones.  Each buffer carries GstOctopusMeta (frame
 * id = the unwrapped picture id, spatial and temporal layer, key frame),
 * GST_BUFFER_FLAG_DELTA_UNIT unless it belongs to a key picture, and
 * GST_BUFFER_FLAG_MARKER if the RTP marker ended it and, once the
 * scalability structure gave the layer count, it is the top spatial layer
 * (rtpvp9svcpay marker-per-layer-frame=true marks every layer frame).  The
 * source caps carry spatial-layers from that structure.  A layer frame with
 * a packet missing is discarded whole (counted in stats). */
#include "gstrtpvp9svcdepay.h"

#include "gst/octopus/gstoctopusmeta.h"
#include "rtpvp9descriptor.h"

#include <string.h>

GST_DEBUG_CATEGORY_STATIC (gst_rtp_vp9_svc_depay_debug);
#define GST_CAT_DEFAULT gst_rtp_vp9_svc_depay_debug

enum {
  PROP_0,
  PROP_STATS,
};

struct _GstRtpVp9SvcDepay {
  GstRTPBaseDepayload parent;

  GByteArray *frame;            /* the layer frame being reassembled */
  gboolean in_frame;
  RtpVp9Descriptor first;       /* its first packet's descriptor */
  guint16 next_seq;
  RtpVp9Unwrap unwrap;
  guint32 frame_id;             /* unwrapped picture id */
  gboolean have_key;
  guint32 key_frame_id;
  guint spatial_layers;         /* from the scalability structure; 0 unknown */
  guint64 layer_frames, incomplete, bad_packets;
};

#define gst_rtp_vp9_svc_depay_parent_class parent_class
G_DEFINE_TYPE (GstRtpVp9SvcDepay, gst_rtp_vp9_svc_depay,
    GST_TYPE_RTP_BASE_DEPAYLOAD);
GST_ELEMENT_REGISTER_DEFINE (rtpvp9svcdepay, "rtpvp9svcdepay", GST_RANK_NONE,
    GST_TYPE_RTP_VP9_SVC_DEPAY);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("application/x-rtp, media=(string)video, "
        "clock-rate=(int)90000, "
        "encoding-name=(string){ \"VP9\", \"VP9-DRAFT-IETF-01\" }"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS ("video/x-vp9"));

static gboolean
gst_rtp_vp9_svc_depay_set_caps (GstRTPBaseDepayload *depay, GstCaps *caps)
{
  GstCaps *src = gst_caps_new_empty_simple ("video/x-vp9");
  gboolean ok = gst_pad_set_caps (GST_RTP_BASE_DEPAYLOAD_SRCPAD (depay), src);

  (void) caps;
  gst_caps_unref (src);
  return ok;
}

static GstBuffer *
finish_layer_frame (GstRtpVp9SvcDepay *self, gboolean marker)
{
  const RtpVp9Descriptor *d = &self->first;
  GstBuffer *out;
  GstOctopusMeta *m;
  gboolean keyframe;

  self->frame_id = rtp_vp9_unwrap (&self->unwrap, d->picture_id);
  if (!d->inter && d->sid == 0) {
    self->have_key = TRUE;
    self->key_frame_id = self->frame_id;
  }
  /* not inter-picture predicted: a key picture, or a layer above 0 of a
   * spatial sync picture (it references only the layers below) */
  keyframe = !d->inter && self->have_key &&
      (d->sid > 0 || self->key_frame_id == self->frame_id);
  out = gst_buffer_new_memdup (self->frame->data, self->frame->len);
  m = gst_buffer_add_octopus_meta (out);
  m->frame_id = self->frame_id;
  m->spatial_layer = d->sid;
  m->temporal_layer = d->tid;
  m->keyframe = keyframe;
  if (!keyframe)
    GST_BUFFER_FLAG_SET (out, GST_BUFFER_FLAG_DELTA_UNIT);
  if (marker && (self->spatial_layers == 0 ||
          (guint) d->sid + 1 >= self->spatial_layers))
    GST_BUFFER_FLAG_SET (out, GST_BUFFER_FLAG_MARKER);
  self->layer_frames++;
  self->in_frame = FALSE;
  return out;
}

static void
abandon (GstRtpVp9SvcDepay *self, const gchar *why)
{
  if (self->in_frame) {
    GST_DEBUG_OBJECT (self, "dropping incomplete layer frame: %s", why);
    self->incomplete++;
  }
  self->in_frame = FALSE;
}

static GstBuffer *
gst_rtp_vp9_svc_depay_process (GstRTPBaseDepayload *depay, GstRTPBuffer *rtp)
{
  GstRtpVp9SvcDepay *self = GST_RTP_VP9_SVC_DEPAY (depay);
  const guint8 *payload = gst_rtp_buffer_get_payload (rtp);
  gsize len = gst_rtp_buffer_get_payload_len (rtp);
  guint16 seq = gst_rtp_buffer_get_seq (rtp);
  RtpVp9Descriptor d;
  gsize desc_len = rtp_vp9_descriptor_parse (payload, len, &d);

  if (desc_len == 0) {
    GST_WARNING_OBJECT (self, "packet %u: malformed VP9 payload descriptor "
        "(%" G_GSIZE_FORMAT " bytes)", seq, len);
    self->bad_packets++;
    abandon (self, "malformed packet");
    return NULL;
  }
  if (d.start && d.has_ss && d.ss_spatial_layers != self->spatial_layers) {
    /* octopussvcdec needs the layer count to know a picture's top layer when
     * the upper layers (and the RTP marker with them) were dropped. */
    GstCaps *caps = gst_caps_new_simple ("video/x-vp9", "spatial-layers",
        G_TYPE_INT, (gint) d.ss_spatial_layers, NULL);
    self->spatial_layers = d.ss_spatial_layers;
    gst_pad_set_caps (GST_RTP_BASE_DEPAYLOAD_SRCPAD (depay), caps);
    gst_caps_unref (caps);
  }
  if (d.start) {
    abandon (self, "a new one started");
    self->first = d;
    self->in_frame = TRUE;
    g_byte_array_set_size (self->frame, 0);
  } else if (!self->in_frame) {
    return NULL;                /* its start was lost */
  } else if (seq != self->next_seq || d.sid != self->first.sid ||
      d.picture_id != self->first.picture_id) {
    abandon (self, "packet missing");
    return NULL;
  }
  g_byte_array_append (self->frame, payload + desc_len,
      (guint) (len - desc_len));
  self->next_seq = seq + 1;
  if (!d.end)
    return NULL;
  return finish_layer_frame (self, gst_rtp_buffer_get_marker (rtp));
}

static GstStateChangeReturn
gst_rtp_vp9_svc_depay_change_state (GstElement *element,
    GstStateChange transition)
{
  GstRtpVp9SvcDepay *self = GST_RTP_VP9_SVC_DEPAY (element);

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    self->in_frame = self->have_key = FALSE;
    memset (&self->unwrap, 0, sizeof (self->unwrap));
    self->spatial_layers = 0;
    self->layer_frames = self->incomplete = self->bad_packets = 0;
  }
  return GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
}

static void
gst_rtp_vp9_svc_depay_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstRtpVp9SvcDepay *self = GST_RTP_VP9_SVC_DEPAY (object);

  switch (prop_id) {
    case PROP_STATS:
      g_value_take_boxed (value, gst_structure_new (
              "application/x-rtp-vp9-svc-depay-stats",
              "layer-frames", G_TYPE_UINT64, self->layer_frames,
              "incomplete-layer-frames", G_TYPE_UINT64, self->incomplete,
              "malformed-packets", G_TYPE_UINT64, self->bad_packets, NULL));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_rtp_vp9_svc_depay_finalize (GObject *object)
{
  g_byte_array_unref (GST_RTP_VP9_SVC_DEPAY (object)->frame);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
gst_rtp_vp9_svc_depay_class_init (GstRtpVp9SvcDepayClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstRTPBaseDepayloadClass *depay_class =
      GST_RTP_BASE_DEPAYLOAD_CLASS (klass);

  gobject_class->get_property = gst_rtp_vp9_svc_depay_get_property;
  gobject_class->finalize = gst_rtp_vp9_svc_depay_finalize;
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Layer frames output, layer frames discarded for a missing packet, "
          "packets with a malformed descriptor", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  element_class->change_state = gst_rtp_vp9_svc_depay_change_state;
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "RTP VP9 SVC depayloader", "Codec/Depayloader/Network/RTP",
      "Extracts VP9 layer frames from RTP packets (RFC 9628), one buffer per "
      "spatial layer frame with its layer ids", GST_OCTOPUS_AUTHORS);
  depay_class->set_caps = gst_rtp_vp9_svc_depay_set_caps;
  depay_class->process_rtp_packet = gst_rtp_vp9_svc_depay_process;
  GST_DEBUG_CATEGORY_INIT (gst_rtp_vp9_svc_depay_debug, "rtpvp9svcdepay", 0,
      "RTP VP9 SVC depayloader");
}

static void
gst_rtp_vp9_svc_depay_init (GstRtpVp9SvcDepay *self)
{
  self->frame = g_byte_array_new ();
}
