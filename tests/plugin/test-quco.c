/* QUCO through the elements (paper 004): octopussink's qualitative packets,
 * octopussrc handing over the layers of a trimmed frame and NACKing it,
 * and both ends through a relay that trims like a quco queue; loopback
 * UDP, conditions polled for, never waited for with a margin. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gst/octopus/gstoctopusmeta.h"
#include "transport/octo-qpacket.h"

#define MTU 1400
#define WAIT_MS (20 * 1000)

/* Q0 | Q1 | Q2 of one frame: gold, silver, bronze. */
static const guint32 layer_lens[] = { 900, 600, 300 };

#define FRAME_LEN 1800

static void
fill_frame (guint8 *frame)
{
  for (guint i = 0; i < FRAME_LEN; i++)
    frame[i] = (guint8) (i * 7 + i / 300);
}

/* A UDP socket on loopback with an ephemeral port. */
static gint
udp_socket (gint *port)
{
  struct sockaddr_in a = {.sin_family = AF_INET,
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK)
  };
  socklen_t len = sizeof a;
  gint fd = socket (AF_INET, SOCK_DGRAM, 0);

  fail_unless (fd >= 0);
  fail_unless (bind (fd, (struct sockaddr *) &a, sizeof a) == 0);
  fail_unless (getsockname (fd, (struct sockaddr *) &a, &len) == 0);
  *port = ntohs (a.sin_port);
  return fd;
}

static void
send_to_port (gint fd, gint port, const guint8 *data, gsize len)
{
  struct sockaddr_in a = {.sin_family = AF_INET,
    .sin_port = htons (port),.sin_addr.s_addr = htonl (INADDR_LOOPBACK)
  };
  fail_unless_equals_int (sendto (fd, data, len, 0, (struct sockaddr *) &a,
          sizeof a), (gssize) len);
}

/* One datagram within @timeout_ms, its length (0: none came). */
static gsize
recv_within (gint fd, guint8 *buf, gsize size, gint timeout_ms)
{
  struct pollfd p = {.fd = fd,.events = POLLIN };
  gssize n;

  if (poll (&p, 1, timeout_ms) <= 0)
    return 0;
  n = recv (fd, buf, size, 0);
  return n > 0 ? (gsize) n : 0;
}

static guint64
stat_of (GstElement *element, const gchar *field)
{
  GstStructure *s;
  guint64 v = 0;

  g_object_get (element, "stats", &s, NULL);
  gst_structure_get_uint64 (s, field, &v);
  gst_structure_free (s);
  return v;
}

static GstHarness *
start_receiver (gint *port, GstElement **src)
{
  GstHarness *h = gst_harness_new_parse ("octopussrc port=0 stats-interval=0");

  *src = gst_harness_find_element (h, "octopussrc");
  gst_harness_play (h);
  g_object_get (*src, "bound-port", port, NULL);
  fail_unless (*port > 0);
  return h;
}

/* A buffer as octopussvcenc makes one: layer @layer of frame @frame_id. */
static GstBuffer *
layer_buffer (const guint8 *data, gsize len, guint32 frame_id, guint8 layer,
    gboolean last)
{
  GstBuffer *buf = gst_buffer_new_memdup (data, len);
  GstOctopusMeta *m = gst_buffer_add_octopus_meta (buf);

  m->stream_id = 2;
  m->priority = layer;
  m->frame_id = frame_id;
  m->spatial_layer = layer;
  m->temporal_layer = 0;
  m->keyframe = TRUE;
  if (last)
    GST_BUFFER_FLAG_SET (buf, GST_BUFFER_FLAG_MARKER);
  return buf;
}

/* Pushes the frame as three layer buffers into the harness. */
static void
push_frame (GstHarness *tx, const guint8 *frame, guint32 frame_id)
{
  for (guint i = 0, at = 0; i < 3; at += layer_lens[i], i++)
    fail_unless_equals_int (gst_harness_push (tx, layer_buffer (frame + at,
                layer_lens[i], frame_id, i, i == 2)), GST_FLOW_OK);
}

/* Pulls one buffer and checks it is layer @layer of the frame. */
static void
expect_layer (GstHarness *rx, const guint8 *frame, guint32 frame_id,
    guint layer, gboolean marker)
{
  GstBuffer *buf = gst_harness_pull (rx);
  GstOctopusMeta *m;
  guint32 at = 0;

  fail_unless (buf != NULL);
  for (guint i = 0; i < layer; i++)
    at += layer_lens[i];
  fail_unless (gst_buffer_memcmp (buf, 0, frame + at, layer_lens[layer]) ==
      0);
  fail_unless_equals_uint64 (gst_buffer_get_size (buf), layer_lens[layer]);
  m = gst_buffer_get_octopus_meta (buf);
  fail_unless (m != NULL);
  fail_unless_equals_int (m->frame_id, frame_id);
  fail_unless_equals_int (m->spatial_layer, layer);
  fail_unless_equals_int (m->stream_id, 2);
  fail_unless_equals_int (GST_BUFFER_FLAG_IS_SET (buf,
          GST_BUFFER_FLAG_MARKER), marker);
  gst_buffer_unref (buf);
}

/* octopussrc gets a frame's qualitative packets, one of them with its
 * bronze chunk cut: it pushes gold and silver (the frame at layer 1, the
 * last marked) and sends one NACK naming that packet with 1 chunk. */
GST_START_TEST (test_trimmed_packet_yields_the_lower_layer_and_a_nack)
{
  guint8 frame[FRAME_LEN], pkt[MTU], reply[OCTO_ACK_MAX_LEN];
  OctoHeader h = {.stream_id = 2,.msg_id = 1 };
  OctoMsgInfo info;
  OctoQLayout layout;
  OctoNack nack = { 0 };
  GstElement *src;
  gint src_port, port;
  GstHarness *rx = start_receiver (&src_port, &src);
  gint fd = udp_socket (&port);

  fill_frame (frame);
  octo_msg_info_init (&info);
  info.frame_id = 7;
  info.spatial_layer = 0;
  info.flags = OCTO_MSG_FLAG_KEYFRAME;
  octo_qlayout_layered (&layout, layer_lens, 3);
  guint32 count = octo_qpacket_count (&layout, MTU);
  fail_unless (count >= 2);
  for (guint32 j = 0; j < count; j++) {
    gsize n = octo_qpacket_write (&h, &info, &layout, frame, MTU, j, count,
        pkt);
    octo_data_stamp (pkt, 0x51, 100 + j, 0);
    if (j == 1) {
      guint cut;
      fail_unless (octo_chunks_trim (pkt, &n, 1, &cut));
      fail_unless_equals_int (cut, 1);
    }
    send_to_port (fd, src_port, pkt, n);
  }

  expect_layer (rx, frame, 7, 0, FALSE);
  expect_layer (rx, frame, 7, 1, TRUE);

  gsize n;
  while (nack.trimmed == 0 && (n = recv_within (fd, reply, sizeof reply,
              WAIT_MS)) > 0)
    if (reply[0] == OCTO_CONTROL_NACK)
      fail_unless_equals_int (octo_nack_parse (reply, n, &nack),
          OCTO_NACK_OK);
  fail_unless_equals_int (nack.trimmed, 1);
  fail_unless_equals_int (nack.seq, 101);
  fail_unless_equals_int (nack.conn_id, 0x51);
  fail_unless_equals_uint64 (stat_of (src, "nacks-sent"), 1);
  fail_unless_equals_uint64 (stat_of (src, "chunks-trimmed"), 1);
  fail_unless_equals_uint64 (stat_of (src, "messages-lower-layers"), 1);
  fail_unless (gst_harness_try_pull (rx) == NULL);

  close (fd);
  gst_object_unref (src);
  gst_harness_teardown (rx);
}

GST_END_TEST;

/* Feeds every packet from @fd (each of @n_chunks chunks) to a fresh
 * OctoQMessage until it holds all fragments; returns it and the first
 * fragment's header and info. */
static OctoQMessage *
collect_message (gint fd, OctoHeader *header, OctoMsgInfo *info,
    guint8 *flags, guint n_chunks)
{
  OctoQMessage *msg = NULL;
  guint8 pkt[MTU];
  gsize n;

  while ((!msg || !octo_qmessage_all_fragments (msg)) &&
      (n = recv_within (fd, pkt, sizeof pkt, WAIT_MS)) > 0) {
    OctoDataPacket data;
    OctoQFragment frag;

    fail_unless_equals_int (octo_data_parse (pkt, n, &data, NULL),
        OCTO_DATA_OK);
    fail_unless (octo_qpacket_parse (&data, &frag));
    fail_unless_equals_int (frag.chunks.n_chunks, n_chunks);
    *flags = data.flags;
    if (!msg)
      msg = octo_qmessage_new (&data, &frag, G_MAXUINT32);
    fail_unless (octo_qmessage_add (msg, &data, &frag));
    if (data.frag_index == 0) {
      *header = data.header;
      *info = data.info;
    }
  }
  fail_unless (msg != NULL);
  return msg;
}

/* qualitative=layered: three layer buffers of a frame leave as one
 * message whose every packet carries gold | silver | bronze, under the
 * base layer's fields. */
GST_START_TEST (test_sink_sends_a_frames_layers_as_one_qualitative_message)
{
  guint8 frame[FRAME_LEN];
  OctoHeader header;
  OctoMsgInfo info;
  guint8 flags = 0;
  gint port;
  gint fd = udp_socket (&port);
  gchar *desc = g_strdup_printf ("octopussink host=127.0.0.1 port=%d "
      "stats-interval=0 qualitative=layered congestion-control=fixed "
      "max-bitrate=10000000 probe=false", port);
  GstHarness *tx = gst_harness_new_parse (desc);

  g_free (desc);
  gst_harness_set_src_caps_str (tx, "application/octet-stream");
  fill_frame (frame);
  push_frame (tx, frame, 7);

  OctoQMessage *msg = collect_message (fd, &header, &info, &flags, 3);
  fail_unless_equals_int (flags, OCTO_DATA_FLAG_CHUNKED);
  fail_unless_equals_int (octo_qmessage_usable_segments (msg), 3);
  fail_unless_equals_uint64 (octo_qmessage_prefix_len (msg, 3), FRAME_LEN);
  fail_unless (memcmp (octo_qmessage_data (msg), frame, FRAME_LEN) == 0);
  fail_unless_equals_int (header.stream_id, 2);
  fail_unless_equals_int (header.priority, 0);
  fail_unless_equals_int (info.frame_id, 7);
  fail_unless_equals_int (info.spatial_layer, 0);
  octo_qmessage_free (msg);

  close (fd);
  gst_harness_teardown (tx);
}

GST_END_TEST;

/* Without MARKER a frame ends where the next buffer does not continue it
 * (here the next frame's base layer), and the last one at EOS. */
GST_START_TEST (test_unmarked_frame_ends_at_the_next_frame_and_at_eos)
{
  guint8 frame[FRAME_LEN];
  OctoHeader header;
  OctoMsgInfo info;
  guint8 flags = 0;
  gint port;
  gint fd = udp_socket (&port);
  gchar *desc = g_strdup_printf ("octopussink host=127.0.0.1 port=%d "
      "stats-interval=0 qualitative=layered congestion-control=fixed "
      "max-bitrate=10000000 probe=false", port);
  GstHarness *tx = gst_harness_new_parse (desc);

  g_free (desc);
  gst_harness_set_src_caps_str (tx, "application/octet-stream");
  fill_frame (frame);
  fail_unless_equals_int (gst_harness_push (tx, layer_buffer (frame,
              layer_lens[0], 1, 0, FALSE)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (tx, layer_buffer (frame +
              layer_lens[0], layer_lens[1], 1, 1, FALSE)), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (tx, layer_buffer (frame,
              layer_lens[0], 2, 0, FALSE)), GST_FLOW_OK);

  OctoQMessage *msg = collect_message (fd, &header, &info, &flags, 2);
  fail_unless_equals_int (info.frame_id, 1);
  fail_unless_equals_int (octo_qmessage_usable_segments (msg), 2);
  fail_unless_equals_uint64 (octo_qmessage_prefix_len (msg, 2),
      layer_lens[0] + layer_lens[1]);
  octo_qmessage_free (msg);

  fail_unless (gst_harness_push_event (tx, gst_event_new_eos ()));
  msg = collect_message (fd, &header, &info, &flags, 1);
  fail_unless_equals_int (info.frame_id, 2);
  fail_unless_equals_uint64 (octo_qmessage_prefix_len (msg, 1),
      layer_lens[0]);
  octo_qmessage_free (msg);

  close (fd);
  gst_harness_teardown (tx);
}

GST_END_TEST;

/* qualitative=equal: one buffer leaves as three equal stripes. */
GST_START_TEST (test_sink_sends_equal_stripes)
{
  guint8 frame[FRAME_LEN];
  OctoHeader header;
  OctoMsgInfo info;
  guint8 flags = 0;
  gint port;
  gint fd = udp_socket (&port);
  gchar *desc = g_strdup_printf ("octopussink host=127.0.0.1 port=%d "
      "stats-interval=0 qualitative=equal congestion-control=fixed "
      "max-bitrate=10000000 probe=false", port);
  GstHarness *tx = gst_harness_new_parse (desc);

  g_free (desc);
  gst_harness_set_src_caps_str (tx, "application/octet-stream");
  fill_frame (frame);
  fail_unless_equals_int (gst_harness_push (tx, layer_buffer (frame,
              FRAME_LEN, 3, 0, TRUE)), GST_FLOW_OK);

  OctoQMessage *msg = collect_message (fd, &header, &info, &flags, 3);
  fail_unless_equals_int (flags,
      OCTO_DATA_FLAG_CHUNKED | OCTO_DATA_FLAG_CHUNKS_EQUAL);
  fail_unless_equals_int (octo_qmessage_usable_segments (msg), 3);
  fail_unless (memcmp (octo_qmessage_data (msg), frame, FRAME_LEN) == 0);
  octo_qmessage_free (msg);

  close (fd);
  gst_harness_teardown (tx);
}

GST_END_TEST;

/* Between octopussink and octopussrc: cuts the bronze chunk of every
 * other data packet, as a quco queue at light occupancy, and relays the
 * receiver's ACKs and NACKs back. */
typedef struct {
  gint sender_side, receiver_side;      /* sockets */
  gint receiver_port;
  struct sockaddr_storage sender;
  socklen_t sender_len;
  gint stop;
  guint data_packets, trimmed;
} Relay;

static gpointer
relay_loop (gpointer user_data)
{
  Relay *r = user_data;
  guint8 buf[OCTO_MTU_MAX];

  while (!g_atomic_int_get (&r->stop)) {
    struct pollfd p[2] = {
      {.fd = r->sender_side,.events = POLLIN},
      {.fd = r->receiver_side,.events = POLLIN},
    };
    if (poll (p, 2, 20) <= 0)
      continue;
    if (p[0].revents & POLLIN) {
      r->sender_len = sizeof r->sender;
      gssize n = recvfrom (r->sender_side, buf, sizeof buf, 0,
          (struct sockaddr *) &r->sender, &r->sender_len);
      OctoChunks chunks;
      if (n > 0 && octo_chunks_parse (buf, n, &chunks)
          && r->data_packets++ % 2 == 1) {
        gsize len = n;
        guint cut;
        octo_chunks_trim (buf, &len, 1, &cut);
        n = len;
        r->trimmed++;
      }
      if (n > 0)
        send_to_port (r->receiver_side, r->receiver_port, buf, n);
    }
    if (p[1].revents & POLLIN) {
      gssize n = recv (r->receiver_side, buf, sizeof buf, 0);
      if (n > 0 && r->sender_len > 0)
        sendto (r->sender_side, buf, n, 0, (struct sockaddr *) &r->sender,
            r->sender_len);
    }
  }
  return NULL;
}

/* octopussink (qualitative=layered, congestion-control=quco) through the
 * trimming relay to octopussrc: every frame is shown at layer 1, and the
 * sender hears a NACK for each trimmed packet. */
GST_START_TEST (test_trimmed_frames_arrive_at_layer_1_and_the_sender_hears_nacks)
{
  guint8 frame[FRAME_LEN];
  Relay relay = { 0 };
  GstElement *src, *sink;
  gint relay_port, receiver_side_port;
  GstHarness *rx = start_receiver (&relay.receiver_port, &src);

  relay.sender_side = udp_socket (&relay_port);
  relay.receiver_side = udp_socket (&receiver_side_port);
  GThread *thread = g_thread_new ("relay", relay_loop, &relay);
  gchar *desc = g_strdup_printf ("octopussink host=127.0.0.1 port=%d "
      "stats-interval=0 qualitative=layered congestion-control=quco",
      relay_port);
  GstHarness *tx = gst_harness_new_parse (desc);
  g_free (desc);
  gst_harness_set_src_caps_str (tx, "application/octet-stream");
  sink = gst_harness_find_element (tx, "octopussink");

  fill_frame (frame);
  for (guint32 f = 0; f < 4; f++) {
    push_frame (tx, frame, f);
    expect_layer (rx, frame, f, 0, FALSE);
    expect_layer (rx, frame, f, 1, TRUE);
  }
  gint64 end = g_get_monotonic_time () + WAIT_MS * 1000;
  while (stat_of (sink, "nacks-received") < 4 &&
      g_get_monotonic_time () < end)
    g_usleep (10000);
  fail_unless_equals_uint64 (stat_of (sink, "nacks-received"), 4);
  fail_unless_equals_uint64 (stat_of (src, "nacks-sent"), 4);
  fail_unless_equals_uint64 (stat_of (src, "messages-lower-layers"), 4);

  g_atomic_int_set (&relay.stop, 1);
  g_thread_join (thread);
  fail_unless_equals_int (relay.trimmed, 4);
  close (relay.sender_side);
  close (relay.receiver_side);
  gst_object_unref (sink);
  gst_object_unref (src);
  gst_harness_teardown (tx);
  gst_harness_teardown (rx);
}

GST_END_TEST;

static Suite *
octopus_quco_suite (void)
{
  Suite *s = suite_create ("octopus-quco");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_trimmed_packet_yields_the_lower_layer_and_a_nack);
  tcase_add_test (tc,
      test_sink_sends_a_frames_layers_as_one_qualitative_message);
  tcase_add_test (tc, test_unmarked_frame_ends_at_the_next_frame_and_at_eos);
  tcase_add_test (tc, test_sink_sends_equal_stripes);
  tcase_add_test (tc,
      test_trimmed_frames_arrive_at_layer_1_and_the_sender_hears_nacks);
  return s;
}

GST_CHECK_MAIN (octopus_quco);
