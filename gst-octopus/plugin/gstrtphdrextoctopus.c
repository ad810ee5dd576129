/* rtphdrextoctopus: carries GstOctopusMeta's dropping parameters in every
 * RTP packet of a message, so queues on a WebRTC path (octopus-shim) can
 * apply the Octopus rules to RTP and SRTP.
 *
 * Sender: write() reads the input buffer's GstOctopusMeta and writes the
 * 12-byte Octopus header (one-byte form) with the core's octo_header_pack;
 * the message's first packet and its last (the RTP marker; for VP9 the
 * payload descriptor's E bit, one message per layer frame) are flagged and
 * msg_id counts messages per payloader, i.e. per SSRC.  Receiver: read()
 * parses it with octo_header_parse and restores the meta on the depayloaded
 * buffer.  Payloaders and depayloaders pick it up from "extmap-N" caps,
 * webrtcbin from a transceiver's codec preferences.  docs/wire-format.md has
 * the layout. */
#include "gstrtphdrextoctopus.h"

#include "gst/octopus/gstoctopusmeta.h"
#include "octo-rtpext.h"
#include "rtpvp9descriptor.h"

GST_DEBUG_CATEGORY_STATIC (gst_rtp_header_extension_octopus_debug);
#define GST_CAT_DEFAULT gst_rtp_header_extension_octopus_debug

enum {
  PROP_0,
  PROP_STATS,
};

struct _GstRTPHeaderExtensionOctopus {
  GstRTPHeaderExtension parent;

  OctoRtpextWriter writer;      /* under the object lock */
  gboolean vp9;                 /* messages end at the descriptor's E bit */
  guint64 packets_written, messages_written, packets_skipped;
  guint64 packets_read, packets_rejected;
};

#define gst_rtp_header_extension_octopus_parent_class parent_class
G_DEFINE_TYPE (GstRTPHeaderExtensionOctopus, gst_rtp_header_extension_octopus,
    GST_TYPE_RTP_HEADER_EXTENSION);
GST_ELEMENT_REGISTER_DEFINE (rtphdrextoctopus, "rtphdrextoctopus",
    GST_RANK_MARGINAL, GST_TYPE_RTP_HEADER_EXTENSION_OCTOPUS);

static GstRTPHeaderExtensionFlags
gst_rtp_header_extension_octopus_get_supported_flags (GstRTPHeaderExtension *
    ext)
{
  (void) ext;
  return GST_RTP_HEADER_EXTENSION_ONE_BYTE | GST_RTP_HEADER_EXTENSION_TWO_BYTE;
}

static gsize
gst_rtp_header_extension_octopus_get_max_size (GstRTPHeaderExtension *ext,
    const GstBuffer *input_meta)
{
  (void) ext;
  (void) input_meta;
  return OCTO_RTPEXT_LEN;
}

/* What tells two messages apart when a payloader never marked an end: the
 * input's time and the meta's description of it. */
static guint64
message_identity (const GstBuffer *input, const GstOctopusMeta *m)
{
  guint64 h = GST_BUFFER_PTS (input) * 0x9e3779b97f4a7c15ull;
  h ^= (guint64) m->frame_id << 32 | (guint64) m->spatial_layer << 24 |
      (guint64) m->temporal_layer << 16 | (guint64) m->cell_id << 8 |
      m->density_layer;
  return h;
}

static gboolean
gst_rtp_header_extension_octopus_set_non_rtp_sink_caps (
    GstRTPHeaderExtension *ext, const GstCaps *caps)
{
  GstRTPHeaderExtensionOctopus *self = GST_RTP_HEADER_EXTENSION_OCTOPUS (ext);

  GST_OBJECT_LOCK (self);
  self->vp9 = gst_structure_has_name (gst_caps_get_structure (caps, 0),
      "video/x-vp9");
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

/* The last packet of a message: the marker ends a frame; in VP9 (RFC 9628)
 * a layer frame, our message, ends at the E bit. */
static gboolean
ends_message (GstRTPHeaderExtensionOctopus *self, GstRTPBuffer *rtp)
{
  RtpVp9Descriptor d;

  if (gst_rtp_buffer_get_marker (rtp))
    return TRUE;
  return self->vp9 && rtp_vp9_descriptor_parse (gst_rtp_buffer_get_payload
      (rtp), gst_rtp_buffer_get_payload_len (rtp), &d) > 0 && d.end;
}

static gssize
gst_rtp_header_extension_octopus_write (GstRTPHeaderExtension *ext,
    const GstBuffer *input_meta, GstRTPHeaderExtensionFlags write_flags,
    GstBuffer *output, guint8 *data, gsize size)
{
  GstRTPHeaderExtensionOctopus *self = GST_RTP_HEADER_EXTENSION_OCTOPUS (ext);
  GstOctopusMeta *m =
      gst_buffer_get_octopus_meta ((GstBuffer *) input_meta);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  OctoHeader header;
  gboolean last;

  (void) write_flags;
  g_return_val_if_fail (size >= OCTO_RTPEXT_LEN, -1);
  if (m == NULL) {
    /* Untagged media is plain traffic for the queues. */
    GST_OBJECT_LOCK (self);
    self->packets_skipped++;
    GST_OBJECT_UNLOCK (self);
    return 0;
  }
  if (!gst_rtp_buffer_map (output, GST_MAP_READ, &rtp))
    return -1;
  last = ends_message (self, &rtp);
  gst_rtp_buffer_unmap (&rtp);

  gst_octopus_meta_to_core (m, &header, NULL);
  GST_OBJECT_LOCK (self);
  octo_rtpext_writer_next (&self->writer, message_identity (input_meta, m),
      last, &header);
  self->packets_written++;
  self->messages_written += header.first;
  GST_OBJECT_UNLOCK (self);

  if (!octo_header_pack (&header, data)) {
    GST_ELEMENT_ERROR (self, STREAM, FAILED,
        ("Invalid Octopus parameters on the input buffer"),
        ("priority %u, threshold %u (both 0..7), slack %u ms (0..%u)",
            header.priority, header.priority_threshold, header.slack_ms,
            OCTO_SLACK_MS_MAX));
    return -1;
  }
  GST_LOG_OBJECT (self, "msg %u first %d last %d prio %u", header.msg_id,
      header.first, header.last, header.priority);
  return OCTO_RTPEXT_LEN;
}

static gboolean
gst_rtp_header_extension_octopus_read (GstRTPHeaderExtension *ext,
    GstRTPHeaderExtensionFlags read_flags, const guint8 *data, gsize size,
    GstBuffer *buffer)
{
  GstRTPHeaderExtensionOctopus *self = GST_RTP_HEADER_EXTENSION_OCTOPUS (ext);
  OctoHeader h;
  OctoParseResult r = octo_header_parse (data, size, &h);
  GstOctopusMeta *m;

  (void) read_flags;
  GST_OBJECT_LOCK (self);
  if (r == OCTO_PARSE_OK)
    self->packets_read++;
  else
    self->packets_rejected++;
  GST_OBJECT_UNLOCK (self);
  if (r != OCTO_PARSE_OK) {
    GST_WARNING_OBJECT (self, "ignoring extension data of %" G_GSIZE_FORMAT
        " bytes: %s", size, octo_parse_result_to_string (r));
    return FALSE;
  }
  m = gst_buffer_get_octopus_meta (buffer);
  if (m == NULL)
    m = gst_buffer_add_octopus_meta (buffer);
  gst_octopus_meta_from_core (m, &h, NULL);
  return TRUE;
}

static GstStructure *
gst_rtp_header_extension_octopus_stats (GstRTPHeaderExtensionOctopus *self)
{
  GstStructure *s;

  GST_OBJECT_LOCK (self);
  s = gst_structure_new ("application/x-octopus-rtp-hdrext-stats",
      "packets-written", G_TYPE_UINT64, self->packets_written,
      "messages-written", G_TYPE_UINT64, self->messages_written,
      "packets-without-meta", G_TYPE_UINT64, self->packets_skipped,
      "packets-read", G_TYPE_UINT64, self->packets_read,
      "packets-rejected", G_TYPE_UINT64, self->packets_rejected, NULL);
  GST_OBJECT_UNLOCK (self);
  return s;
}

static void
gst_rtp_header_extension_octopus_get_property (GObject *object, guint prop_id,
    GValue *value, GParamSpec *pspec)
{
  GstRTPHeaderExtensionOctopus *self = GST_RTP_HEADER_EXTENSION_OCTOPUS (object);

  switch (prop_id) {
    case PROP_STATS:
      g_value_take_boxed (value, gst_rtp_header_extension_octopus_stats (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_rtp_header_extension_octopus_class_init (
    GstRTPHeaderExtensionOctopusClass *klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstRTPHeaderExtensionClass *ext_class =
      GST_RTP_HEADER_EXTENSION_CLASS (klass);

  gobject_class->get_property = gst_rtp_header_extension_octopus_get_property;
  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Statistics",
          "Packets written (and messages they started), packets sent without "
          "a GstOctopusMeta, packets read and rejected (bad Octopus header)",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  ext_class->get_supported_flags =
      gst_rtp_header_extension_octopus_get_supported_flags;
  ext_class->get_max_size = gst_rtp_header_extension_octopus_get_max_size;
  ext_class->write = gst_rtp_header_extension_octopus_write;
  ext_class->read = gst_rtp_header_extension_octopus_read;
  ext_class->set_non_rtp_sink_caps =
      gst_rtp_header_extension_octopus_set_non_rtp_sink_caps;

  gst_element_class_set_static_metadata (element_class,
      "Octopus RTP header extension", GST_RTP_HDREXT_ELEMENT_CLASS,
      "Carries GstOctopusMeta's message dropping parameters (the 12-byte "
      "Octopus header) in RTP so that queues can drop whole messages",
      GST_OCTOPUS_AUTHORS);
  gst_rtp_header_extension_class_set_uri (ext_class, OCTO_RTPEXT_URI);
  GST_DEBUG_CATEGORY_INIT (gst_rtp_header_extension_octopus_debug,
      "rtphdrextoctopus", 0, "Octopus RTP header extension");
}

static void
gst_rtp_header_extension_octopus_init (GstRTPHeaderExtensionOctopus *self)
{
  octo_rtpext_writer_init (&self->writer, 0);
}
