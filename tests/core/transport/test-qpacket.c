/* Qualitative packets: packing a frame's layers into chunks, trimming,
 * reassembly at the lower layer, and the QUCO NACK. */
#include "transport/octo-qpacket.h"

#include <string.h>

#define MTU 1500

static OctoHeader
params (guint32 msg_id)
{
  OctoHeader h = { 0 };
  h.stream_id = 3;
  h.msg_id = msg_id;
  h.priority = 1;
  return h;
}

/* Q0 | Q1 | Q2 of one frame, each byte naming its layer and position. */
static guint8 *
layered_frame (const guint32 *lens, guint n)
{
  guint32 total = 0;
  for (guint i = 0; i < n; i++)
    total += lens[i];
  guint8 *msg = g_malloc (total);
  for (guint i = 0, at = 0; i < n; i++)
    for (guint32 k = 0; k < lens[i]; k++, at++)
      msg[at] = (guint8) (i * 80 + k * 7);
  return msg;
}

typedef struct {
  guint8 bytes[MTU];
  gsize len;
} Datagram;

static Datagram *
pack (const OctoQLayout *layout, const guint8 *msg, guint32 *count)
{
  OctoMsgInfo info;
  OctoHeader h = params (9);

  octo_msg_info_init (&info);
  info.frame_id = 77;
  *count = octo_qpacket_count (layout, MTU);
  g_assert_cmpuint (*count, >, 0);
  Datagram *d = g_new0 (Datagram, *count);
  for (guint32 j = 0; j < *count; j++) {
    d[j].len = octo_qpacket_write (&h, &info, layout, msg, MTU, j, *count,
        d[j].bytes);
    g_assert_cmpuint (d[j].len, >, 0);
    g_assert_cmpuint (d[j].len, <=, MTU);
    octo_data_stamp (d[j].bytes, 0xabcd, 1000 + j, 0);
  }
  return d;
}

/* As the quco queue does: cut @count chunks off the end. */
static void
trim (Datagram *d, guint count)
{
  guint cut;

  g_assert_true (octo_chunks_trim (d->bytes, &d->len, count, &cut));
  g_assert_cmpuint (cut, ==, count);
}

static OctoQMessage *
receive (const Datagram *d, guint32 count, guint *nacks, guint8 *max_trimmed)
{
  OctoQMessage *m = NULL;

  *nacks = 0;
  *max_trimmed = 0;
  for (guint32 j = 0; j < count; j++) {
    OctoDataPacket pkt;
    OctoQFragment frag;
    OctoNack nack;

    g_assert_cmpint (octo_data_parse (d[j].bytes, d[j].len, &pkt, NULL), ==,
        OCTO_DATA_OK);
    g_assert_true (octo_qpacket_parse (&pkt, &frag));
    if (!m)
      m = octo_qmessage_new (&pkt, &frag, 1 << 20);
    g_assert_true (octo_qmessage_add (m, &pkt, &frag));
    if (octo_qpacket_nack (&pkt, &frag, &nack)) {
      (*nacks)++;
      g_assert_cmpuint (nack.seq, ==, 1000 + j);
      g_assert_cmpuint (nack.conn_id, ==, 0xabcd);
      *max_trimmed = MAX (*max_trimmed, nack.trimmed);
    }
  }
  return m;
}

static void
test_every_packet_carries_gold_silver_bronze_of_the_same_frame (void)
{
  const guint32 lens[] = { 3000, 2000, 1200 };
  OctoQLayout layout;
  guint32 count;

  g_assert_true (octo_qlayout_layered (&layout, lens, 3));
  guint8 *msg = layered_frame (lens, 3);
  Datagram *d = pack (&layout, msg, &count);
  /* 6200 bytes over 1500-byte packets less 60 + 12 + 9 bytes each. */
  g_assert_cmpuint (count, ==, 5);
  for (guint32 j = 0; j < count; j++) {
    OctoDataPacket pkt;
    OctoQFragment frag;
    g_assert_cmpint (octo_data_parse (d[j].bytes, d[j].len, &pkt, NULL), ==,
        OCTO_DATA_OK);
    g_assert_true (octo_qpacket_parse (&pkt, &frag));
    g_assert_cmpuint (frag.chunks.n_chunks, ==, 3);
    g_assert_cmpuint (frag.chunks.len[0], ==, 600);
    g_assert_cmpuint (frag.chunks.len[1], ==, 400);
    g_assert_cmpuint (frag.chunks.len[2], ==, 240);
    /* the gold chunk is this packet's fifth of Q0 */
    g_assert_cmpmem (frag.chunk[0], 600, msg + 600 * j, 600);
    g_assert_cmpmem (frag.chunk[2], 240, msg + 5000 + 240 * j, 240);
  }
  g_free (d);
  g_free (msg);
}

static void
test_untrimmed_layered_frame_round_trips_whole (void)
{
  const guint32 lens[] = { 4321, 0, 1, 2999 };
  OctoQLayout layout;
  guint32 count;
  guint nacks;
  guint8 worst;

  g_assert_true (octo_qlayout_layered (&layout, lens, 4));
  guint8 *msg = layered_frame (lens, 4);
  Datagram *d = pack (&layout, msg, &count);
  OctoQMessage *m = receive (d, count, &nacks, &worst);
  g_assert_cmpuint (nacks, ==, 0);
  g_assert_true (octo_qmessage_all_fragments (m));
  g_assert_cmpuint (octo_qmessage_usable_segments (m), ==, 4);
  g_assert_cmpuint (octo_qmessage_prefix_len (m, 4), ==, 7321);
  g_assert_cmpmem (octo_qmessage_data (m), 7321, msg, 7321);
  octo_qmessage_free (m);
  g_free (d);
  g_free (msg);
}

static void
test_trimmed_frame_is_decoded_at_the_lower_layer (void)
{
  const guint32 lens[] = { 3000, 2000, 1200 };
  OctoQLayout layout;
  guint32 count;
  guint nacks;
  guint8 worst;

  g_assert_true (octo_qlayout_layered (&layout, lens, 3));
  guint8 *msg = layered_frame (lens, 3);
  Datagram *d = pack (&layout, msg, &count);
  trim (&d[1], 1);              /* bronze of packet 1 */
  trim (&d[3], 1);
  OctoQMessage *m = receive (d, count, &nacks, &worst);
  g_assert_cmpuint (nacks, ==, 2);
  g_assert_cmpuint (worst, ==, 1);
  g_assert_true (octo_qmessage_all_fragments (m));
  /* Q0 and Q1 whole: the frame is shown at layer 1 */
  g_assert_cmpuint (octo_qmessage_usable_segments (m), ==, 2);
  g_assert_cmpuint (octo_qmessage_prefix_len (m, 2), ==, 5000);
  g_assert_cmpmem (octo_qmessage_data (m), 5000, msg, 5000);
  octo_qmessage_free (m);

  trim (&d[2], 2);              /* silver too: only Q0 remains whole */
  m = receive (d, count, &nacks, &worst);
  g_assert_cmpuint (nacks, ==, 3);
  g_assert_cmpuint (worst, ==, 2);
  g_assert_cmpuint (octo_qmessage_usable_segments (m), ==, 1);
  g_assert_cmpmem (octo_qmessage_data (m), 3000, msg, 3000);
  octo_qmessage_free (m);

  trim (&d[2], 1);              /* gold cut too: nothing decodable */
  m = receive (d, count, &nacks, &worst);
  g_assert_cmpuint (worst, ==, 3);
  g_assert_cmpuint (octo_qmessage_usable_segments (m), ==, 0);
  octo_qmessage_free (m);
  g_free (d);
  g_free (msg);
}

static void
test_a_less_trimmed_copy_fills_in_what_was_cut (void)
{
  const guint32 lens[] = { 1000, 1000 };
  OctoQLayout layout;
  guint32 count;
  guint nacks;
  guint8 worst;

  g_assert_true (octo_qlayout_layered (&layout, lens, 2));
  guint8 *msg = layered_frame (lens, 2);
  Datagram *d = pack (&layout, msg, &count);
  g_assert_cmpuint (count, ==, 2);
  Datagram whole = d[0];
  trim (&d[0], 2);
  OctoQMessage *m = receive (d, count, &nacks, &worst);
  g_assert_cmpuint (octo_qmessage_usable_segments (m), ==, 0);

  OctoDataPacket pkt;
  OctoQFragment frag;
  g_assert_cmpint (octo_data_parse (whole.bytes, whole.len, &pkt, NULL), ==,
      OCTO_DATA_OK);
  g_assert_true (octo_qpacket_parse (&pkt, &frag));
  g_assert_true (octo_qmessage_add (m, &pkt, &frag));
  g_assert_true (octo_qmessage_add (m, &pkt, &frag));   /* repeated: no-op */
  g_assert_cmpuint (octo_qmessage_usable_segments (m), ==, 2);
  g_assert_cmpmem (octo_qmessage_data (m), 2000, msg, 2000);
  octo_qmessage_free (m);
  g_free (d);
  g_free (msg);
}

static void
test_all_bits_equal_message_is_whole_or_nothing (void)
{
  OctoQLayout layout;
  guint32 count;
  guint nacks;
  guint8 worst;
  guint8 *msg = g_malloc (5003);

  for (guint k = 0; k < 5003; k++)
    msg[k] = (guint8) (k * 13);
  g_assert_true (octo_qlayout_equal (&layout, 5003, 3));
  g_assert_cmpuint (layout.len[0], ==, 1668);
  g_assert_cmpuint (layout.len[2], ==, 1667);
  Datagram *d = pack (&layout, msg, &count);
  OctoQMessage *m = receive (d, count, &nacks, &worst);
  g_assert_cmpuint (octo_qmessage_usable_segments (m), ==, 3);
  g_assert_cmpmem (octo_qmessage_data (m), 5003, msg, 5003);
  octo_qmessage_free (m);

  trim (&d[count - 1], 1);
  m = receive (d, count, &nacks, &worst);
  g_assert_cmpuint (nacks, ==, 1);
  g_assert_true (octo_qmessage_all_fragments (m));
  g_assert_cmpuint (octo_qmessage_usable_segments (m), ==, 0);
  octo_qmessage_free (m);
  g_free (d);
  g_free (msg);
}

static void
test_inconsistent_qualitative_fragments_are_refused (void)
{
  const guint32 lens[] = { 3000, 2000, 1200 };
  OctoQLayout layout;
  guint32 count;
  OctoDataPacket pkt;
  OctoQFragment frag;

  g_assert_true (octo_qlayout_layered (&layout, lens, 3));
  guint8 *msg = layered_frame (lens, 3);
  Datagram *d = pack (&layout, msg, &count);

  /* a segment length that does not sum to msg_len */
  Datagram bad = d[1];
  bad.bytes[OCTO_DATA_PREFIX_LEN + 3] ^= 1;
  g_assert_cmpint (octo_data_parse (bad.bytes, bad.len, &pkt, NULL), ==,
      OCTO_DATA_OK);
  g_assert_false (octo_qpacket_parse (&pkt, &frag));
  /* without the chunked flag it is an ordinary fragment, and this one is
   * not a consistent one */
  bad = d[1];
  bad.bytes[OCTO_WIRE_HEADER_LEN + 1] = 0;
  g_assert_cmpint (octo_data_parse (bad.bytes, bad.len, &pkt, NULL), ==,
      OCTO_DATA_BAD_FRAGMENT);
  /* a chunked fragment names no offset */
  bad = d[1];
  bad.bytes[OCTO_WIRE_HEADER_LEN + 23] = 1;
  g_assert_cmpint (octo_data_parse (bad.bytes, bad.len, &pkt, NULL), ==,
      OCTO_DATA_BAD_FRAGMENT);
  /* a fragment of another layout does not join the message */
  g_assert_cmpint (octo_data_parse (d[0].bytes, d[0].len, &pkt, NULL), ==,
      OCTO_DATA_OK);
  g_assert_true (octo_qpacket_parse (&pkt, &frag));
  OctoQMessage *m = octo_qmessage_new (&pkt, &frag, 1 << 20);
  g_assert_null (octo_qmessage_new (&pkt, &frag, 6199));
  frag.layout.equal = TRUE;
  g_assert_false (octo_qmessage_add (m, &pkt, &frag));
  octo_qmessage_free (m);
  g_free (d);
  g_free (msg);
}

static void
test_nack_round_trips_and_rejects_malformed (void)
{
  OctoNack nack = {.conn_id = 0x01020304,.path_id = 0,.trimmed = 2,
    .seq = 0xfffffff0
  };
  OctoNack back;
  guint8 out[OCTO_NACK_LEN + 4];
  const guint8 expect[OCTO_NACK_LEN] = { 0x05, 2, 0, 2, 1, 2, 3, 4,
    0xff, 0xff, 0xff, 0xf0
  };

  g_assert_cmpuint (octo_nack_write (&nack, out, sizeof out), ==,
      OCTO_NACK_LEN);
  g_assert_cmpmem (out, OCTO_NACK_LEN, expect, OCTO_NACK_LEN);
  g_assert_true (octo_packet_is_control (out, OCTO_NACK_LEN));
  g_assert_cmpint (octo_nack_parse (out, OCTO_NACK_LEN, &back), ==,
      OCTO_NACK_OK);
  g_assert_cmpuint (back.conn_id, ==, nack.conn_id);
  g_assert_cmpuint (back.trimmed, ==, 2);
  g_assert_cmpuint (back.seq, ==, nack.seq);

  g_assert_cmpint (octo_nack_parse (out, OCTO_NACK_LEN - 1, &back), ==,
      OCTO_NACK_TRUNCATED);
  g_assert_cmpint (octo_nack_parse (out, OCTO_NACK_LEN + 1, &back), ==,
      OCTO_NACK_TRUNCATED);
  out[3] = 0;
  g_assert_cmpint (octo_nack_parse (out, OCTO_NACK_LEN, &back), ==,
      OCTO_NACK_BAD_TRIMMED);
  out[3] = 16;
  g_assert_cmpint (octo_nack_parse (out, OCTO_NACK_LEN, &back), ==,
      OCTO_NACK_BAD_TRIMMED);
  out[1] = 1;
  g_assert_cmpint (octo_nack_parse (out, OCTO_NACK_LEN, &back), ==,
      OCTO_NACK_BAD_VERSION);
  out[0] = OCTO_CONTROL_ACK;
  g_assert_cmpint (octo_nack_parse (out, OCTO_NACK_LEN, &back), ==,
      OCTO_NACK_NOT_NACK);
  nack.trimmed = 0;
  g_assert_cmpuint (octo_nack_write (&nack, out, sizeof out), ==, 0);
  nack.trimmed = 1;
  g_assert_cmpuint (octo_nack_write (&nack, out, OCTO_NACK_LEN - 1), ==, 0);
}

static OctoMsgInfo
layer_info (guint32 frame_id, guint8 spatial_layer)
{
  OctoMsgInfo info;

  octo_msg_info_init (&info);
  info.frame_id = frame_id;
  info.spatial_layer = spatial_layer;
  info.temporal_layer = 1;
  return info;
}

/* An encoder's three layer messages of one frame become one layered
 * message: base layer's fields (each layer's kept beside them), the layers
 * back to back, complete at the marked top layer. */
static void
test_frame_layers_are_gathered_into_one_layered_message (void)
{
  const guint8 q0[] = { 1, 2, 3, 4 }, q1[] = { 5, 6 }, q2[] = { 7 };
  OctoHeader base = params (0), top = params (0);
  OctoMsgInfo i0 = layer_info (9, 0), i1 = layer_info (9, 1),
      i2 = layer_info (9, 2);
  OctoQFrame f;

  top.priority = 5;
  octo_qframe_init (&f);
  g_assert_true (octo_qframe_continues (&f, &base, &i0));
  octo_qframe_add (&f, &base, &i0, q0, sizeof q0);
  g_assert_false (octo_qframe_complete (&f, FALSE));
  g_assert_true (octo_qframe_continues (&f, &top, &i1));
  g_assert_false (octo_qframe_continues (&f, &top, &i2));
  octo_qframe_add (&f, &top, &i1, q1, sizeof q1);
  g_assert_true (octo_qframe_continues (&f, &top, &i2));
  octo_qframe_add (&f, &top, &i2, q2, sizeof q2);
  g_assert_true (octo_qframe_complete (&f, TRUE));

  g_assert_cmpuint (f.layout.n_segments, ==, 3);
  g_assert_false (f.layout.equal);
  g_assert_cmpuint (f.layout.len[0], ==, 4);
  g_assert_cmpuint (f.layout.len[1], ==, 2);
  g_assert_cmpuint (f.layout.len[2], ==, 1);
  const guint8 all[] = { 1, 2, 3, 4, 5, 6, 7 };
  g_assert_cmpmem (f.data->data, f.data->len, all, sizeof all);
  g_assert_cmpuint (f.layer_header[0].priority, ==, 1);
  g_assert_cmpuint (f.layer_header[1].priority, ==, 5);
  g_assert_cmpuint (f.layer_header[2].priority, ==, 5);
  g_assert_cmpuint (f.info.spatial_layer, ==, 0);

  octo_qframe_reset (&f);
  g_assert_cmpuint (f.layout.n_segments, ==, 0);
  g_assert_cmpuint (f.data->len, ==, 0);
  g_assert_false (octo_qframe_complete (&f, TRUE));
  octo_qframe_clear (&f);
}

/* A frame ends where the next message does not continue it: another frame,
 * stream or cell, a repeated or skipped layer, or a message without layer;
 * a message without layer is a frame by itself. */
static void
test_a_frame_ends_where_the_next_message_does_not_continue_it (void)
{
  const guint8 b[] = { 0 };
  OctoHeader h = params (0), other_stream = params (0);
  OctoMsgInfo i0 = layer_info (9, 0), next_frame = layer_info (10, 1),
      skipped = layer_info (9, 2), again = layer_info (9, 0),
      other_cell = layer_info (9, 1), plain;
  OctoQFrame f;

  other_stream.stream_id = 4;
  other_cell.cell_id = 2;
  octo_msg_info_init (&plain);
  octo_qframe_init (&f);
  octo_qframe_add (&f, &h, &i0, b, 1);
  OctoMsgInfo i1 = layer_info (9, 1);
  g_assert_false (octo_qframe_continues (&f, &other_stream, &i1));
  g_assert_false (octo_qframe_continues (&f, &h, &next_frame));
  g_assert_false (octo_qframe_continues (&f, &h, &skipped));
  g_assert_false (octo_qframe_continues (&f, &h, &again));
  g_assert_false (octo_qframe_continues (&f, &h, &other_cell));
  g_assert_false (octo_qframe_continues (&f, &h, &plain));
  g_assert_true (octo_qframe_continues (&f, &h, &i1));

  octo_qframe_reset (&f);
  octo_qframe_add (&f, &h, &plain, b, 1);
  g_assert_true (octo_qframe_complete (&f, FALSE));
  g_assert_false (octo_qframe_continues (&f, &h, &plain));
  octo_qframe_clear (&f);
}

/* Point clouds count density layers; the receiver raises whichever field
 * the first layer set. */
static void
test_layer_info_raises_the_field_the_first_layer_set (void)
{
  OctoMsgInfo spatial = layer_info (9, 1), density, out;

  octo_msg_info_init (&density);
  density.cell_id = 3;
  density.density_layer = 0;
  g_assert_cmpuint (octo_msg_info_layer (&spatial), ==, 1);
  g_assert_cmpuint (octo_msg_info_layer (&density), ==, 0);

  octo_qframe_layer_info (&spatial, 2, &out);
  g_assert_cmpuint (out.spatial_layer, ==, 3);
  g_assert_cmpuint (out.density_layer, ==, OCTO_LAYER_NONE);
  g_assert_cmpuint (out.frame_id, ==, 9);
  g_assert_cmpuint (out.temporal_layer, ==, 1);
  octo_qframe_layer_info (&density, 4, &out);
  g_assert_cmpuint (out.density_layer, ==, 4);
  g_assert_cmpuint (out.spatial_layer, ==, OCTO_LAYER_NONE);
  g_assert_cmpuint (out.cell_id, ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func
      ("/transport/qpacket/every-packet-carries-gold-silver-bronze-of-the-same-frame",
      test_every_packet_carries_gold_silver_bronze_of_the_same_frame);
  g_test_add_func ("/transport/qpacket/untrimmed-layered-frame-round-trips",
      test_untrimmed_layered_frame_round_trips_whole);
  g_test_add_func
      ("/transport/qpacket/trimmed-frame-is-decoded-at-the-lower-layer",
      test_trimmed_frame_is_decoded_at_the_lower_layer);
  g_test_add_func ("/transport/qpacket/a-less-trimmed-copy-fills-in",
      test_a_less_trimmed_copy_fills_in_what_was_cut);
  g_test_add_func ("/transport/qpacket/all-bits-equal-is-whole-or-nothing",
      test_all_bits_equal_message_is_whole_or_nothing);
  g_test_add_func ("/transport/qpacket/inconsistent-fragments-are-refused",
      test_inconsistent_qualitative_fragments_are_refused);
  g_test_add_func ("/transport/qpacket/nack-round-trips",
      test_nack_round_trips_and_rejects_malformed);
  g_test_add_func ("/transport/qpacket/frame-layers-are-gathered",
      test_frame_layers_are_gathered_into_one_layered_message);
  g_test_add_func ("/transport/qpacket/a-frame-ends-where-the-next-does-not-continue",
      test_a_frame_ends_where_the_next_message_does_not_continue_it);
  g_test_add_func ("/transport/qpacket/layer-info-raises-the-first-layer-field",
      test_layer_info_raises_the_field_the_first_layer_set);
  return g_test_run ();
}
