/* Octopus parameters in RTP: demultiplexing, RFC 8285 header extensions,
 * id learning and the writer's message state.  See octo-rtpext.h. */
#include "octo-rtpext.h"

#define RTP_HEADER_LEN 12
#define ONE_BYTE_PROFILE 0xbede
#define TWO_BYTE_PROFILE_MASK 0xfff0
#define TWO_BYTE_PROFILE 0x1000
/* One-byte form: id 15 ends the block (RFC 8285 §4.2). */
#define ONE_BYTE_ID_STOP 15

const gchar *
octo_dgram_kind_to_string (OctoDgramKind kind)
{
  static const gchar *const names[] = { "empty", "stun", "octopus-control",
    "octopus", "zrtp", "dtls", "rtp", "rtcp", "other" };
  G_STATIC_ASSERT (G_N_ELEMENTS (names) == OCTO_DGRAM_N_KINDS);
  return kind < OCTO_DGRAM_N_KINDS ? names[kind] : "unknown";
}

OctoDgramKind
octo_dgram_classify (const guint8 *data, gsize len)
{
  if (len == 0)
    return OCTO_DGRAM_EMPTY;
  guint8 b = data[0];
  if (b <= 3)
    return OCTO_DGRAM_STUN;
  if (b < OCTO_WIRE_MARKER)
    return OCTO_DGRAM_OCTOPUS_CONTROL;
  if ((b & OCTO_WIRE_MARKER_MASK) == OCTO_WIRE_MARKER)
    return OCTO_DGRAM_OCTOPUS;
  if (b <= 19)
    return OCTO_DGRAM_ZRTP;
  if (b <= 63)
    return OCTO_DGRAM_DTLS;
  if (b >= 128 && b <= 191) {
    /* RFC 5761: RTCP packet types 192-223 sit where RTP would have the
     * marker bit set and payload type 64-95, which RTP must not use. */
    if (len >= 2 && data[1] >= 192 && data[1] <= 223)
      return OCTO_DGRAM_RTCP;
    return OCTO_DGRAM_RTP;
  }
  return OCTO_DGRAM_OTHER;
}

const gchar *
octo_rtp_parse_result_to_string (OctoRtpParseResult result)
{
  switch (result) {
    case OCTO_RTP_PARSE_OK:
      return "ok";
    case OCTO_RTP_PARSE_TRUNCATED:
      return "truncated: RTP header, CSRC list or extension block cut off";
    case OCTO_RTP_PARSE_NOT_RTP:
      return "not RTP: version is not 2";
    case OCTO_RTP_PARSE_BAD_EXTENSION:
      return "header extension element runs past its block";
    case OCTO_RTP_PARSE_N_RESULTS:
      break;
  }
  return "unknown RTP parse result";
}

/* Walks the elements; with @want_index stops at that one.  Returns the
 * number of elements seen, or -1 if one runs past the block. */
static gint
walk_elements (const OctoRtpPacket *rtp, guint want_index, guint8 *id,
    const guint8 **data, gsize *len)
{
  gboolean one_byte = rtp->ext_profile == ONE_BYTE_PROFILE;
  gsize pos = 0;
  guint n = 0;

  while (pos < rtp->ext_len) {
    guint8 b = rtp->ext[pos];
    gsize elen, hdr = one_byte ? 1 : 2;
    if (b == 0) {               /* padding */
      pos++;
      continue;
    }
    if (one_byte && b >> 4 == ONE_BYTE_ID_STOP)
      break;
    if (one_byte) {
      elen = (b & 0x0f) + 1;
    } else {
      if (pos + 1 >= rtp->ext_len)
        return -1;
      elen = rtp->ext[pos + 1];
    }
    if (pos + hdr + elen > rtp->ext_len)
      return -1;
    if (n == want_index) {
      *id = one_byte ? b >> 4 : b;
      *data = rtp->ext + pos + hdr;
      *len = elen;
      return (gint) n + 1;
    }
    n++;
    pos += hdr + elen;
  }
  return (gint) n;
}

static gboolean
has_elements (const OctoRtpPacket *rtp)
{
  return rtp->ext != NULL && (rtp->ext_profile == ONE_BYTE_PROFILE ||
      (rtp->ext_profile & TWO_BYTE_PROFILE_MASK) == TWO_BYTE_PROFILE);
}

OctoRtpParseResult
octo_rtp_parse (const guint8 *data, gsize len, OctoRtpPacket *out)
{
  gsize pos;

  if (len < RTP_HEADER_LEN)
    return OCTO_RTP_PARSE_TRUNCATED;
  if (data[0] >> 6 != 2)
    return OCTO_RTP_PARSE_NOT_RTP;
  out->marker = data[1] >> 7;
  out->payload_type = data[1] & 0x7f;
  out->seq = (guint16) (data[2] << 8 | data[3]);
  out->ssrc = (guint32) data[8] << 24 | (guint32) data[9] << 16 |
      (guint32) data[10] << 8 | data[11];
  out->ext_profile = 0;
  out->ext = NULL;
  out->ext_len = 0;
  pos = RTP_HEADER_LEN + 4 * (gsize) (data[0] & 0x0f);
  if (!(data[0] & 0x10))
    return pos <= len ? OCTO_RTP_PARSE_OK : OCTO_RTP_PARSE_TRUNCATED;
  if (pos + 4 > len)
    return OCTO_RTP_PARSE_TRUNCATED;
  out->ext_profile = (guint16) (data[pos] << 8 | data[pos + 1]);
  out->ext_len = 4 * (gsize) (data[pos + 2] << 8 | data[pos + 3]);
  if (pos + 4 + out->ext_len > len)
    return OCTO_RTP_PARSE_TRUNCATED;
  out->ext = data + pos + 4;
  if (has_elements (out)) {
    guint8 id;
    const guint8 *d;
    gsize l;
    if (walk_elements (out, G_MAXUINT, &id, &d, &l) < 0)
      return OCTO_RTP_PARSE_BAD_EXTENSION;
  }
  return OCTO_RTP_PARSE_OK;
}

gboolean
octo_rtp_ext_element (const OctoRtpPacket *rtp, guint index, guint8 *id,
    const guint8 **data, gsize *len)
{
  if (!has_elements (rtp))
    return FALSE;
  return walk_elements (rtp, index, id, data, len) == (gint) index + 1;
}

OctoParseResult
octo_rtp_get_header (const OctoRtpPacket *rtp, guint8 id, OctoHeader *out)
{
  guint8 eid;
  const guint8 *data;
  gsize len;

  for (guint i = 0; octo_rtp_ext_element (rtp, i, &eid, &data, &len); i++)
    if (eid == id)
      return len == OCTO_RTPEXT_LEN ? octo_header_parse (data, len, out) :
          OCTO_PARSE_TRUNCATED;
  return OCTO_PARSE_TRUNCATED;
}

void
octo_rtpext_learner_init (OctoRtpextLearner *learner)
{
  *learner = (OctoRtpextLearner) { .id = OCTO_RTPEXT_ID_NONE };
}

guint8
octo_rtpext_learner_feed (OctoRtpextLearner *learner, const OctoRtpPacket *rtp)
{
  guint8 id, found = OCTO_RTPEXT_ID_NONE;
  const guint8 *data;
  gsize len;
  OctoHeader header;

  if (learner->id != OCTO_RTPEXT_ID_NONE)
    return learner->id;
  for (guint i = 0; octo_rtp_ext_element (rtp, i, &id, &data, &len); i++) {
    if (id != OCTO_RTPEXT_ID_NONE && len == OCTO_RTPEXT_LEN &&
        octo_header_parse (data, len, &header) == OCTO_PARSE_OK) {
      found = id;
      break;
    }
  }
  if (found == OCTO_RTPEXT_ID_NONE || found != learner->candidate) {
    learner->candidate = found;
    learner->hits = found != OCTO_RTPEXT_ID_NONE;
  } else {
    learner->hits++;
  }
  if (learner->hits >= OCTO_RTPEXT_LEARN_PACKETS)
    learner->id = learner->candidate;
  return learner->id;
}

void
octo_rtpext_writer_init (OctoRtpextWriter *writer, guint32 first_msg_id)
{
  *writer = (OctoRtpextWriter) { .next_msg_id = first_msg_id };
}

void
octo_rtpext_writer_next (OctoRtpextWriter *writer, guint64 identity,
    gboolean ends_message, OctoHeader *header)
{
  gboolean first = !writer->in_message || identity != writer->identity;

  if (first)
    writer->msg_id = writer->next_msg_id++;
  writer->identity = identity;
  writer->in_message = !ends_message;
  header->msg_id = writer->msg_id;
  header->first = first;
  header->last = ends_message;
}
