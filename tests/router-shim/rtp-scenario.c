/* See rtp-scenario.h. */
#include "rtp-scenario.h"

#include "transport/octo-packet.h"

#include <string.h>

static const guint8 priorities[SCENARIO_MESSAGES] = { 0, 3, 2, 3, 1, 3, 3, 0 };
static const gint8 thresholds[SCENARIO_MESSAGES] = { -1, -1, -1, -1, 2, -1,
  3, -1 };

static OctoHeader
message_header (guint i)
{
  OctoHeader h = { .msg_id = i, .priority = priorities[i],
    .drop = thresholds[i] >= 0,
    .priority_threshold = thresholds[i] >= 0 ? (guint8) thresholds[i] : 0 };
  return h;
}

GPtrArray *
scenario_transport_datagrams (void)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (
      (GDestroyNotify) g_bytes_unref);
  guint8 msg[SCENARIO_PACKETS_PER_MESSAGE * SCENARIO_PAYLOAD];
  guint8 pkt[2048];
  OctoMsgInfo info;
  /* fragment 0 also carries the message info */
  guint32 mtu = OCTO_DATA_FIRST_PREFIX_LEN + SCENARIO_PAYLOAD;

  octo_msg_info_init (&info);
  for (guint i = 0; i < SCENARIO_MESSAGES; i++) {
    OctoHeader h = message_header (i);
    memset (msg, (int) i, sizeof msg);
    guint32 count = octo_fragment_count (sizeof msg, mtu);
    g_assert (count == SCENARIO_PACKETS_PER_MESSAGE);
    for (guint32 f = 0; f < count; f++) {
      gsize len = octo_fragment_write (&h, &info, msg, sizeof msg, mtu, f,
          count, pkt);
      octo_data_stamp (pkt, 0, i * count + f, 0);
      g_ptr_array_add (out, g_bytes_new (pkt, len));
    }
  }
  return out;
}

GPtrArray *
scenario_rtp_datagrams (guint8 ext_id, guint32 ssrc)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (
      (GDestroyNotify) g_bytes_unref);
  guint16 seq = 100;

  for (guint i = 0; i < SCENARIO_MESSAGES; i++) {
    for (guint f = 0; f < SCENARIO_PACKETS_PER_MESSAGE; f++) {
      OctoHeader h = message_header (i);
      guint8 pkt[12 + 4 + 16 + SCENARIO_PAYLOAD] = { 0 };
      gboolean last = f + 1 == SCENARIO_PACKETS_PER_MESSAGE;
      h.first = f == 0;
      h.last = last;
      pkt[0] = 0x90;            /* version 2, extension */
      pkt[1] = (guint8) ((last ? 0x80 : 0) | 96);
      pkt[2] = seq >> 8;
      pkt[3] = seq & 0xff;
      seq++;
      pkt[7] = (guint8) i;      /* RTP timestamp: one per message */
      pkt[8] = ssrc >> 24;
      pkt[9] = (ssrc >> 16) & 0xff;
      pkt[10] = (ssrc >> 8) & 0xff;
      pkt[11] = ssrc & 0xff;
      if (ext_id <= 14) {       /* one-byte form, 13 bytes + 3 padding */
        pkt[12] = 0xbe;
        pkt[13] = 0xde;
        pkt[15] = 4;
        pkt[16] = (guint8) (ext_id << 4 | (OCTO_RTPEXT_LEN - 1));
        octo_header_pack (&h, pkt + 17);
      } else {                  /* two-byte form, 14 bytes + 2 padding */
        pkt[12] = 0x10;
        pkt[15] = 4;
        pkt[16] = ext_id;
        pkt[17] = OCTO_RTPEXT_LEN;
        octo_header_pack (&h, pkt + 18);
      }
      memset (pkt + 32, (int) i, SCENARIO_PAYLOAD);
      g_ptr_array_add (out, g_bytes_new (pkt, sizeof pkt));
    }
  }
  return out;
}

GPtrArray *
scenario_other_datagrams (void)
{
  /* a STUN binding request, a DTLS 1.2 handshake record, an RTCP receiver
   * report: first bytes as RFC 7983 has them */
  static const guint8 stun[20] = { 0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xa4,
    0x42, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
  static const guint8 dtls[25] = { 0x16, 0xfe, 0xfd, 0, 0, 0, 0, 0, 0, 0, 1,
    0, 12, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  static const guint8 rtcp[8] = { 0x80, 201, 0x00, 0x01, 0xca, 0xfe, 0xba,
    0xbe };
  GPtrArray *out = g_ptr_array_new_with_free_func (
      (GDestroyNotify) g_bytes_unref);

  g_ptr_array_add (out, g_bytes_new_static (stun, sizeof stun));
  g_ptr_array_add (out, g_bytes_new_static (dtls, sizeof dtls));
  g_ptr_array_add (out, g_bytes_new_static (rtcp, sizeof rtcp));
  return out;
}

gint
scenario_message_of (const guint8 *data, gsize len, guint8 ext_id)
{
  OctoHeader h;
  OctoRtpPacket rtp;

  switch (octo_dgram_classify (data, len)) {
    case OCTO_DGRAM_OCTOPUS:
      return octo_header_parse (data, len, &h) == OCTO_PARSE_OK ?
          (gint) h.msg_id : -1;
    case OCTO_DGRAM_RTP:
      if (octo_rtp_parse (data, len, &rtp) == OCTO_RTP_PARSE_OK &&
          octo_rtp_get_header (&rtp, ext_id, &h) == OCTO_PARSE_OK)
        return (gint) h.msg_id;
      return -1;
    default:
      return -1;
  }
}
