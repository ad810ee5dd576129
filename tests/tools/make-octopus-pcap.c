/* Writes a pcap of gst-octopus traffic built with the core's own writers,
 * for the Wireshark dissector test (test-wireshark.py asserts the decoded
 * fields): a two-fragment transport message, a packet with a QUCO chunk
 * trailer (one chunk trimmed), an ACK with its receive timestamp, a NACK
 * (last), RTP with the extension in the one- and two-byte forms, and a STUN
 * request that is none of ours.
 *
 *   make-octopus-pcap OUT.pcap */
#include "octo-rtpext.h"
#include "qdisc/octo-chunks.h"
#include "transport/octo-packet.h"

#include <stdio.h>
#include <string.h>

#define SHIM_PORT 5004
#define RTP_PORT 5006

static void
put16 (guint8 *p, guint v)
{
  p[0] = (v >> 8) & 0xff;
  p[1] = v & 0xff;
}

/* One Ethernet/IPv4/UDP frame around @payload (UDP checksum 0: none). */
static void
write_frame (FILE *out, guint index, guint16 dport, const guint8 *payload,
    gsize len)
{
  guint8 frame[14 + 20 + 8 + 2048] = { 0 };
  guint32 sum = 0;
  guint32 rec[4] = { 1700000000u, index * 1000u, 0, 0 };
  gsize total = 14 + 20 + 8 + len;

  g_assert (len <= 2048);
  frame[12] = 0x08;             /* IPv4 */
  guint8 *ip = frame + 14;
  ip[0] = 0x45;
  put16 (ip + 2, (guint) (20 + 8 + len));
  ip[8] = 64;
  ip[9] = 17;
  memcpy (ip + 12, (guint8[]) { 192, 0, 2, 1 }, 4);
  memcpy (ip + 16, (guint8[]) { 192, 0, 2, 2 }, 4);
  for (guint i = 0; i < 20; i += 2)
    sum += (guint32) ip[i] << 8 | ip[i + 1];
  sum = (sum & 0xffff) + (sum >> 16);
  sum = (sum & 0xffff) + (sum >> 16);
  put16 (ip + 10, ~sum & 0xffff);
  guint8 *udp = ip + 20;
  put16 (udp, 40000);
  put16 (udp + 2, dport);
  put16 (udp + 4, (guint) (8 + len));
  memcpy (udp + 8, payload, len);
  rec[2] = rec[3] = (guint32) total;
  fwrite (rec, sizeof rec, 1, out);
  fwrite (frame, total, 1, out);
}

static gsize
rtp_with_extension (guint8 *pkt, guint8 ext_id, const OctoHeader *h)
{
  memset (pkt, 0, 48);
  pkt[0] = 0x90;
  pkt[1] = 0x80 | 96;
  put16 (pkt + 2, 4242);
  pkt[8] = 0x5e;
  pkt[9] = 0xed;
  pkt[10] = 0x00;
  pkt[11] = 0x01;
  put16 (pkt + 14, 4);
  if (ext_id <= 14) {
    put16 (pkt + 12, 0xbede);
    pkt[16] = (guint8) (ext_id << 4 | (OCTO_RTPEXT_LEN - 1));
    octo_header_pack (h, pkt + 17);
  } else {
    put16 (pkt + 12, 0x1000);
    pkt[16] = ext_id;
    pkt[17] = OCTO_RTPEXT_LEN;
    octo_header_pack (h, pkt + 18);
  }
  memset (pkt + 32, 0xab, 16);  /* payload */
  return 48;
}

int
main (int argc, char **argv)
{
  static const guint32 pcap_header[6] = { 0xa1b2c3d4, 0x00040002, 0, 0,
    65535, 1 };
  guint8 msg[1000], pkt[2048];
  OctoHeader h = { .stream_id = 3, .msg_id = 42, .priority = 2, .drop = 1,
    .priority_threshold = 1, .slack_ms = 300,
    .link_bitrate_threshold_bps = 2500000 };
  OctoMsgInfo info;
  guint frame = 0;
  gsize len;

  if (argc != 2) {
    fprintf (stderr, "usage: %s OUT.pcap\n", argv[0]);
    return 2;
  }
  FILE *out = fopen (argv[1], "wb");
  if (out == NULL) {
    perror (argv[1]);
    return 1;
  }
  fwrite (pcap_header, sizeof pcap_header, 1, out);

  /* 1, 2: a 1000-byte message in two fragments */
  octo_msg_info_init (&info);
  info.capture_time = 1234567890123ull;
  info.frame_id = 17;
  info.spatial_layer = 1;
  info.flags = OCTO_MSG_FLAG_KEYFRAME;
  memset (msg, 0x11, sizeof msg);
  guint32 count = octo_fragment_count (sizeof msg, 600);
  g_assert (count == 2);
  for (guint32 i = 0; i < count; i++) {
    len = octo_fragment_write (&h, &info, msg, sizeof msg, 600, i, count, pkt);
    octo_data_stamp (pkt, 0x5eed0001, 1000 + i, 5555 + i);
    write_frame (out, ++frame, SHIM_PORT, pkt, len);
  }

  /* 3: one fragment whose payload is 3 chunks (10, 20, 30 bytes) and the
   * trailer, with the last chunk trimmed as the quco queue would */
  static const guint16 lens[3] = { 10, 20, 30 };
  guint8 chunked[60 + 9];
  guint trimmed;
  for (guint i = 0; i < 60; i++)
    chunked[i] = (guint8) (i < 10 ? 0xc0 : i < 30 ? 0xc1 : 0xc2);
  octo_chunks_write_trailer (chunked + 60, lens, 3);
  h.msg_id = 43;
  h.drop = 0;
  h.priority = 5;
  h.link_bitrate_threshold_bps = 0;
  len = octo_fragment_write (&h, &info, chunked, sizeof chunked, 600, 0, 1,
      pkt);
  octo_data_stamp (pkt, 0x5eed0001, 1002, 5600);
  gboolean chunked_ok = octo_chunks_trim (pkt, &len, 1, &trimmed);
  g_assert (chunked_ok && trimmed == 1);
  write_frame (out, ++frame, SHIM_PORT, pkt, len);

  /* 4: an ACK of 1000-1002 and 990-995, 1002 arrived at 123456789 us */
  OctoAck ack = { .conn_id = 0x5eed0001, .ack_delay_us = 250, .n_ranges = 2,
    .flags = OCTO_ACK_FLAG_TIMESTAMPS, .arrival_us = 123456789,
    .ranges = { { 1000, 1002 }, { 990, 995 } } };
  len = octo_ack_write (&ack, pkt, sizeof pkt);
  g_assert (len == OCTO_ACK_HEADER_LEN + 16 + OCTO_ACK_TIMESTAMP_LEN);
  write_frame (out, ++frame, SHIM_PORT, pkt, len);

  /* 5, 6: RTP, extension id 3 (one-byte form) and 20 (two-byte form) */
  OctoHeader r = { .stream_id = 0, .msg_id = 7, .priority = 1, .first = 1,
    .last = 1, .drop = 1, .priority_threshold = 2, .slack_ms = 0,
    .link_bitrate_threshold_bps = 1000000 };
  len = rtp_with_extension (pkt, 3, &r);
  write_frame (out, ++frame, RTP_PORT, pkt, len);
  r.msg_id = 8;
  r.drop = 0;
  r.priority = 3;
  len = rtp_with_extension (pkt, 20, &r);
  write_frame (out, ++frame, RTP_PORT, pkt, len);

  /* 7: STUN binding request: not ours */
  static const guint8 stun[20] = { 0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xa4,
    0x42, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
  write_frame (out, ++frame, 3478, stun, sizeof stun);

  /* 8: a transport version 1 packet (seq 0 where the version now is) */
  h.msg_id = 44;
  len = octo_fragment_write (&h, &info, msg, 100, 600, 0, 1, pkt);
  pkt[OCTO_WIRE_HEADER_LEN] = 0;
  write_frame (out, ++frame, SHIM_PORT, pkt, len);

  /* 9: a QUCO NACK: packet 1003 arrived with two chunks trimmed */
  OctoNack nack = { .conn_id = 0x5eed0001, .trimmed = 2, .seq = 1003 };
  len = octo_nack_write (&nack, pkt, sizeof pkt);
  g_assert (len == OCTO_NACK_LEN);
  write_frame (out, ++frame, SHIM_PORT, pkt, len);

  return fclose (out) == 0 ? 0 : 1;
}
