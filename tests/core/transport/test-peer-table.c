/* The receiver's table of senders: junk makes no entries, entries expire,
 * a full table evicts senders that never completed a message first and
 * refuses a newcomer only when every entry is proven and recent; the paths
 * of a multipath sender make one stream. */
#include "transport/octo-peer-table.h"
#include "transport/octo-qpacket.h"

#include <string.h>

#define MS OCTO_MSECOND
#define MTU 400

typedef struct {
  GArray *from;                 /* guint8: the address byte of each message */
  GArray *acked;                /* guint8: the address byte of each ACK */
  GArray *ack_paths;            /* guint8: the path_id of each ACK */
  GPtrArray *messages;          /* GBytes: each message's payload */
} Log;

static void
on_message (OctoMessage *msg, const OctoPeer *peer, gpointer user_data)
{
  Log *log = user_data;

  g_array_append_val (log->from, peer->addr[0]);
  g_ptr_array_add (log->messages, g_bytes_new_take (msg->data, msg->len));
}

static void
on_ack (const OctoPeer *peer, const guint8 *ack, gsize len,
    gpointer user_data)
{
  Log *log = user_data;

  g_assert_cmpuint (len, >, 0);
  OctoAck parsed;

  g_assert_true (octo_packet_is_control (ack, len));
  g_assert_cmpint (octo_ack_parse (ack, len, &parsed), ==, OCTO_ACK_OK);
  g_array_append_val (log->acked, peer->addr[0]);
  g_array_append_val (log->ack_paths, parsed.path_id);
}

/* A one-fragment message @msg_id of a sender's connection @conn as packet
 * @seq, or (@first_of_two) the first of its two fragments. */
static gsize
data_packet (guint32 conn, guint32 seq, guint32 msg_id, gboolean first_of_two,
    guint8 out[MTU])
{
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  guint8 msg[2 * MTU] = { 0 };
  gsize msg_len = first_of_two ? MTU : 10;
  gsize len;

  octo_msg_info_init (&info);
  h.msg_id = msg_id;
  len = octo_fragment_write (&h, &info, msg, msg_len, MTU, 0,
      octo_fragment_count (msg_len, MTU), out);
  octo_data_stamp (out, conn, seq, 0);
  return len;
}

static OctoPeerReceiveResult
send_from (OctoPeerTable *t, guint8 addr, guint32 msg_id, gboolean partial,
    OctoTime now)
{
  guint8 pkt[MTU];
  gsize len = data_packet (1000 + addr, msg_id, msg_id, partial, pkt);

  return octo_peer_table_receive (t, &addr, 1, pkt, len, now, NULL);
}

static OctoPeerTable *
new_table (Log *log, guint max_peers)
{
  OctoPeerTableConfig config;

  octo_peer_table_config_init (&config);
  config.max_peers = max_peers;
  config.peer_timeout = 500 * MS;
  config.evictable_idle = 100 * MS;
  log->from = g_array_new (FALSE, FALSE, 1);
  log->acked = g_array_new (FALSE, FALSE, 1);
  log->ack_paths = g_array_new (FALSE, FALSE, 1);
  log->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)
      g_bytes_unref);
  return octo_peer_table_new (&config, on_message, log);
}

static void
free_table (OctoPeerTable *t, Log *log)
{
  octo_peer_table_free (t);
  g_array_unref (log->from);
  g_array_unref (log->acked);
  g_array_unref (log->ack_paths);
  g_ptr_array_unref (log->messages);
}

static void
test_junk_makes_no_entries (void)
{
  Log log;
  OctoPeerTable *t = new_table (&log, 4);
  guint8 junk[64];

  memset (junk, 0x42, sizeof junk);
  for (guint8 a = 0; a < 100; a++)
    g_assert_cmpint (octo_peer_table_receive (t, &a, 1, junk, 1 + a % 60,
            a * MS, NULL), ==, OCTO_PEER_UNKNOWN_INVALID);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 0);
  g_assert_cmpuint (octo_peer_table_get_stats (t)->packets_invalid, ==, 100);
  /* a real sender is then served */
  g_assert_cmpint (send_from (t, 7, 0, FALSE, 200 * MS), ==, OCTO_PEER_TAKEN);
  g_assert_cmpuint (log.from->len, ==, 1);
  g_assert_cmpuint (g_array_index (log.from, guint8, 0), ==, 7);
  free_table (t, &log);
}

static void
test_full_table_evicts_unproven_first (void)
{
  Log log;
  OctoPeerTable *t = new_table (&log, 3);
  const OctoPeerTableStats *st = octo_peer_table_get_stats (t);

  /* 1 and 2 complete a message; 3 only ever sends a first fragment */
  g_assert_cmpint (send_from (t, 1, 0, FALSE, 0), ==, OCTO_PEER_TAKEN);
  g_assert_cmpint (send_from (t, 2, 0, FALSE, 1 * MS), ==, OCTO_PEER_TAKEN);
  g_assert_cmpint (send_from (t, 3, 0, TRUE, 2 * MS), ==, OCTO_PEER_TAKEN);
  /* 4 takes 3's place, though 3 was heard last */
  g_assert_cmpint (send_from (t, 4, 0, TRUE, 3 * MS), ==, OCTO_PEER_TAKEN);
  g_assert_cmpuint (st->peers_evicted, ==, 1);
  /* 5 takes 4's (never completed either) */
  g_assert_cmpint (send_from (t, 5, 0, FALSE, 4 * MS), ==, OCTO_PEER_TAKEN);
  g_assert_cmpuint (st->peers_evicted, ==, 2);
  /* all three proven and recent: 6 is refused */
  g_assert_cmpint (send_from (t, 6, 0, FALSE, 5 * MS), ==, OCTO_PEER_REFUSED);
  g_assert_cmpuint (st->peers_refused, ==, 1);
  /* the one idle for evictable_idle makes room: 1 (heard at 0) */
  g_assert_cmpint (send_from (t, 2, 1, FALSE, 90 * MS), ==, OCTO_PEER_TAKEN);
  g_assert_cmpint (send_from (t, 5, 1, FALSE, 95 * MS), ==, OCTO_PEER_TAKEN);
  g_assert_cmpint (send_from (t, 6, 1, FALSE, 101 * MS), ==,
      OCTO_PEER_TAKEN);
  g_assert_cmpuint (st->peers_evicted, ==, 3);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 3);
  /* 1 comes back as a new peer only by evicting again: refused now */
  g_assert_cmpint (send_from (t, 1, 1, FALSE, 102 * MS), ==,
      OCTO_PEER_REFUSED);
  free_table (t, &log);
}

static void
test_entries_expire_and_acks_go_to_their_peer (void)
{
  Log log;
  OctoPeerTable *t = new_table (&log, 4);
  OctoReceiverStats sum;
  OctoTime next;

  g_assert_cmpint (send_from (t, 1, 0, FALSE, 0), ==, OCTO_PEER_TAKEN);
  g_assert_cmpint (send_from (t, 2, 0, FALSE, 300 * MS), ==,
      OCTO_PEER_TAKEN);
  next = octo_peer_table_service (t, 310 * MS, on_ack, &log);
  g_assert_cmpuint (log.acked->len, ==, 2);
  g_assert_cmpuint (next, <=, 500 * MS);
  /* 1 is silent for peer_timeout at 500 ms, 2 at 800 ms */
  octo_peer_table_service (t, 499 * MS, on_ack, &log);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 2);
  octo_peer_table_service (t, 500 * MS, on_ack, &log);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 1);
  octo_peer_table_service (t, 800 * MS, on_ack, &log);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 0);
  g_assert_cmpuint (octo_peer_table_get_stats (t)->peers_expired, ==, 2);
  /* their counters stay */
  octo_peer_table_receiver_stats (t, &sum);
  g_assert_cmpuint (sum.messages_delivered, ==, 2);
  g_assert_cmpuint (sum.packets_received, ==, 2);
  free_table (t, &log);
}

#define MP_CONN 0x5eed
#define MP_FRAGS 4

/* Fragment @index of message @msg_id (MP_FRAGS fragments, byte i of it
 * msg_id + i) of connection MP_CONN, sent as seq @seq of path @path from
 * address @addr. */
static OctoPeerReceiveResult
send_mp_fragment (OctoPeerTable *t, guint8 addr, guint8 path, guint32 seq,
    guint32 msg_id, guint32 index, OctoTime now)
{
  OctoHeader h = {.msg_id = msg_id };
  OctoMsgInfo info;
  guint8 msg[MP_FRAGS * (MTU - OCTO_DATA_FIRST_PREFIX_LEN)], pkt[MTU];
  guint32 count;
  gsize len;

  for (gsize i = 0; i < sizeof msg; i++)
    msg[i] = (guint8) (msg_id + i);
  count = octo_fragment_count (sizeof msg, MTU);
  g_assert_cmpuint (count, ==, MP_FRAGS);
  octo_msg_info_init (&info);
  len = octo_fragment_write (&h, &info, msg, sizeof msg, MTU, index, count,
      pkt);
  octo_data_stamp (pkt, MP_CONN, seq, 0);
  octo_data_stamp_path (pkt, path);
  return octo_peer_table_receive (t, &addr, 1, pkt, len, now, NULL);
}

static void
assert_message_bytes (GBytes *bytes, guint32 msg_id)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_assert_cmpuint (len, ==, MP_FRAGS * (MTU - OCTO_DATA_FIRST_PREFIX_LEN));
  for (gsize i = 0; i < len; i++)
    g_assert_cmpuint (data[i], ==, (guint8) (msg_id + i));
}

/* A message whose fragments come over two paths, from two addresses and
 * out of order, is one message of one sender; each path's ACK goes to its
 * own address, naming its path and its own seqs. */
static void
test_paths_of_one_sender_reassemble_one_stream (void)
{
  Log log;
  OctoPeerTable *t = new_table (&log, 4);
  const OctoPeerTableStats *st = octo_peer_table_get_stats (t);
  OctoReceiverStats sum;

  /* path 1 (address 2) carries fragments 3 and 1, path 0 (address 1)
   * fragments 2 and 0; the last arrives first */
  g_assert_cmpint (send_mp_fragment (t, 2, 1, 500, 0, 3, 0), ==,
      OCTO_PEER_TAKEN);
  g_assert_cmpint (send_mp_fragment (t, 1, 0, 100, 0, 2, 1 * MS), ==,
      OCTO_PEER_TAKEN);
  g_assert_cmpint (send_mp_fragment (t, 2, 1, 501, 0, 1, 2 * MS), ==,
      OCTO_PEER_TAKEN);
  g_assert_cmpuint (log.messages->len, ==, 0);
  g_assert_cmpint (send_mp_fragment (t, 1, 0, 101, 0, 0, 3 * MS), ==,
      OCTO_PEER_TAKEN);
  g_assert_cmpuint (log.messages->len, ==, 1);
  assert_message_bytes (g_ptr_array_index (log.messages, 0), 0);
  g_assert_cmpuint (g_array_index (log.from, guint8, 0), ==, 1);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 1);
  g_assert_cmpuint (st->addresses_joined, ==, 1);

  octo_peer_table_service (t, 10 * MS, on_ack, &log);
  g_assert_cmpuint (log.acked->len, ==, 2);
  for (guint i = 0; i < 2; i++) {
    guint8 addr = g_array_index (log.acked, guint8, i);
    guint8 path = g_array_index (log.ack_paths, guint8, i);

    g_assert_cmpuint (addr, ==, path + 1);
  }
  octo_peer_table_receiver_stats (t, &sum);
  g_assert_cmpuint (sum.packets_received, ==, 4);
  g_assert_cmpuint (sum.messages_lost_across_paths, ==, 0);
  free_table (t, &log);
}

/* One path loses a fragment: the next message is delivered, the cut one
 * never is (no half message) and is counted as lost across paths. */
static void
test_message_cut_on_one_path_is_never_delivered (void)
{
  Log log;
  OctoPeerTable *t = new_table (&log, 4);
  OctoReceiverStats sum;

  send_mp_fragment (t, 1, 0, 0, 0, 0, 0);
  send_mp_fragment (t, 2, 1, 0, 0, 1, 0);
  send_mp_fragment (t, 1, 0, 1, 0, 2, 1 * MS);
  /* fragment 3 of message 0 was dropped on path 1; message 1 whole */
  for (guint32 i = 0; i < MP_FRAGS; i++)
    send_mp_fragment (t, 1 + i % 2, i % 2, 2 + i, 1, i, 5 * MS);
  g_assert_cmpuint (log.messages->len, ==, 1);
  assert_message_bytes (g_ptr_array_index (log.messages, 0), 1);
  /* the missing fragment turning up late changes nothing */
  send_mp_fragment (t, 2, 1, 9, 0, 3, 6 * MS);
  g_assert_cmpuint (log.messages->len, ==, 1);
  octo_peer_table_receiver_stats (t, &sum);
  g_assert_cmpuint (sum.messages_lost_across_paths, ==, 1);
  g_assert_cmpuint (sum.messages_late, ==, 1);
  free_table (t, &log);
}

/* An address naming another connection id is another sender, whose
 * fragments never complete the first one's messages; a sender's addresses
 * are limited, the extra one refused, and a joined address takes no room
 * from other senders. */
static void
test_only_the_connection_id_joins_a_sender (void)
{
  Log log;
  OctoPeerTable *t = new_table (&log, 2);
  const OctoPeerTableStats *st = octo_peer_table_get_stats (t);
  guint8 pkt[MTU];
  guint8 addr = 9;
  gsize len;

  send_mp_fragment (t, 1, 0, 0, 0, 0, 0);
  send_mp_fragment (t, 1, 0, 1, 0, 1, 0);
  send_mp_fragment (t, 1, 0, 2, 0, 2, 0);
  /* the last fragment from another sender (its own id) */
  len = data_packet (MP_CONN + 1, 3, 0, FALSE, pkt);
  g_assert_cmpint (octo_peer_table_receive (t, &addr, 1, pkt, len, 0, NULL),
      ==, OCTO_PEER_TAKEN);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 2);
  g_assert_cmpuint (log.messages->len, ==, 1);
  g_assert_cmpuint (g_array_index (log.from, guint8, 0), ==, 9);
  for (guint8 a = 2; a < 2 + OCTO_PEER_MAX_ADDRS - 1; a++)
    g_assert_cmpint (send_mp_fragment (t, a, 1, a, 0, 3, 1 * MS), ==,
        OCTO_PEER_TAKEN);
  g_assert_cmpuint (log.messages->len, ==, 2);
  g_assert_cmpint (send_mp_fragment (t, 100, 1, 100, 1, 0, 2 * MS), ==,
      OCTO_PEER_REFUSED);
  g_assert_cmpuint (st->addresses_refused, ==, 1);
  g_assert_cmpuint (st->addresses_joined, ==, OCTO_PEER_MAX_ADDRS - 1);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 2);
  g_assert_cmpuint (st->peers_refused, ==, 0);
  free_table (t, &log);
}

/* A sender's addresses expire one by one; the sender with its last. */
static void
test_addresses_expire_then_the_sender (void)
{
  Log log;
  OctoPeerTable *t = new_table (&log, 4);
  const OctoPeerTableStats *st = octo_peer_table_get_stats (t);

  send_mp_fragment (t, 1, 0, 0, 0, 0, 0);
  send_mp_fragment (t, 2, 1, 0, 0, 1, 300 * MS);
  octo_peer_table_service (t, 500 * MS, on_ack, &log);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 1);
  g_assert_cmpuint (st->peers_expired, ==, 0);
  /* path 0's ACKs have no address now: address 1 is gone */
  send_mp_fragment (t, 2, 0, 1, 0, 2, 600 * MS);
  g_array_set_size (log.acked, 0);
  octo_peer_table_service (t, 610 * MS, on_ack, &log);
  for (guint i = 0; i < log.acked->len; i++)
    g_assert_cmpuint (g_array_index (log.acked, guint8, i), ==, 2);
  octo_peer_table_service (t, 1100 * MS, on_ack, &log);
  g_assert_cmpuint (octo_peer_table_size (t), ==, 0);
  g_assert_cmpuint (st->peers_expired, ==, 1);
  free_table (t, &log);
}

static void
on_feedback_kind (G_GNUC_UNUSED const OctoPeer *peer, const guint8 *fb,
    gsize len, gpointer user_data)
{
  OctoNack nack;
  guint8 kind = octo_nack_parse (fb, len, &nack) == OCTO_NACK_OK ? 'N' : 'A';

  g_string_append_c (user_data, kind);
}

/* QUCO: a packet a queue trimmed gets its NACK ahead of the ACK that
 * covers it, so that the sender counts only what was left of it as
 * delivered (octo_flight_on_trimmed). */
static void
test_a_trimmed_packet_is_nacked_before_it_is_acked (void)
{
  const guint32 lens[] = { 200, 100 };
  guint8 msg[300] = { 0 }, pkt[MTU], addr = 5;
  OctoQLayout layout;
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  Log log;
  OctoPeerTable *t = new_table (&log, 4);
  GString *kinds = g_string_new (NULL);
  gsize len;
  guint cut;

  octo_qlayout_layered (&layout, lens, 2);
  octo_msg_info_init (&info);
  len = octo_qpacket_write (&h, &info, &layout, msg, MTU, 0, 1, pkt);
  octo_data_stamp (pkt, 1005, 0, 0);
  g_assert_true (octo_chunks_trim (pkt, &len, 1, &cut));
  g_assert_cmpint (octo_peer_table_receive (t, &addr, 1, pkt, len, 0, NULL),
      ==, OCTO_PEER_TAKEN);
  octo_peer_table_service (t, 100 * MS, on_feedback_kind, kinds);
  g_assert_cmpstr (kinds->str, ==, "NA");
  g_string_free (kinds, TRUE);
  free_table (t, &log);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/peer-table/a-trimmed-packet-is-nacked-before-"
      "it-is-acked", test_a_trimmed_packet_is_nacked_before_it_is_acked);
  g_test_add_func ("/transport/peer-table/junk-makes-no-entries",
      test_junk_makes_no_entries);
  g_test_add_func ("/transport/peer-table/full-table-evicts-unproven-first",
      test_full_table_evicts_unproven_first);
  g_test_add_func ("/transport/peer-table/entries-expire",
      test_entries_expire_and_acks_go_to_their_peer);
  g_test_add_func ("/transport/peer-table/paths-of-one-sender-reassemble-one-"
      "stream", test_paths_of_one_sender_reassemble_one_stream);
  g_test_add_func ("/transport/peer-table/message-cut-on-one-path-is-never-"
      "delivered", test_message_cut_on_one_path_is_never_delivered);
  g_test_add_func ("/transport/peer-table/only-the-connection-id-joins-a-"
      "sender", test_only_the_connection_id_joins_a_sender);
  g_test_add_func ("/transport/peer-table/addresses-expire-then-the-sender",
      test_addresses_expire_then_the_sender);
  return g_test_run ();
}
