/* octopusrtpgapclose: closes the RTP sequence gaps of whole messages an
 * Octopus queue dropped on purpose (core/rtp/octo-rtp-gaps.h), in front of a
 * receiver's rtpjitterbuffer.
 *
 * Why: rtpjitterbuffer holds every packet behind a sequence gap until the
 * missing packets' expected time plus its latency, and after a delay spike
 * that expected time runs up to a second ahead of arrival (its clock-skew
 * estimate is updated only on gap-free packets); with messages dropped on
 * purpose every frame has a gap, so a call measured 0.5-1.4 s of such holds
 * (docs/design.md §5, "Receiver settings").  Gaps of whole messages are
 * closed by renumbering; a packet lost inside a message, or next to a packet
 * without the Octopus header, still leaves its gap.
 *
 * The pads are named rtp_sink / rtp_src so that rtpbin (and webrtcbin's
 * rtpbin) can take the element as its RTP decoder from the
 * "request-rtp-decoder" signal: it then sits in front of the session, after
 * SRTP decryption.  Packets are read as RTP (SRTP's header is RTP's).
 * The extension id comes from "ext-id", or is learnt from the traffic as
 * octopus-shim learns it.  Up to MAX_SSRCS streams are tracked; the least
 * recently seen is forgotten for a new one. */
#include "gstoctopusrtpgapclose.h"

#include "octo-rtp-gaps.h"
#include "octo-rtpext.h"

GST_DEBUG_CATEGORY_STATIC (gst_octopus_rtp_gap_close_debug);
#define GST_CAT_DEFAULT gst_octopus_rtp_gap_close_debug

#define MAX_SSRCS 8
#define DEFAULT_EXT_ID 0

enum {
  PROP_0,
  PROP_EXT_ID,
  PROP_STATS,
};

typedef struct {
  gboolean used;
  guint32 ssrc;
  guint64 last_use;
  OctoRtpGapCloser closer;
} SsrcCloser;

struct _GstOctopusRtpGapClose {
  GstElement parent;

  GstPad *sinkpad, *srcpad;
  /* under the object lock */
  guint8 ext_id;                /* 0: learnt */
  OctoRtpextLearner learner;
  SsrcCloser ssrcs[MAX_SSRCS];
  guint64 uses;
  guint64 packets, packets_renumbered, not_rtp;
};

G_DEFINE_TYPE (GstOctopusRtpGapClose, gst_octopus_rtp_gap_close,
    GST_TYPE_ELEMENT);
GST_ELEMENT_REGISTER_DEFINE (octopusrtpgapclose, "octopusrtpgapclose",
    GST_RANK_NONE, GST_TYPE_OCTOPUS_RTP_GAP_CLOSE);

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE
    ("rtp_sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("application/x-rtp; application/x-srtp"));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE
    ("rtp_src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("application/x-rtp; application/x-srtp"));

/* Called with the object lock: the stream's closer, a new one replacing
 * the least recently seen when all are taken. */
static OctoRtpGapCloser *
closer_for (GstOctopusRtpGapClose *self, guint32 ssrc)
{
  SsrcCloser *oldest = &self->ssrcs[0];

  for (guint i = 0; i < MAX_SSRCS; i++) {
    SsrcCloser *s = &self->ssrcs[i];
    if (s->used && s->ssrc == ssrc) {
      s->last_use = ++self->uses;
      return &s->closer;
    }
    if (!s->used || (oldest->used && s->last_use < oldest->last_use))
      oldest = s;
  }
  oldest->used = TRUE;
  oldest->ssrc = ssrc;
  oldest->last_use = ++self->uses;
  octo_rtp_gap_closer_init (&oldest->closer);
  return &oldest->closer;
}

static GstFlowReturn
gst_octopus_rtp_gap_close_chain (GstPad *pad, GstObject *parent,
    GstBuffer *buf)
{
  GstOctopusRtpGapClose *self = GST_OCTOPUS_RTP_GAP_CLOSE (parent);
  OctoRtpPacket rtp;
  OctoHeader header;
  gboolean tagged = FALSE;
  guint16 out_seq = 0;
  gboolean renumber = FALSE;
  GstMapInfo map;
  guint8 id;

  (void) pad;
  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return gst_pad_push (self->srcpad, buf);
  GST_OBJECT_LOCK (self);
  self->packets++;
  if (octo_rtp_parse (map.data, map.size, &rtp) != OCTO_RTP_PARSE_OK) {
    self->not_rtp++;
  } else {
    id = self->ext_id != 0 ? self->ext_id :
        octo_rtpext_learner_feed (&self->learner, &rtp);
    tagged = id != OCTO_RTPEXT_ID_NONE
        && octo_rtp_get_header (&rtp, id, &header) == OCTO_PARSE_OK;
    out_seq = octo_rtp_gap_closer_map (closer_for (self, rtp.ssrc), rtp.seq,
        tagged ? &header : NULL);
    renumber = out_seq != rtp.seq;
    if (renumber)
      self->packets_renumbered++;
  }
  GST_OBJECT_UNLOCK (self);
  gst_buffer_unmap (buf, &map);

  if (renumber) {
    guint8 bytes[2] = { out_seq >> 8, out_seq & 0xff };
    buf = gst_buffer_make_writable (buf);
    /* RTP's sequence number: bytes 2-3 of the fixed header */
    gst_buffer_fill (buf, 2, bytes, sizeof bytes);
  }
  return gst_pad_push (self->srcpad, buf);
}

static GstStructure *
get_stats (GstOctopusRtpGapClose *self)
{
  guint64 closed = 0, kept = 0;
  GstStructure *s;

  GST_OBJECT_LOCK (self);
  for (guint i = 0; i < MAX_SSRCS; i++)
    if (self->ssrcs[i].used) {
      closed += self->ssrcs[i].closer.gaps_closed;
      kept += self->ssrcs[i].closer.gaps_kept;
    }
  s = gst_structure_new ("application/x-octopus-rtp-gap-close-stats",
      "packets", G_TYPE_UINT64, self->packets,
      "packets-renumbered", G_TYPE_UINT64, self->packets_renumbered,
      "gaps-closed", G_TYPE_UINT64, closed,
      "gaps-kept", G_TYPE_UINT64, kept,
      "not-rtp", G_TYPE_UINT64, self->not_rtp,
      "ext-id", G_TYPE_UINT, (guint) (self->ext_id != 0 ? self->ext_id :
          self->learner.id), NULL);
  GST_OBJECT_UNLOCK (self);
  return s;
}

static void
gst_octopus_rtp_gap_close_set_property (GObject *object, guint prop_id,
    const GValue *value, GParamSpec *pspec)
{
  GstOctopusRtpGapClose *self = GST_OCTOPUS_RTP_GAP_CLOSE (object);

  switch (prop_id) {
    case PROP_EXT_ID:
      GST_OBJECT_LOCK (self);
      self->ext_id = (guint8) g_value_get_uint (value);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_octopus_rtp_gap_close_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstOctopusRtpGapClose *self = GST_OCTOPUS_RTP_GAP_CLOSE (object);

  switch (prop_id) {
    case PROP_EXT_ID:
      GST_OBJECT_LOCK (self);
      g_value_set_uint (value, self->ext_id);
      GST_OBJECT_UNLOCK (self);
      break;
    case PROP_STATS:
      g_value_take_boxed (value, get_stats (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static GstStateChangeReturn
gst_octopus_rtp_gap_close_change_state (GstElement *element,
    GstStateChange transition)
{
  GstOctopusRtpGapClose *self = GST_OCTOPUS_RTP_GAP_CLOSE (element);

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    GST_OBJECT_LOCK (self);
    memset (self->ssrcs, 0, sizeof self->ssrcs);
    octo_rtpext_learner_init (&self->learner);
    self->packets = self->packets_renumbered = self->not_rtp = 0;
    GST_OBJECT_UNLOCK (self);
  }
  return GST_ELEMENT_CLASS (gst_octopus_rtp_gap_close_parent_class)->
      change_state (element, transition);
}

static void
gst_octopus_rtp_gap_close_class_init (GstOctopusRtpGapCloseClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gobject_class->set_property = gst_octopus_rtp_gap_close_set_property;
  gobject_class->get_property = gst_octopus_rtp_gap_close_get_property;
  element_class->change_state = gst_octopus_rtp_gap_close_change_state;

  g_object_class_install_property (gobject_class, PROP_EXT_ID,
      g_param_spec_uint ("ext-id", "Extension id",
          "RTP header extension id of the Octopus header (1-255; 0: learnt "
          "from the traffic)", 0, 255, DEFAULT_EXT_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "packets, packets-renumbered, gaps-closed (whole dropped "
          "messages), gaps-kept (other losses), not-rtp, ext-id",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "Octopus RTP gap closer", "Filter/Network/RTP",
      "Renumbers RTP so a jitterbuffer does not wait for whole messages an "
      "Octopus queue dropped", GST_OCTOPUS_AUTHORS);
  GST_DEBUG_CATEGORY_INIT (gst_octopus_rtp_gap_close_debug,
      "octopusrtpgapclose", 0, "Octopus RTP gap closer");
}

static void
gst_octopus_rtp_gap_close_init (GstOctopusRtpGapClose *self)
{
  self->sinkpad = gst_pad_new_from_static_template (&sink_template,
      "rtp_sink");
  gst_pad_set_chain_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_octopus_rtp_gap_close_chain));
  GST_PAD_SET_PROXY_CAPS (self->sinkpad);
  GST_PAD_SET_PROXY_ALLOCATION (self->sinkpad);
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);
  self->srcpad = gst_pad_new_from_static_template (&src_template, "rtp_src");
  GST_PAD_SET_PROXY_CAPS (self->srcpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);
  self->ext_id = DEFAULT_EXT_ID;
  octo_rtpext_learner_init (&self->learner);
}
