/* The multipath sender and the receiver's peer table end to end: two
 * constant-delay paths on a virtual clock (1 ms steps), each datagram
 * arriving from its path's address, each ACK going back on the path it
 * names. */
#include "transport/octo-peer-table.h"
#include "transport/octo-sender.h"

#include <string.h>

#define MS OCTO_MSECOND
#define MTU 1200
#define N_PATHS 2
#define FRAGS_PER_MESSAGE 5

typedef struct {
  OctoTime arrival;
  guint path;
  gboolean to_receiver;
  gsize len;
  guint8 data[MTU];
} Datagram;

typedef struct {
  OctoSender *sender;
  OctoPeerTable *table;
  GQueue wire;                  /* Datagram*, by arrival (delays constant) */
  OctoTime one_way[N_PATHS];
  /* in [later_from, later_until) the path's one-way delay is one_way_later */
  OctoTime later_from[N_PATHS], later_until[N_PATHS], one_way_later[N_PATHS];
  guint64 rate_bps[N_PATHS];    /* serialisation towards the receiver; 0: none */
  /* in [slow_from, slow_until) the path serialises at rate_slow_bps */
  OctoTime slow_from[N_PATHS], slow_until[N_PATHS];
  guint64 rate_slow_bps[N_PATHS];
  OctoTime free_at[N_PATHS];    /* ... busy until then */
  OctoTime down_from[N_PATHS];  /* from then on the path carries nothing */
  /* every lose_every-th data datagram sent on the path is lost; 0: none */
  guint lose_every[N_PATHS];
  guint64 sent_on[N_PATHS];     /* data datagrams sent on the path */
  gboolean keyframes;           /* every message is a key frame */
  GArray *delivered;            /* guint32 msg_ids */
  guint64 bad_messages;         /* wrong length or bytes */
  guint64 data_on[N_PATHS];     /* data datagrams the receiver got per path */
  OctoTime count_from;          /* data_since counts arrivals from then */
  guint64 data_since[N_PATHS];
  /* data datagrams the receiver got per path in each whole second */
  guint64 data_in_second[N_PATHS][16];
  guint32 next_msg;             /* messages submitted */
  guint64 threshold_bps;        /* the messages' bitrate threshold */
  /* data datagrams whose threshold was not the path's share of it */
  guint64 wrong_threshold;
  guint64 threshold_on[N_PATHS];        /* the last one on each path */
  OctoTime now;
} World;

static gsize
message_len (void)
{
  return FRAGS_PER_MESSAGE * (MTU - OCTO_DATA_FIRST_PREFIX_LEN);
}

static void
on_message (OctoMessage *msg, const OctoPeer *peer, gpointer user_data)
{
  World *w = user_data;
  gboolean ok = msg->len == message_len ();

  /* byte i of the k-th message is k * 7 + i (padding takes msg_ids too) */
  (void) peer;
  for (gsize i = 0; ok && i < msg->len; i++)
    ok = msg->data[i] == (guint8) (msg->data[0] + i);
  if (!ok)
    w->bad_messages++;
  g_array_append_val (w->delivered, msg->header.msg_id);
  g_free (msg->data);
}

/* A data packet on @path carries the share of the message's threshold
 * that path's estimate is of the live paths' (the sender's estimates now,
 * as it has just sent it), rounded up, then to the wire's code. */
static void
check_threshold (World *w, guint path, const guint8 *data)
{
  OctoSenderPathStats ps;
  OctoHeader h;
  guint64 own = 0, total = 0, want = w->threshold_bps;

  for (guint p = 0; p < N_PATHS; p++) {
    octo_sender_path_stats (w->sender, p, &ps);
    if (p == path)
      own = ps.bandwidth;
    if (ps.mp.up || p == path)
      total += ps.bandwidth;
  }
  if (want > 0 && own > 0 && own < total)
    want = (want * own + total - 1) / total;
  g_assert_cmpint (octo_header_parse (data, OCTO_WIRE_HEADER_LEN, &h), ==,
      OCTO_PARSE_OK);
  if (h.link_bitrate_threshold_bps !=
      octo_bitrate_decode (octo_bitrate_encode (want)))
    w->wrong_threshold++;
  w->threshold_on[path] = h.link_bitrate_threshold_bps;
}

static void
put_on_wire (World *w, guint path, gboolean to_receiver, const guint8 *data,
    gsize len)
{
  Datagram *d;
  GList *l;

  if (w->now >= w->down_from[path])
    return;
  if (to_receiver && !octo_data_is_padding (data, len)) {
    w->sent_on[path]++;
    if (w->lose_every[path] > 0 && w->sent_on[path] % w->lose_every[path] == 0)
      return;
  }
  d = g_new0 (Datagram, 1);
  d->arrival = w->now;
  if (to_receiver && w->rate_bps[path] > 0) {
    guint64 rate = w->now >= w->slow_from[path] &&
        w->now < w->slow_until[path] ? w->rate_slow_bps[path] :
        w->rate_bps[path];

    w->free_at[path] = MAX (w->free_at[path], w->now) +
        (len + OCTO_LINK_OVERHEAD) * 8 * OCTO_SECOND / rate;
    d->arrival = w->free_at[path];
  }
  d->arrival += w->now >= w->later_from[path] &&
      w->now < w->later_until[path] ? w->one_way_later[path] :
      w->one_way[path];
  if (to_receiver && !octo_data_is_padding (data, len))
    check_threshold (w, path, data);
  d->path = path;
  d->to_receiver = to_receiver;
  d->len = len;
  memcpy (d->data, data, len);
  for (l = w->wire.tail; l && ((Datagram *) l->data)->arrival > d->arrival;
      l = l->prev);
  if (l)
    g_queue_insert_after (&w->wire, l, d);
  else
    g_queue_push_head (&w->wire, d);
}

static void
on_ack (const OctoPeer *peer, const guint8 *ack, gsize len,
    gpointer user_data)
{
  put_on_wire (user_data, peer->addr[0], FALSE, ack, len);
}

/* @probe: the sender pads while BBR probes (octopussink's default), so
 * the estimates reach the paths' rates; @resend: it resends the lost
 * packets of key frames. */
static void
world_init_with (World *w, const gchar *scheduler, gboolean probe,
    gboolean resend)
{
  OctoSenderConfig sc;
  OctoPeerTableConfig tc;

  memset (w, 0, sizeof (*w));
  octo_sender_config_init (&sc);
  sc.mtu = MTU;
  sc.n_paths = N_PATHS;
  sc.scheduler = scheduler;
  sc.probe = probe;
  sc.resend_keyframes = resend;
  octo_sender_config_ids_from_seed (&sc, 7);
  w->sender = octo_sender_new (&sc, 0);
  g_assert_nonnull (w->sender);
  octo_peer_table_config_init (&tc);
  w->table = octo_peer_table_new (&tc, on_message, w);
  g_queue_init (&w->wire);
  w->one_way[0] = 10 * MS;
  w->one_way[1] = 40 * MS;
  w->down_from[0] = w->down_from[1] = OCTO_TIME_NONE;
  w->later_from[0] = w->later_from[1] = OCTO_TIME_NONE;
  w->later_until[0] = w->later_until[1] = OCTO_TIME_NONE;
  w->slow_from[0] = w->slow_from[1] = OCTO_TIME_NONE;
  w->slow_until[0] = w->slow_until[1] = OCTO_TIME_NONE;
  w->count_from = OCTO_TIME_NONE;
  w->delivered = g_array_new (FALSE, FALSE, sizeof (guint32));
}

static void
world_init (World *w, const gchar *scheduler)
{
  world_init_with (w, scheduler, FALSE, FALSE);
}

static void
world_clear (World *w)
{
  octo_sender_free (w->sender);
  octo_peer_table_free (w->table);
  g_queue_clear_full (&w->wire, g_free);
  g_array_unref (w->delivered);
}

static void
submit_message (World *w)
{
  OctoHeader h = {.link_bitrate_threshold_bps = w->threshold_bps };
  OctoMsgInfo info;
  gsize len = message_len ();
  guint8 *msg = g_malloc (len);
  gboolean accepted;

  for (gsize i = 0; i < len; i++)
    msg[i] = (guint8) (w->next_msg * 7 + i);
  octo_msg_info_init (&info);
  if (w->keyframes)
    info.flags = OCTO_MSG_FLAG_KEYFRAME;
  octo_sender_submit (w->sender, &h, &info, msg, len, w->now, &accepted);
  g_assert_true (accepted);
  w->next_msg++;
  g_free (msg);
}

/* Runs to @until, a message every 40 ms until @last_submit. */
static void
world_run (World *w, OctoTime until, OctoTime last_submit)
{
  guint8 out[MTU];

  for (; w->now <= until; w->now += MS) {
    OctoTime wake;
    Datagram *d;
    guint path;
    gsize len;

    if (w->now % (40 * MS) == 0 && w->now <= last_submit)
      submit_message (w);
    while ((d = g_queue_peek_head (&w->wire)) && d->arrival <= w->now) {
      g_queue_pop_head (&w->wire);
      if (d->to_receiver) {
        guint8 addr = d->path;

        if (!octo_data_is_padding (d->data, d->len)) {
          w->data_on[d->path]++;
          if (w->now >= w->count_from)
            w->data_since[d->path]++;
          if (w->now / OCTO_SECOND < G_N_ELEMENTS (w->data_in_second[0]))
            w->data_in_second[d->path][w->now / OCTO_SECOND]++;
        }
        octo_peer_table_receive (w->table, &addr, 1, d->data, d->len,
            w->now, NULL);
      } else {
        g_assert_true (octo_sender_on_path_control (w->sender, d->path,
                d->data, d->len, w->now));
      }
      g_free (d);
    }
    octo_peer_table_service (w->table, w->now, on_ack, w);
    while ((len = octo_sender_poll_path (w->sender, w->now, out, &path,
                &wake)) > 0)
      put_on_wire (w, path, TRUE, out, len);
  }
}

/* Every message arrives whole and in order with its fragments spread over
 * both paths; each path's ACKs are taken by the path they name. */
static void
test_messages_reassembled_across_paths (void)
{
  World w;
  OctoSenderStats st;
  OctoSenderPathStats ps[N_PATHS];
  OctoReceiverStats rs;

  world_init (&w, "min-cost");
  world_run (&w, 3 * OCTO_SECOND, 2 * OCTO_SECOND);
  g_assert_cmpuint (w.delivered->len, ==, w.next_msg);
  /* no path was down; the idle probes of the path min-cost passed over
   * (padding) take msg_ids too: the messages' ids increase and skip those */
  octo_sender_get_stats (w.sender, &st);
  g_assert_cmpuint (st.padding_packets, ==, 9);
  for (guint i = 1; i < w.delivered->len; i++)
    g_assert_cmpuint (g_array_index (w.delivered, guint32, i), >,
        g_array_index (w.delivered, guint32, i - 1));
  g_assert_cmpuint (g_array_index (w.delivered, guint32,
          w.delivered->len - 1), <=, w.next_msg - 1 + st.padding_packets);
  g_assert_cmpuint (w.bad_messages, ==, 0);
  for (guint p = 0; p < N_PATHS; p++) {
    octo_sender_path_stats (w.sender, p, &ps[p]);
    g_assert_cmpuint (w.data_on[p], >, 0);
    g_assert_cmpuint (ps[p].mp.packets_sent, ==, w.data_on[p]);
    g_assert_cmpuint (ps[p].mp.packets_acked, ==, w.data_on[p]);
    g_assert_true (ps[p].mp.up);
  }
  /* the faster path carries more */
  g_assert_cmpuint (w.data_on[0], >, w.data_on[1]);
  octo_sender_get_stats (w.sender, &st);
  g_assert_cmpuint (st.acks_foreign, ==, 0);
  g_assert_cmpuint (st.acks_unsent, ==, 0);
  g_assert_cmpstr (st.session.state, ==, "multipath");
  g_assert_cmpuint (st.session.flight->packets_sent, ==,
      ps[0].flight->packets_sent + ps[1].flight->packets_sent);
  g_assert_cmpuint (octo_peer_table_size (w.table), ==, 1);
  octo_peer_table_receiver_stats (w.table, &rs);
  g_assert_cmpuint (rs.messages_lost_across_paths, ==, 0);
  world_clear (&w);
}

/* Path 1 stops carrying anything: it is declared down, its packets move
 * to path 0 within their deadline, and no message is delivered in part
 * or lost beyond those sent into the dead path before anyone could know. */
static void
test_path_down_reschedules_its_packets (void)
{
  World w;
  OctoSenderPathStats ps;
  OctoReceiverStats rs;
  guint lost;

  /* WRR keeps both paths busy, so the outage is noticed */
  world_init (&w, "wrr");
  w.down_from[1] = 1 * OCTO_SECOND;
  world_run (&w, 4 * OCTO_SECOND, 3 * OCTO_SECOND);
  octo_sender_path_stats (w.sender, 1, &ps);
  g_assert_false (ps.mp.up);
  g_assert_cmpuint (ps.mp.downs, ==, 1);
  g_assert_cmpuint (ps.mp.packets_rescheduled, >, 0);
  g_assert_cmpuint (w.bad_messages, ==, 0);
  lost = w.next_msg - w.delivered->len;
  g_test_message ("%u of %u messages lost, %" G_GUINT64_FORMAT
      " packets rescheduled", lost, w.next_msg, ps.mp.packets_rescheduled);
  g_assert_cmpuint (lost, ==, 0);
  for (guint i = 1; i < w.delivered->len; i++)
    g_assert_cmpuint (g_array_index (w.delivered, guint32, i), >,
        g_array_index (w.delivered, guint32, i - 1));
  octo_peer_table_receiver_stats (w.table, &rs);
  g_assert_cmpuint (rs.messages_delivered, ==, w.delivered->len);
  world_clear (&w);
}

/* Every 7th data packet on each path is lost.  Key frames resent: every
 * message arrives whole, in order, each lost packet (a resent one too)
 * sent again, none twice.
 * Without resending, the messages that lost a packet are lost. */
static void
test_lost_key_frame_packets_are_resent (void)
{
  for (guint resend = 0; resend <= 1; resend++) {
    World w;
    OctoSenderStats st;
    OctoReceiverStats rs;
    guint64 lost_packets;

    world_init_with (&w, "min-cost", FALSE, resend);
    w.keyframes = TRUE;
    w.lose_every[0] = w.lose_every[1] = 7;
    world_run (&w, 3 * OCTO_SECOND, 2 * OCTO_SECOND);
    octo_sender_get_stats (w.sender, &st);
    octo_peer_table_receiver_stats (w.table, &rs);
    lost_packets = w.sent_on[0] / 7 + w.sent_on[1] / 7;
    g_test_message ("resend %u: %u of %u messages delivered, %"
        G_GUINT64_FORMAT " packets lost, %" G_GUINT64_FORMAT " resent",
        resend, w.delivered->len, w.next_msg, lost_packets,
        st.mp.packets_resent);
    g_assert_cmpuint (w.bad_messages, ==, 0);
    for (guint i = 1; i < w.delivered->len; i++)
      g_assert_cmpuint (g_array_index (w.delivered, guint32, i), >,
          g_array_index (w.delivered, guint32, i - 1));
    if (resend) {
      g_assert_cmpuint (w.delivered->len, ==, w.next_msg);
      g_assert_cmpuint (st.mp.packets_resent, ==, lost_packets);
      g_assert_cmpuint (rs.packets_duplicate, ==, 0);
    } else {
      g_assert_cmpuint (w.delivered->len, <, w.next_msg - 10);
      g_assert_cmpuint (st.mp.packets_resent, ==, 0);
    }
    world_clear (&w);
  }
}

/* Once path 1 is dead (its probes lost as well), path 0 carries every
 * message. */
static void
test_traffic_moves_to_the_live_path (void)
{
  World w;
  guint64 on_0_before;

  world_init (&w, "wrr");
  w.down_from[1] = 500 * MS;
  world_run (&w, 1 * OCTO_SECOND, 3 * OCTO_SECOND);
  on_0_before = w.data_on[0];
  world_run (&w, 3 * OCTO_SECOND, 3 * OCTO_SECOND);
  g_assert_cmpuint (w.data_on[0] - on_0_before, >=,
      (2 * OCTO_SECOND / (40 * MS)) * FRAGS_PER_MESSAGE - FRAGS_PER_MESSAGE);
  g_assert_cmpuint (w.bad_messages, ==, 0);
  world_clear (&w);
}

/* Path 1 (5 ms one way, path 0 30 ms) holds its packets 300 ms for half a
 * second (a queue on it, say): it falls silent, goes down, its probes
 * measure its RTT again once the delay is back, and min-cost moves the
 * data back to it. */
static void
test_an_inflated_rtt_is_measured_again (void)
{
  World w;
  OctoSenderPathStats ps;

  world_init_with (&w, "min-cost", TRUE, FALSE);
  w.one_way[0] = 30 * MS;
  w.one_way[1] = 5 * MS;
  w.later_from[1] = 1000 * MS;
  w.later_until[1] = 1500 * MS;
  w.one_way_later[1] = 300 * MS;
  w.rate_bps[0] = w.rate_bps[1] = 10000000;
  w.count_from = 3 * OCTO_SECOND;
  world_run (&w, 4 * OCTO_SECOND, 4 * OCTO_SECOND);
  g_test_message ("data packets from 3 s: path 0 %" G_GUINT64_FORMAT
      ", path 1 %" G_GUINT64_FORMAT, w.data_since[0], w.data_since[1]);
  octo_sender_path_stats (w.sender, 1, &ps);
  g_assert_cmpuint (ps.mp.downs, ==, 1);
  g_assert_true (ps.mp.up);
  g_assert_cmpuint (w.data_since[1], >, 0);
  g_assert_cmpuint (w.data_since[0], ==, 0);
  g_assert_cmpuint (w.bad_messages, ==, 0);
  world_clear (&w);
}

/* The second path is the faster (25 against 30 ms one way, both 10
 * Mbit/s) until its rate dips to 0.3 Mbit/s from 1 to 3 s: its queue
 * inflates its sRTT and min-cost moves the data to the first path, giving
 * the second only what its bytes in flight say it carries at its dipped
 * rate (about 31 packets a second).  The second keeps ACKing what it has
 * out, so it never goes down; its padding does not probe for bandwidth
 * while its queue stands (without that: 113 padding packets at 2.1 s, at
 * its startup pacing rate, waited in the dip and kept the data off it
 * until 7 s), and from 4 s on it carries every message whole (the
 * first path only its idle probes), its sRTT back near its 50 ms.  (Before
 * the idle probes: no data from 2 s to 10 s, its sRTT stuck at 310 ms.) */
static void
test_an_idle_path_is_measured_again (void)
{
  World w;
  OctoSenderPathStats ps;

  world_init_with (&w, "min-cost", TRUE, FALSE);
  w.one_way[0] = 30 * MS;
  w.one_way[1] = 25 * MS;
  w.rate_bps[0] = w.rate_bps[1] = 10000000;
  w.slow_from[1] = 1000 * MS;
  w.slow_until[1] = 3000 * MS;
  w.rate_slow_bps[1] = 300000;
  world_run (&w, 10 * OCTO_SECOND, 10 * OCTO_SECOND);
  octo_sender_path_stats (w.sender, 1, &ps);
  for (guint sec = 0; sec < 10; sec++)
    g_test_message ("second %u: data packets path 0 %" G_GUINT64_FORMAT
        ", path 1 %" G_GUINT64_FORMAT, sec, w.data_in_second[0][sec],
        w.data_in_second[1][sec]);
  g_test_message ("path 1: sRTT %" G_GUINT64_FORMAT " us, downs %"
      G_GUINT64_FORMAT, ps.srtt / OCTO_USECOND, ps.mp.downs);
  g_assert_cmpuint (ps.mp.downs, ==, 0);
  g_assert_cmpuint (w.data_in_second[1][2], <=, 32);
  for (guint sec = 4; sec < 10; sec++) {
    g_assert_cmpuint (w.data_in_second[0][sec], ==, 0);
    g_assert_cmpuint (w.data_in_second[1][sec], ==, 125);
  }
  g_assert_cmpuint (ps.srtt, >=, 50 * MS);
  g_assert_cmpuint (ps.srtt, <=, 54 * MS);
  g_assert_cmpuint (w.bad_messages, ==, 0);
  world_clear (&w);
}

/* A message's bitrate threshold is the whole stream's; the queue on a path
 * measures that path alone, so each path's packets carry the path's share
 * of it, in proportion to its estimate (paths of 6 and 2 Mbit/s, probed up
 * to them: 1 Mbit/s becomes 0.75 and 0.25).  Before, every packet carried
 * the whole 1 Mbit/s, and a queue on a path carrying 0.5 Mbit/s of a
 * stream of 2 would drop its messages for good. */
static void
test_thresholds_are_each_paths_share (void)
{
  World w;
  OctoSenderPathStats ps[N_PATHS];

  world_init_with (&w, "wrr", TRUE, FALSE);
  w.rate_bps[0] = 6000000;
  w.rate_bps[1] = 2000000;
  w.threshold_bps = 1000000;
  world_run (&w, 3 * OCTO_SECOND, 3 * OCTO_SECOND);
  for (guint p = 0; p < N_PATHS; p++) {
    octo_sender_path_stats (w.sender, p, &ps[p]);
    g_test_message ("path %u: estimate %" G_GUINT64_FORMAT ", threshold %"
        G_GUINT64_FORMAT ", data packets %" G_GUINT64_FORMAT, p,
        ps[p].bandwidth, w.threshold_on[p], w.data_on[p]);
    g_assert_cmpuint (w.data_on[p], >, 0);
  }
  g_assert_cmpuint (w.wrong_threshold, ==, 0);
  g_assert_cmpuint (w.threshold_on[0], >=, 740000);
  g_assert_cmpuint (w.threshold_on[0], <=, 760000);
  g_assert_cmpuint (w.threshold_on[1], >=, 240000);
  g_assert_cmpuint (w.threshold_on[1], <=, 260000);
  g_assert_cmpuint (w.bad_messages, ==, 0);
  world_clear (&w);
}

/* An ACK that names another path than the one it came back on is not
 * read against this path's packets. */
static void
test_ack_naming_another_path_is_foreign (void)
{
  World w;
  OctoSenderStats st;
  OctoAck ack = {.path_id = 1,.n_ranges = 1 };
  OctoSenderConfig sc;
  guint8 buf[OCTO_ACK_MAX_LEN];
  gsize len;

  world_init (&w, "min-rtt");
  world_run (&w, 100 * MS, 100 * MS);
  octo_sender_config_init (&sc);
  octo_sender_config_ids_from_seed (&sc, 7);
  ack.conn_id = sc.conn_id;
  ack.ranges[0].first = ack.ranges[0].last = sc.isn;
  len = octo_ack_write (&ack, buf, sizeof buf);
  g_assert_false (octo_sender_on_path_control (w.sender, 0, buf, len, w.now));
  octo_sender_get_stats (w.sender, &st);
  g_assert_cmpuint (st.acks_foreign, ==, 1);
  world_clear (&w);
}

static void
test_unknown_scheduler_makes_no_sender (void)
{
  OctoSenderConfig sc;

  octo_sender_config_init (&sc);
  sc.n_paths = 2;
  sc.scheduler = "fastest";
  g_assert_null (octo_sender_new (&sc, 0));
  sc.scheduler = NULL;
  sc.n_paths = OCTO_SCHED_MAX_PATHS + 1;
  g_assert_null (octo_sender_new (&sc, 0));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/mp-sender/messages-reassembled-across-paths",
      test_messages_reassembled_across_paths);
  g_test_add_func ("/transport/mp-sender/path-down-reschedules-its-packets",
      test_path_down_reschedules_its_packets);
  g_test_add_func ("/transport/mp-sender/lost-key-frame-packets-are-resent",
      test_lost_key_frame_packets_are_resent);
  g_test_add_func ("/transport/mp-sender/traffic-moves-to-the-live-path",
      test_traffic_moves_to_the_live_path);
  g_test_add_func ("/transport/mp-sender/an-inflated-rtt-is-measured-again",
      test_an_inflated_rtt_is_measured_again);
  g_test_add_func ("/transport/mp-sender/an-idle-path-is-measured-again",
      test_an_idle_path_is_measured_again);
  g_test_add_func ("/transport/mp-sender/thresholds-are-each-paths-share",
      test_thresholds_are_each_paths_share);
  g_test_add_func ("/transport/mp-sender/ack-naming-another-path-is-foreign",
      test_ack_naming_another_path_is_foreign);
  g_test_add_func ("/transport/mp-sender/unknown-scheduler-makes-no-sender",
      test_unknown_scheduler_makes_no_sender);
  return g_test_run ();
}
