/* The receiver's table of senders: junk makes no entries, entries expire,
 * a full table evicts senders that never completed a message first and
 * refuses a newcomer only when every entry is proven and recent. */
#include "transport/octo-peer-table.h"

#include <string.h>

#define MS OCTO_MSECOND
#define MTU 400

typedef struct {
  GArray *from;                 /* guint8: the address byte of each message */
  GArray *acked;                /* guint8: the address byte of each ACK */
} Log;

static void
on_message (OctoMessage *msg, const OctoPeer *peer, gpointer user_data)
{
  Log *log = user_data;

  g_array_append_val (log->from, peer->addr[0]);
  g_free (msg->data);
}

static void
on_ack (const OctoPeer *peer, const guint8 *ack, gsize len,
    gpointer user_data)
{
  Log *log = user_data;

  g_assert_cmpuint (len, >, 0);
  g_assert_true (octo_packet_is_control (ack, len));
  g_array_append_val (log->acked, peer->addr[0]);
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
  return octo_peer_table_new (&config, on_message, log);
}

static void
free_table (OctoPeerTable *t, Log *log)
{
  octo_peer_table_free (t);
  g_array_unref (log->from);
  g_array_unref (log->acked);
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/peer-table/junk-makes-no-entries",
      test_junk_makes_no_entries);
  g_test_add_func ("/transport/peer-table/full-table-evicts-unproven-first",
      test_full_table_evicts_unproven_first);
  g_test_add_func ("/transport/peer-table/entries-expire",
      test_entries_expire_and_acks_go_to_their_peer);
  return g_test_run ();
}
