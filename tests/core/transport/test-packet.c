/* Data/ACK packet layout and the receiver's ACK ranges. */
#include "transport/octo-acker.h"
#include "transport/octo-packet.h"

#include <string.h>

static OctoHeader
params (guint16 stream, guint32 msg_id)
{
  OctoHeader h = { 0 };
  h.stream_id = stream;
  h.msg_id = msg_id;
  h.priority = 3;
  h.drop = 1;
  h.priority_threshold = 2;
  h.slack_ms = 100;
  h.link_bitrate_threshold_bps = 2000000;
  return h;
}

static void
test_fragments_cover_message_exactly (void)
{
  const gsize sizes[] = { 0, 1, 1339, 1340, 1341, 1360, 1361, 5000, 100000 };
  const guint32 mtu = 1400;
  OctoHeader h = params (7, 42);
  OctoMsgInfo info;

  octo_msg_info_init (&info);
  info.capture_time = 123456789;
  info.frame_id = 99;
  info.temporal_layer = 2;
  info.flags = OCTO_MSG_FLAG_KEYFRAME;

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++) {
    gsize len = sizes[k];
    guint8 *msg = g_malloc (len + 1), *copy = g_malloc0 (len + 1);
    guint8 pkt[1400];
    guint32 count = octo_fragment_count (len, mtu);
    gsize covered = 0;

    for (gsize i = 0; i < len; i++)
      msg[i] = g_random_int ();
    g_assert_cmpuint (count, >, 0);
    for (guint32 i = 0; i < count; i++) {
      OctoDataPacket d;
      gsize n = octo_fragment_write (&h, &info, msg, len, mtu, i, count, pkt);
      g_assert_cmpuint (n, <=, mtu);
      octo_data_stamp (pkt, 0xc0ffee01, 1000 + i, 55);
      g_assert_cmpint (octo_data_parse (pkt, n, &d, NULL), ==, OCTO_DATA_OK);
      g_assert_cmpuint (d.conn_id, ==, 0xc0ffee01);
      g_assert_cmpuint (d.seq, ==, 1000 + i);
      g_assert_cmpuint (d.flags, ==, 0);
      g_assert_cmpuint (d.path_id, ==, 0);
      g_assert_cmpuint (d.send_time_us, ==, 55);
      g_assert_cmpuint (d.frag_index, ==, i);
      g_assert_cmpuint (d.frag_count, ==, count);
      g_assert_cmpuint (d.msg_len, ==, len);
      g_assert_cmpuint (d.header.msg_id, ==, 42);
      g_assert_cmpuint (d.header.stream_id, ==, 7);
      g_assert_true (d.header.first == (i == 0));
      g_assert_true (d.header.last == (i == count - 1));
      if (i == 0) {
        g_assert_cmpuint (d.info.capture_time, ==, 123456789);
        g_assert_cmpuint (d.info.frame_id, ==, 99);
        g_assert_cmpuint (d.info.temporal_layer, ==, 2);
        g_assert_cmpuint (d.info.spatial_layer, ==, OCTO_LAYER_NONE);
        g_assert_cmpuint (d.info.flags, ==, OCTO_MSG_FLAG_KEYFRAME);
      }
      g_assert_cmpuint (d.offset, ==, covered);
      memcpy (copy + d.offset, d.payload, d.payload_len);
      covered += d.payload_len;
    }
    g_assert_cmpuint (covered, ==, len);
    g_assert_cmpmem (msg, len, copy, len);
    g_free (msg);
    g_free (copy);
  }
}

static void
test_fragment_count_limits (void)
{
  g_assert_cmpuint (octo_fragment_count (10, OCTO_MTU_MIN - 1), ==, 0);
  g_assert_cmpuint (octo_fragment_count (10, OCTO_MTU_MAX + 1), ==, 0);
  g_assert_cmpuint (octo_fragment_count (0, 1400), ==, 1);
  /* 65535 fragments of 1360 bytes is the ceiling at MTU 1400. */
  g_assert_cmpuint (octo_fragment_count (1340 + 65534 * 1360, 1400), ==, 65535);
  g_assert_cmpuint (octo_fragment_count (1340 + 65534 * 1360 + 1, 1400), ==, 0);
}

static void
test_parse_rejects_inconsistent_fragments (void)
{
  OctoHeader h = params (1, 1);
  OctoMsgInfo info;
  guint8 msg[3000] = { 0 }, pkt[1400];
  OctoDataPacket d;

  octo_msg_info_init (&info);
  gsize n = octo_fragment_write (&h, &info, msg, sizeof msg, 1400, 1, 3, pkt);
  g_assert_cmpint (octo_data_parse (pkt, n, &d, NULL), ==, OCTO_DATA_OK);
  /* Claimed length shorter than offset + payload. */
  pkt[OCTO_WIRE_HEADER_LEN + 16] = 0;
  pkt[OCTO_WIRE_HEADER_LEN + 17] = 0;
  pkt[OCTO_WIRE_HEADER_LEN + 18] = 0;
  pkt[OCTO_WIRE_HEADER_LEN + 19] = 10;
  g_assert_cmpint (octo_data_parse (pkt, n, &d, NULL), ==,
      OCTO_DATA_BAD_FRAGMENT);
  g_assert_cmpint (octo_data_parse (pkt, 20, &d, NULL), ==,
      OCTO_DATA_TRUNCATED);
  pkt[0] = 0x80;
  g_assert_cmpint (octo_data_parse (pkt, n, &d, NULL), ==,
      OCTO_DATA_BAD_HEADER);
}

/* Version 2 puts its version byte where version 1 had seq's top byte, and
 * a sender's reserved fields are zero; receivers pass them on. */
static void
test_data_version_and_reserved_fields (void)
{
  OctoHeader h = params (1, 1);
  OctoMsgInfo info;
  guint8 msg[10] = { 0 }, pkt[1400];
  OctoDataPacket d;

  octo_msg_info_init (&info);
  gsize n = octo_fragment_write (&h, &info, msg, sizeof msg, 1400, 0, 1, pkt);
  g_assert_cmpuint (n, ==, OCTO_DATA_FIRST_PREFIX_LEN + sizeof msg);
  g_assert_cmpuint (OCTO_DATA_PREFIX_LEN, ==, 40);
  g_assert_cmpuint (pkt[OCTO_WIRE_HEADER_LEN], ==, OCTO_TRANSPORT_VERSION);
  for (guint i = 1; i < 4; i++)
    g_assert_cmpuint (pkt[OCTO_WIRE_HEADER_LEN + i], ==, 0);
  pkt[OCTO_WIRE_HEADER_LEN + 1] = 0x01;
  pkt[OCTO_WIRE_HEADER_LEN + 2] = 3;
  pkt[OCTO_WIRE_HEADER_LEN + 3] = 0xff;
  g_assert_cmpint (octo_data_parse (pkt, n, &d, NULL), ==, OCTO_DATA_OK);
  g_assert_cmpuint (d.flags, ==, 0x01);
  g_assert_cmpuint (d.path_id, ==, 3);

  /* A version 1 packet: seq 0 where the version now is. */
  pkt[OCTO_WIRE_HEADER_LEN] = 0;
  g_assert_cmpint (octo_data_parse (pkt, n, &d, NULL), ==,
      OCTO_DATA_BAD_VERSION);
  g_assert_cmpstr (octo_data_parse_result_to_string (OCTO_DATA_BAD_VERSION),
      ==, "bad-version");
  pkt[OCTO_WIRE_HEADER_LEN] = 1;
  g_assert_cmpint (octo_data_parse (pkt, n, &d, NULL), ==,
      OCTO_DATA_BAD_VERSION);
  g_assert_cmpint (octo_data_parse (pkt, OCTO_WIRE_HEADER_LEN, &d, NULL), ==,
      OCTO_DATA_TRUNCATED);
}

static void
test_ack_round_trip_and_validation (void)
{
  OctoAck ack = { .conn_id = 0x89abcdef, .ack_delay_us = 250,
    .n_ranges = 3 }, back;
  guint8 buf[OCTO_ACK_MAX_LEN];

  ack.ranges[0] = (OctoAckRange) { 100, 120 };
  ack.ranges[1] = (OctoAckRange) { 90, 95 };
  ack.ranges[2] = (OctoAckRange) { 0xfffffff0u, 10 };     /* wraps */
  gsize n = octo_ack_write (&ack, buf, sizeof buf);
  g_assert_cmpuint (n, ==, 16 + 3 * 8);
  g_assert_true (octo_packet_is_control (buf, n));
  g_assert_cmpint (octo_ack_parse (buf, n, &back), ==, OCTO_ACK_OK);
  g_assert_cmpuint (back.conn_id, ==, 0x89abcdef);
  g_assert_cmpuint (back.path_id, ==, 0);
  g_assert_cmpuint (back.flags, ==, 0);
  g_assert_cmpuint (back.ack_delay_us, ==, 250);
  g_assert_cmpmem (back.ranges, 3 * sizeof (OctoAckRange), ack.ranges,
      3 * sizeof (OctoAckRange));

  g_assert_cmpint (octo_ack_parse (buf, n - 1, &back), ==, OCTO_ACK_TRUNCATED);
  buf[1] = 9;
  g_assert_cmpint (octo_ack_parse (buf, n, &back), ==, OCTO_ACK_BAD_VERSION);
  /* A version 1 ACK of one range: 8 header bytes. */
  buf[1] = 1;
  g_assert_cmpint (octo_ack_parse (buf, 16, &back), ==, OCTO_ACK_BAD_VERSION);
  buf[1] = OCTO_TRANSPORT_VERSION;
  /* Path id and flags are passed on; the reserved u16 must be 0. */
  buf[12] = 2;
  buf[13] = OCTO_ACK_FLAG_KEYFRAME_REQUEST | 0x80;
  g_assert_cmpint (octo_ack_parse (buf, n, &back), ==, OCTO_ACK_OK);
  g_assert_cmpuint (back.path_id, ==, 2);
  g_assert_cmpuint (back.flags, ==, OCTO_ACK_FLAG_KEYFRAME_REQUEST | 0x80);
  /* TIMESTAMPS says 4 more bytes follow the ranges. */
  buf[13] = OCTO_ACK_FLAG_TIMESTAMPS;
  g_assert_cmpint (octo_ack_parse (buf, n, &back), ==, OCTO_ACK_TRUNCATED);
  buf[13] = 0;
  buf[15] = 1;
  g_assert_cmpint (octo_ack_parse (buf, n, &back), ==, OCTO_ACK_BAD_RESERVED);
  buf[15] = 0;
  /* The receive timestamp: after the ranges, and only with the flag. */
  ack.flags = OCTO_ACK_FLAG_TIMESTAMPS;
  ack.arrival_us = 0xfedcba98u;
  n = octo_ack_write (&ack, buf, sizeof buf);
  g_assert_cmpuint (n, ==, 16 + 3 * 8 + 4);
  g_assert_cmpmem (buf + 16 + 3 * 8, 4, "\xfe\xdc\xba\x98", 4);
  g_assert_cmpint (octo_ack_parse (buf, n, &back), ==, OCTO_ACK_OK);
  g_assert_cmpuint (back.arrival_us, ==, 0xfedcba98u);
  g_assert_cmpmem (back.ranges, 3 * sizeof (OctoAckRange), ack.ranges,
      3 * sizeof (OctoAckRange));
  g_assert_cmpint (octo_ack_parse (buf, n - 1, &back), ==, OCTO_ACK_TRUNCATED);
  g_assert_cmpint (octo_ack_parse (buf, n + 1, &back), ==, OCTO_ACK_TRUNCATED);
  buf[13] = 0;
  g_assert_cmpint (octo_ack_parse (buf, n, &back), ==, OCTO_ACK_TRUNCATED);
  g_assert_cmpuint (octo_ack_write (&ack, buf, n - 1), ==, 0);
  ack.flags = 0;
  /* Adjacent ranges must have been merged: [96,99] touching [100,120]. */
  ack.ranges[1] = (OctoAckRange) { 90, 99 };
  g_assert_cmpuint (octo_ack_write (&ack, buf, sizeof buf), ==, 0);
  ack.n_ranges = 0;
  g_assert_cmpuint (octo_ack_write (&ack, buf, sizeof buf), ==, 0);
  guint8 data_byte = OCTO_WIRE_MARKER;
  g_assert_cmpint (octo_ack_parse (&data_byte, 1, &back), ==,
      OCTO_ACK_NOT_ACK);
}

static void
test_acker_merges_ranges_and_flags_duplicates (void)
{
  OctoAcker a;
  OctoAck ack;
  const guint32 order[] = { 5, 6, 8, 10, 9, 7, 2 };

  octo_acker_init (&a, 100, OCTO_MSECOND);
  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    g_assert_true (octo_acker_on_packet (&a, order[i], i * OCTO_USECOND));
  g_assert_false (octo_acker_on_packet (&a, 8, 0));
  g_assert_cmpuint (a.duplicates, ==, 1);
  g_assert_true (octo_acker_build (&a, 20 * OCTO_USECOND, &ack));
  g_assert_cmpuint (ack.n_ranges, ==, 2);
  g_assert_cmpuint (ack.ranges[0].first, ==, 5);
  g_assert_cmpuint (ack.ranges[0].last, ==, 10);
  g_assert_cmpuint (ack.ranges[1].first, ==, 2);
  g_assert_cmpuint (ack.ranges[1].last, ==, 2);
  /* Largest (10) arrived at 3 us: held 17 us, stamped with its arrival. */
  g_assert_cmpuint (ack.ack_delay_us, ==, 17);
  g_assert_cmpuint (ack.flags, ==, OCTO_ACK_FLAG_TIMESTAMPS);
  g_assert_cmpuint (ack.arrival_us, ==, 3);
  /* The stamp is the receiver's clock in us, modulo 2^32. */
  octo_acker_on_packet (&a, 11, ((G_GUINT64_CONSTANT (1) << 32) + 7) *
      OCTO_USECOND);
  g_assert_true (octo_acker_build (&a, 0, &ack));
  g_assert_cmpuint (ack.arrival_us, ==, 7);
}

static void
test_acker_keeps_newest_ranges_only (void)
{
  OctoAcker a;
  OctoAck ack;

  octo_acker_init (&a, 1, OCTO_MSECOND);
  for (guint32 s = 0; s < 2 * OCTO_ACK_MAX_RANGES; s++)
    octo_acker_on_packet (&a, s * 2, 0);
  g_assert_true (octo_acker_build (&a, 0, &ack));
  g_assert_cmpuint (ack.n_ranges, ==, OCTO_ACK_MAX_RANGES);
  g_assert_cmpuint (ack.ranges[0].last, ==, 2 * (2 * OCTO_ACK_MAX_RANGES - 1));
  guint8 buf[OCTO_ACK_MAX_LEN];
  g_assert_cmpuint (octo_ack_write (&ack, buf, sizeof buf), ==,
      OCTO_ACK_MAX_LEN);
  g_assert_cmpuint (octo_ack_write (&ack, buf, sizeof buf - 1), ==, 0);
}

static void
test_acker_schedule (void)
{
  OctoAcker a;

  octo_acker_init (&a, 2, OCTO_MSECOND);
  g_assert_cmpuint (octo_acker_deadline (&a), ==, OCTO_TIME_NONE);
  octo_acker_on_packet (&a, 1, 10 * OCTO_MSECOND);
  g_assert_cmpuint (octo_acker_deadline (&a), ==, 11 * OCTO_MSECOND);
  octo_acker_on_packet (&a, 2, 10 * OCTO_MSECOND + 5);
  g_assert_cmpuint (octo_acker_deadline (&a), ==, 10 * OCTO_MSECOND);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/packet/data-version-and-reserved-fields",
      test_data_version_and_reserved_fields);
  g_test_add_func ("/transport/packet/fragments-cover-message-exactly",
      test_fragments_cover_message_exactly);
  g_test_add_func ("/transport/packet/fragment-count-limits",
      test_fragment_count_limits);
  g_test_add_func ("/transport/packet/parse-rejects-inconsistent-fragments",
      test_parse_rejects_inconsistent_fragments);
  g_test_add_func ("/transport/packet/ack-round-trip-and-validation",
      test_ack_round_trip_and_validation);
  g_test_add_func ("/transport/acker/merges-ranges-and-flags-duplicates",
      test_acker_merges_ranges_and_flags_duplicates);
  g_test_add_func ("/transport/acker/keeps-newest-ranges-only",
      test_acker_keeps_newest_ranges_only);
  g_test_add_func ("/transport/acker/schedule", test_acker_schedule);
  return g_test_run ();
}
