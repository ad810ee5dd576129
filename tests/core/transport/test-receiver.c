/* Reassembly: ordering, loss, reordering, duplication, memory caps. */
#include "transport/octo-receiver.h"
#include "transport/octo-qpacket.h"

#include <string.h>

#define MTU 400

typedef struct {
  GPtrArray *packets;           /* GBytes */
  guint32 seq;
  guint32 conn_id;
} Wire;

typedef struct {
  GArray *ids;                  /* delivered msg_ids */
  GPtrArray *payloads;
} Sink;

static void
collect (OctoMessage *msg, gpointer user_data)
{
  Sink *sink = user_data;
  g_array_append_val (sink->ids, msg->header.msg_id);
  g_ptr_array_add (sink->payloads, g_bytes_new_take (msg->data, msg->len));
}

static void
sink_init (Sink *s)
{
  s->ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  s->payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
}

static void
sink_clear (Sink *s)
{
  g_array_unref (s->ids);
  g_ptr_array_unref (s->payloads);
}

/* Message @id's content: deterministic so the test can check bytes. */
static guint8 *
make_message (guint32 id, gsize len)
{
  guint8 *m = g_malloc (len + 1);
  for (gsize i = 0; i < len; i++)
    m[i] = (guint8) (id * 31 + i * 7);
  return m;
}

/* Message @id of @len bytes on @stream, its packets with data @flags
 * (OCTO_DATA_FLAG_*). */
static void
packetize_flags (Wire *w, guint16 stream, guint32 id, gsize len, guint8 flags)
{
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  guint8 *msg = make_message (id, len);
  guint32 count = octo_fragment_count (len, MTU);

  octo_msg_info_init (&info);
  info.frame_id = id;
  h.stream_id = stream;
  h.msg_id = id;
  for (guint32 i = 0; i < count; i++) {
    guint8 pkt[MTU];
    gsize n = octo_fragment_write (&h, &info, msg, len, MTU, i, count, pkt);
    octo_data_add_flags (pkt, flags);
    octo_data_stamp (pkt, w->conn_id, w->seq++, 0);
    g_ptr_array_add (w->packets, g_bytes_new (pkt, n));
  }
  g_free (msg);
}

static void
packetize (Wire *w, guint16 stream, guint32 id, gsize len)
{
  packetize_flags (w, stream, id, len, 0);
}

static void
feed (OctoReceiver *r, GBytes *b, OctoTime now)
{
  gsize n;
  const guint8 *d = g_bytes_get_data (b, &n);
  octo_receiver_on_packet (r, d, n, now);
}

static OctoReceiver *
new_receiver (Sink *sink)
{
  OctoReceiverConfig c;
  octo_receiver_config_init (&c);
  sink_init (sink);
  return octo_receiver_new (&c, collect, sink);
}

static void
test_in_order_messages_delivered_byte_exact (void)
{
  Sink sink;
  OctoReceiver *r = new_receiver (&sink);
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };
  const gsize sizes[] = { 0, 1, 300, 344, 345, 5000, 100000 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    packetize (&w, 0, i, sizes[i]);
  for (guint i = 0; i < w.packets->len; i++)
    feed (r, w.packets->pdata[i], 0);

  g_assert_cmpuint (sink.ids->len, ==, G_N_ELEMENTS (sizes));
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    gsize n;
    const guint8 *d = g_bytes_get_data (sink.payloads->pdata[i], &n);
    guint8 *expect = make_message (i, sizes[i]);
    g_assert_cmpuint (g_array_index (sink.ids, guint32, i), ==, i);
    g_assert_cmpmem (d, n, expect, sizes[i]);
    g_free (expect);
  }
  g_assert_cmpuint (octo_receiver_get_stats (r)->partial_messages, ==, 0);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

/* Loss, reordering and duplication: every message whose packets all arrive
 * is delivered unless a newer one completed first, in increasing order, and
 * nothing is delivered twice or corrupted. */
static void
test_reassembly_under_loss_reordering_and_duplication (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 20; round++) {
    Sink sink;
    OctoReceiver *r = new_receiver (&sink);
    Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };
    GPtrArray *arrivals = g_ptr_array_new ();
    gsize sizes[60];

    for (guint id = 0; id < 60; id++) {
      sizes[id] = g_rand_int_range (rand, 1, 4000);
      packetize (&w, 0, id, sizes[id]);
    }
    for (guint i = 0; i < w.packets->len; i++) {
      if (g_rand_int_range (rand, 0, 100) < 5)
        continue;               /* lost */
      g_ptr_array_add (arrivals, w.packets->pdata[i]);
      if (g_rand_int_range (rand, 0, 100) < 5)
        g_ptr_array_add (arrivals, w.packets->pdata[i]);  /* duplicated */
    }
    /* Local reordering: swap neighbours within a distance of 8. */
    for (guint i = 0; i + 8 < arrivals->len; i++) {
      guint j = i + g_rand_int_range (rand, 0, 8);
      gpointer t = arrivals->pdata[i];
      arrivals->pdata[i] = arrivals->pdata[j];
      arrivals->pdata[j] = t;
    }
    for (guint i = 0; i < arrivals->len; i++)
      feed (r, arrivals->pdata[i], i * OCTO_USECOND);

    for (guint i = 0; i < sink.ids->len; i++) {
      guint32 id = g_array_index (sink.ids, guint32, i);
      gsize n;
      const guint8 *d = g_bytes_get_data (sink.payloads->pdata[i], &n);
      guint8 *expect = make_message (id, sizes[id]);
      if (i > 0)
        g_assert_cmpuint (id, >, g_array_index (sink.ids, guint32, i - 1));
      g_assert_cmpmem (d, n, expect, sizes[id]);
      g_free (expect);
    }
    const OctoReceiverStats *st = octo_receiver_get_stats (r);
    g_assert_cmpuint (sink.ids->len, >, 20);
    g_assert_cmpuint (st->packets_duplicate, >, 0);
    g_assert_cmpuint (st->messages_delivered, ==, sink.ids->len);
    g_ptr_array_unref (arrivals);
    g_ptr_array_unref (w.packets);
    octo_receiver_free (r);
    sink_clear (&sink);
  }
  g_rand_free (rand);
}

static void
test_late_message_is_discarded_and_counted (void)
{
  Sink sink;
  OctoReceiver *r = new_receiver (&sink);
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };

  packetize (&w, 0, 1, 1000);   /* packets 0..2 */
  packetize (&w, 0, 2, 100);    /* packet 3 */
  /* Message 2 completes first; message 1 then arrives late. */
  feed (r, w.packets->pdata[3], 0);
  for (guint i = 0; i < 3; i++)
    feed (r, w.packets->pdata[i], 0);

  g_assert_cmpuint (sink.ids->len, ==, 1);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 0), ==, 2);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_late, ==, 1);
  g_assert_cmpuint (octo_receiver_get_stats (r)->packets_late, ==, 3);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

static OctoReceiver *
new_reordering_receiver (Sink *sink, OctoTime wait)
{
  OctoReceiverConfig c;
  octo_receiver_config_init (&c);
  c.reorder_wait = wait;
  sink_init (sink);
  return octo_receiver_new (&c, collect, sink);
}

/* With a 20 ms reorder wait: message 2 completes while message 1 is
 * partial and waits; message 1 completes 5 ms later and both go, in order
 * (byte-exact); message 3 completes with no older partial and goes at
 * once.  Then message 5 waits for partial 4, which never completes: at its
 * deadline (not before) 5 goes and 4 is late. */
static void
test_reorder_wait_delivers_in_order (void)
{
  Sink sink;
  OctoReceiver *r = new_reordering_receiver (&sink, 20 * OCTO_MSECOND);
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };
  const OctoReceiverStats *st = octo_receiver_get_stats (r);

  packetize (&w, 0, 1, 1000);   /* packets 0..2 */
  packetize (&w, 0, 2, 100);    /* packet 3 */
  packetize (&w, 0, 3, 100);    /* packet 4 */
  packetize (&w, 0, 4, 1000);   /* packets 5..7 */
  packetize (&w, 0, 5, 100);    /* packet 8 */
  feed (r, w.packets->pdata[0], 0);
  feed (r, w.packets->pdata[3], 1 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 0);
  g_assert_cmpuint (octo_receiver_next_deadline (r), <=, 21 * OCTO_MSECOND);
  feed (r, w.packets->pdata[1], 5 * OCTO_MSECOND);
  feed (r, w.packets->pdata[2], 6 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 2);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 0), ==, 1);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 1), ==, 2);
  for (guint i = 0; i < 2; i++) {
    gsize n;
    const guint8 *d = g_bytes_get_data (sink.payloads->pdata[i], &n);
    guint8 *expect = make_message (i + 1, i == 0 ? 1000 : 100);
    g_assert_cmpmem (d, n, expect, i == 0 ? 1000 : 100);
    g_free (expect);
  }
  feed (r, w.packets->pdata[4], 7 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 3);
  g_assert_cmpuint (st->messages_reordered, ==, 1);

  feed (r, w.packets->pdata[5], 10 * OCTO_MSECOND);
  feed (r, w.packets->pdata[8], 11 * OCTO_MSECOND);
  octo_receiver_on_timer (r, 30 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 3);
  octo_receiver_on_timer (r, 31 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 4);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 3), ==, 5);
  g_assert_cmpuint (st->messages_late, ==, 1);
  g_assert_cmpuint (st->messages_reordered, ==, 2);
  g_assert_cmpuint (st->partial_messages, ==, 0);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

/* The receiver's next deadline at @now once the ACKs due are sent: its
 * waiting messages' (or a partial's timeout). */
static OctoTime
held_deadline (OctoReceiver *r, OctoTime now)
{
  guint8 ack[OCTO_ACK_MAX_LEN];

  while (octo_receiver_poll_ack (r, now, ack, NULL) > 0);
  return octo_receiver_next_deadline (r);
}

/* With a 20 ms reorder wait: message 3 completes while key frame 1, whose
 * sender resends lost packets, lacks its packet 1, and message 2, which is
 * not resent, lacks two.  Message 3 waits past 20 ms, up to the resend
 * wait (250 ms), until the resent packet completes key frame 1 at 200 ms:
 * then 1 goes, and 3 too, its 20 ms for message 2 long over.  Message 5
 * waits for message 4, not resent, 20 ms only; message 7 waits for key
 * frame 6, whose packet never comes, 250 ms and not a moment longer. */
static void
test_a_resent_key_frame_holds_newer_messages (void)
{
  Sink sink;
  OctoReceiver *r = new_reordering_receiver (&sink, 20 * OCTO_MSECOND);
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };
  const OctoReceiverStats *st = octo_receiver_get_stats (r);
  const OctoTime ms = OCTO_MSECOND;
  const guint32 expect_ids[] = { 1, 3, 5, 7 };

  packetize_flags (&w, 0, 1, 1000, OCTO_DATA_FLAG_RESENDS);    /* 0..2 */
  packetize (&w, 0, 2, 1000);   /* packets 3..5 */
  packetize (&w, 0, 3, 100);    /* packet 6 */
  packetize (&w, 0, 4, 1000);   /* packets 7..9 */
  packetize (&w, 0, 5, 100);    /* packet 10 */
  packetize_flags (&w, 0, 6, 1000, OCTO_DATA_FLAG_RESENDS);    /* 11..13 */
  packetize (&w, 0, 7, 100);    /* packet 14 */
  feed (r, w.packets->pdata[0], 0);
  feed (r, w.packets->pdata[2], 0);
  feed (r, w.packets->pdata[3], 0);
  feed (r, w.packets->pdata[6], 1 * ms);
  g_assert_cmpuint (held_deadline (r, 1 * ms), ==, 251 * ms);
  octo_receiver_on_timer (r, 100 * ms);
  g_assert_cmpuint (sink.ids->len, ==, 0);
  feed (r, w.packets->pdata[1], 200 * ms);
  g_assert_cmpuint (sink.ids->len, ==, 2);

  feed (r, w.packets->pdata[7], 210 * ms);
  feed (r, w.packets->pdata[9], 210 * ms);
  feed (r, w.packets->pdata[10], 211 * ms);
  g_assert_cmpuint (held_deadline (r, 211 * ms), ==, 231 * ms);
  octo_receiver_on_timer (r, 231 * ms - 1);
  g_assert_cmpuint (sink.ids->len, ==, 2);
  octo_receiver_on_timer (r, 231 * ms);
  g_assert_cmpuint (sink.ids->len, ==, 3);

  feed (r, w.packets->pdata[11], 300 * ms);
  feed (r, w.packets->pdata[13], 300 * ms);
  feed (r, w.packets->pdata[14], 301 * ms);
  octo_receiver_on_timer (r, 551 * ms - 1);
  g_assert_cmpuint (sink.ids->len, ==, 3);
  octo_receiver_on_timer (r, 551 * ms);
  g_assert_cmpuint (sink.ids->len, ==, 4);
  for (guint i = 0; i < G_N_ELEMENTS (expect_ids); i++) {
    gsize n, len = expect_ids[i] == 1 ? 1000 : 100;
    const guint8 *d = g_bytes_get_data (sink.payloads->pdata[i], &n);
    guint8 *expect = make_message (expect_ids[i], len);

    g_assert_cmpuint (g_array_index (sink.ids, guint32, i), ==, expect_ids[i]);
    g_assert_cmpmem (d, n, expect, len);
    g_free (expect);
  }
  g_assert_cmpuint (st->messages_late, ==, 3);
  g_assert_cmpuint (st->messages_reordered, ==, 3);
  g_assert_cmpuint (st->partial_messages, ==, 0);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

/* A second copy of a waiting message (another seq: a multipath sender
 * resent it over another path) is a duplicate, not a second delivery. */
static void
test_reorder_wait_delivers_a_copy_once (void)
{
  Sink sink;
  OctoReceiver *r = new_reordering_receiver (&sink, 20 * OCTO_MSECOND);
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };

  packetize (&w, 0, 1, 1000);   /* packets 0..2 */
  packetize (&w, 0, 2, 100);    /* packet 3 */
  packetize (&w, 0, 2, 100);    /* packet 4: the same message again */
  feed (r, w.packets->pdata[0], 0);
  feed (r, w.packets->pdata[3], 1 * OCTO_MSECOND);
  feed (r, w.packets->pdata[4], 2 * OCTO_MSECOND);
  feed (r, w.packets->pdata[1], 3 * OCTO_MSECOND);
  feed (r, w.packets->pdata[2], 4 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 2);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 1), ==, 2);
  g_assert_cmpuint (octo_receiver_get_stats (r)->packets_duplicate, ==, 1);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

/* A restarted sender (new connection id) abandons the waiting messages
 * with the partials, and their bytes go back to the shared budget, as on
 * free. */
static void
test_reorder_wait_restart_returns_the_budget (void)
{
  Sink sink;
  OctoPartialBudget budget = { .limit = 1 << 20 };
  OctoReceiverConfig c;
  OctoReceiver *r;
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };

  octo_receiver_config_init (&c);
  c.reorder_wait = 20 * OCTO_MSECOND;
  c.budget = &budget;
  sink_init (&sink);
  r = octo_receiver_new (&c, collect, &sink);
  packetize (&w, 0, 1, 1000);   /* packets 0..2 */
  packetize (&w, 0, 2, 100);    /* packet 3 */
  w.conn_id = 7;
  packetize (&w, 0, 0, 100);    /* packet 4: the new connection's first */
  packetize (&w, 0, 1, 1000);   /* packets 5..7 */
  packetize (&w, 0, 2, 100);    /* packet 8 */
  feed (r, w.packets->pdata[0], 0);
  feed (r, w.packets->pdata[3], 1 * OCTO_MSECOND);
  g_assert_cmpuint (octo_receiver_get_stats (r)->waiting_messages, ==, 1);
  g_assert_cmpuint (budget.held, >, 1000);
  feed (r, w.packets->pdata[4], 2 * OCTO_MSECOND);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_abandoned, ==, 2);
  g_assert_cmpuint (octo_receiver_get_stats (r)->waiting_messages, ==, 0);
  g_assert_cmpuint (budget.held, ==, 0);
  g_assert_cmpuint (sink.ids->len, ==, 1);
  feed (r, w.packets->pdata[5], 3 * OCTO_MSECOND);
  feed (r, w.packets->pdata[8], 4 * OCTO_MSECOND);
  g_assert_cmpuint (octo_receiver_get_stats (r)->waiting_messages, ==, 1);
  g_assert_cmpuint (budget.held, >, 1000);
  octo_receiver_free (r);
  g_assert_cmpuint (budget.held, ==, 0);
  sink_clear (&sink);
  g_ptr_array_unref (w.packets);
}

/* The timer releases a waiting message as soon as the partial it waited
 * for times out, whatever other streams wait for: stream 0's message 2
 * waits for a partial that times out at 15 ms, stream 5's for one that
 * times out at 10 ms; at 12 ms stream 5's goes. */
static void
test_reorder_wait_ends_with_the_partial_it_waited_for (void)
{
  Sink sink;
  OctoReceiverConfig c;
  OctoReceiver *r;
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };

  octo_receiver_config_init (&c);
  c.reorder_wait = 100 * OCTO_MSECOND;
  c.timeout = 10 * OCTO_MSECOND;
  sink_init (&sink);
  r = octo_receiver_new (&c, collect, &sink);
  packetize (&w, 5, 1, 1000);   /* packets 0..2 */
  packetize (&w, 0, 1, 1000);   /* packets 3..5 */
  packetize (&w, 0, 2, 100);    /* packet 6 */
  packetize (&w, 5, 2, 100);    /* packet 7 */
  feed (r, w.packets->pdata[0], 0);
  feed (r, w.packets->pdata[3], 5 * OCTO_MSECOND);
  feed (r, w.packets->pdata[6], 6 * OCTO_MSECOND);
  feed (r, w.packets->pdata[7], 7 * OCTO_MSECOND);
  octo_receiver_on_timer (r, 12 * OCTO_MSECOND);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_timed_out, ==, 1);
  g_assert_cmpuint (sink.ids->len, ==, 1);
  g_assert_cmpuint (octo_receiver_get_stats (r)->waiting_messages, ==, 1);
  octo_receiver_free (r);
  sink_clear (&sink);
  g_ptr_array_unref (w.packets);
}

/* Waiting messages are released oldest first whatever order they
 * completed in, and one whose wait ended takes every older one with it:
 * partial 1 pending, 3 completes (waits until 21 ms), then 2 (waits until
 * 25 ms); at 21 ms 2 and 3 go, in order, and 1 is late.  A message that
 * would pass the memory cap goes at once, with the older waiting ones:
 * partial 4 holds 1500 of 2500 bytes, 5 (800) waits, 6 (300) would make
 * 2600.  A receiver freed while a message waits frees it (ASan checks). */
static void
test_reorder_wait_is_ordered_and_bounded (void)
{
  Sink sink;
  OctoReceiverConfig c;
  OctoReceiver *r;
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };
  static const gsize sizes[] = { 1000, 100, 100, 1500, 800, 300, 1000, 100 };
  guint first[G_N_ELEMENTS (sizes) + 2];

  octo_receiver_config_init (&c);
  c.reorder_wait = 20 * OCTO_MSECOND;
  c.max_partial_bytes = 2500;
  sink_init (&sink);
  r = octo_receiver_new (&c, collect, &sink);
  /* message i + 1's packets start at first[i + 1] */
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    first[i + 1] = w.packets->len;
    packetize (&w, 0, i + 1, sizes[i]);
  }
  g_assert_cmpuint (first[7] - first[6], ==, 1);
  feed (r, w.packets->pdata[first[1]], 0);
  feed (r, w.packets->pdata[first[3]], 1 * OCTO_MSECOND);
  feed (r, w.packets->pdata[first[2]], 5 * OCTO_MSECOND);
  octo_receiver_on_timer (r, 20 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 0);
  octo_receiver_on_timer (r, 21 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 2);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 0), ==, 2);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 1), ==, 3);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_late, ==, 1);

  feed (r, w.packets->pdata[first[4]], 30 * OCTO_MSECOND);
  for (guint i = first[5]; i < first[6]; i++)
    feed (r, w.packets->pdata[i], 31 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 2);
  feed (r, w.packets->pdata[first[6]], 32 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 4);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 2), ==, 5);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 3), ==, 6);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_late, ==, 2);

  feed (r, w.packets->pdata[first[7]], 40 * OCTO_MSECOND);
  feed (r, w.packets->pdata[first[8]], 41 * OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 4);
  octo_receiver_free (r);
  sink_clear (&sink);
  g_ptr_array_unref (w.packets);
}

static void
test_partial_overtaken_by_newer_message_is_given_up (void)
{
  Sink sink;
  OctoReceiver *r = new_receiver (&sink);
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };

  packetize (&w, 0, 1, 1000);   /* packets 0..2 */
  packetize (&w, 0, 2, 100);    /* packet 3 */
  packetize (&w, 5, 1, 1000);   /* other stream: packets 4..6 */
  feed (r, w.packets->pdata[0], 0);
  feed (r, w.packets->pdata[4], 0);
  g_assert_cmpuint (octo_receiver_get_stats (r)->partial_messages, ==, 2);
  feed (r, w.packets->pdata[3], 0);
  /* Stream 0's message 1 can never be delivered now; stream 5's can. */
  g_assert_cmpuint (octo_receiver_get_stats (r)->partial_messages, ==, 1);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_late, ==, 1);
  feed (r, w.packets->pdata[5], 0);
  feed (r, w.packets->pdata[6], 0);
  g_assert_cmpuint (sink.ids->len, ==, 2);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

static void
test_incomplete_message_times_out (void)
{
  Sink sink;
  OctoReceiver *r = new_receiver (&sink);
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };

  packetize (&w, 0, 1, 1000);
  feed (r, w.packets->pdata[0], 0);
  g_assert_cmpuint (octo_receiver_next_deadline (r), <=,
      OCTO_RECEIVER_DEFAULT_TIMEOUT);
  octo_receiver_on_timer (r, OCTO_RECEIVER_DEFAULT_TIMEOUT - 1);
  g_assert_cmpuint (octo_receiver_get_stats (r)->partial_messages, ==, 1);
  octo_receiver_on_timer (r, OCTO_RECEIVER_DEFAULT_TIMEOUT);
  g_assert_cmpuint (octo_receiver_get_stats (r)->partial_messages, ==, 0);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_timed_out, ==, 1);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

/* A flood of first fragments of random, never-completed messages claiming
 * random lengths: the receiver stays within both caps throughout and a
 * legitimate message still gets through afterwards. */
static void
test_memory_cap_holds_under_partial_flood (void)
{
  OctoReceiverConfig c;
  Sink sink;
  GRand *rand = g_rand_new_with_seed (3);
  guint8 pkt[MTU];

  octo_receiver_config_init (&c);
  c.max_partial_messages = 64;
  c.max_partial_bytes = 4 * 1024 * 1024;
  sink_init (&sink);
  OctoReceiver *r = octo_receiver_new (&c, collect, &sink);

  for (guint i = 0; i < 20000; i++) {
    OctoHeader h = { 0 };
    OctoMsgInfo info;
    guint8 body[3 * 368] = { 0 };
    guint32 len = g_rand_int_range (rand, 2 * MTU, 8 * 1024 * 1024);
    guint32 count = octo_fragment_count (len, MTU);

    octo_msg_info_init (&info);
    h.stream_id = g_rand_int_range (rand, 0, 4);
    h.msg_id = g_rand_int (rand);
    /* Any fragment but the last, so none completes: take fragment 0 or 1
     * of a 3-fragment message and patch in the claimed length and place. */
    guint32 idx = g_rand_int_range (rand, 0, count - 1);
    gsize n = octo_fragment_write (&h, &info, body, 3 * 368, MTU,
        MIN (idx, 1), 3, pkt);
    guint8 *f = pkt + OCTO_WIRE_HEADER_LEN;
    guint32 offset = idx == 0 ? 0 : 348 + (idx - 1) * 368;
    f[8] = len >> 24; f[9] = len >> 16; f[10] = len >> 8; f[11] = len;
    f[12] = offset >> 24; f[13] = offset >> 16; f[14] = offset >> 8;
    f[15] = offset;
    f[16] = idx >> 8; f[17] = idx; f[18] = count >> 8; f[19] = count;
    octo_data_stamp (pkt, 0, i, 0);
    octo_receiver_on_packet (r, pkt, n, i * OCTO_USECOND);
    const OctoReceiverStats *st = octo_receiver_get_stats (r);
    g_assert_cmpuint (st->partial_messages, <=, c.max_partial_messages);
    g_assert_cmpuint (st->partial_bytes, <=, c.max_partial_bytes);
  }
  const OctoReceiverStats *st = octo_receiver_get_stats (r);
  g_assert_cmpuint (st->messages_evicted + st->messages_too_large, >, 10000);
  g_assert_cmpuint (sink.ids->len, ==, 0);

  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
    30000, 0
  };
  packetize (&w, 9, 1, 3000);
  for (guint i = 0; i < w.packets->len; i++)
    feed (r, w.packets->pdata[i], OCTO_SECOND / 10);
  g_assert_cmpuint (sink.ids->len, ==, 1);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
  g_rand_free (rand);
}

/* Padding (a probe, msg_id 1, between messages 0 and 2 of its stream) is
 * acknowledged but never delivered, and makes nothing late. */
static void
test_padding_is_acknowledged_and_discarded (void)
{
  Sink sink;
  OctoReceiver *r = new_receiver (&sink);
  OctoHeader h = { .msg_id = 1, .priority = 7 };
  OctoMsgInfo info;
  guint8 payload[64] = { 0 }, pkt[MTU], ack_bytes[OCTO_ACK_MAX_LEN];
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };
  OctoAck ack;

  packetize (&w, 0, 0, 100);
  octo_msg_info_init (&info);
  info.flags = OCTO_MSG_FLAG_PADDING;
  gsize n = octo_fragment_write (&h, &info, payload, sizeof (payload), MTU,
      0, 1, pkt);
  octo_data_stamp (pkt, 0, w.seq++, 0);
  g_ptr_array_add (w.packets, g_bytes_new (pkt, n));
  packetize (&w, 0, 2, 100);
  for (guint i = 0; i < w.packets->len; i++)
    feed (r, g_ptr_array_index (w.packets, i), i * OCTO_MSECOND);

  g_assert_cmpuint (sink.ids->len, ==, 2);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 0), ==, 0);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 1), ==, 2);
  g_assert_cmpuint (octo_receiver_get_stats (r)->padding_packets, ==, 1);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_late, ==, 0);
  /* the ACK covers every seq, the padding's included */
  gsize len = octo_receiver_poll_ack (r, OCTO_SECOND, ack_bytes, NULL);
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpint (octo_ack_parse (ack_bytes, len, &ack), ==, OCTO_ACK_OK);
  g_assert_cmpuint (ack.n_ranges, ==, 1);
  g_assert_cmpuint (ack.ranges[0].first, ==, 0);
  g_assert_cmpuint (ack.ranges[0].last, ==, w.seq - 1);

  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

/* Every ACK carries the arrival time of the newest packet it names, on the
 * receiver's clock in us; with ack_timestamps off (a sender older than the
 * stamp) the ACK is as before it: no flag, 16 + 8 bytes for one range. */
static void
test_acks_carry_the_newest_arrival (void)
{
  for (guint stamped = 0; stamped < 2; stamped++) {
    Sink sink;
    OctoReceiverConfig c;
    Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
      0, 0 };
    guint8 ack_bytes[OCTO_ACK_MAX_LEN];
    OctoAck ack;
    gsize len;

    octo_receiver_config_init (&c);
    c.ack_timestamps = stamped;
    sink_init (&sink);
    OctoReceiver *r = octo_receiver_new (&c, collect, &sink);
    packetize (&w, 0, 0, 100);
    packetize (&w, 0, 1, 100);
    feed (r, g_ptr_array_index (w.packets, 0), 7 * OCTO_SECOND + 5);
    feed (r, g_ptr_array_index (w.packets, 1), 7 * OCTO_SECOND +
        250 * OCTO_USECOND);
    len = octo_receiver_poll_ack (r, 7 * OCTO_SECOND + OCTO_MSECOND,
        ack_bytes, NULL);
    g_assert_cmpuint (len, ==, stamped ? 16 + 8 + 4 : 16 + 8);
    g_assert_cmpint (octo_ack_parse (ack_bytes, len, &ack), ==, OCTO_ACK_OK);
    g_assert_cmpuint (ack.ranges[0].last, ==, 1);
    g_assert_cmpuint (ack.flags, ==, stamped ? OCTO_ACK_FLAG_TIMESTAMPS : 0);
    g_assert_cmpuint (ack.arrival_us, ==, stamped ? 7000250 : 0);
    g_assert_cmpuint (ack.ack_delay_us, ==, 750);
    g_ptr_array_unref (w.packets);
    octo_receiver_free (r);
    sink_clear (&sink);
  }
}

/* A key-frame request rides on every ACK of the next
 * OCTO_RECEIVER_KEYFRAME_REQUEST_SPAN, and on none after it. */
static void
test_keyframe_request_rides_on_acks_for_its_span (void)
{
  Sink sink;
  OctoReceiver *r = new_receiver (&sink);
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };
  guint8 ack_bytes[OCTO_ACK_MAX_LEN];
  const OctoTime request = 100 * OCTO_MSECOND;
  /* one more message arrives at each of these ms, and its ACK is polled
   * 1 ms later (the acker's delay): the span ends at 300 ms */
  const OctoTime at[] = { 50, 100, 150, 298, 299, 400 };
  const gboolean asks[] = { FALSE, TRUE, TRUE, TRUE, FALSE, FALSE };
  OctoAck ack;

  for (guint i = 0; i < G_N_ELEMENTS (at); i++) {
    OctoTime now = at[i] * OCTO_MSECOND;
    gsize len;

    packetize (&w, 0, i, 100);
    feed (r, g_ptr_array_index (w.packets, i), now);
    if (now == request)
      octo_receiver_request_keyframe (r, now);
    len = octo_receiver_poll_ack (r, now + OCTO_ACKER_DEFAULT_DELAY, ack_bytes,
        NULL);
    g_assert_cmpuint (len, >, 0);
    g_assert_cmpint (octo_ack_parse (ack_bytes, len, &ack), ==, OCTO_ACK_OK);
    g_assert_cmpuint (! !(ack.flags & OCTO_ACK_FLAG_KEYFRAME_REQUEST), ==,
        asks[i]);
    g_assert_cmpuint (ack.flags & ~OCTO_ACK_FLAG_KEYFRAME_REQUEST, ==,
        OCTO_ACK_FLAG_TIMESTAMPS);
  }
  g_assert_cmpuint (octo_receiver_get_stats (r)->keyframe_requests, ==, 1);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

/* Sixteen senders' receivers share one budget: fragments of messages far
 * larger than it never make them hold more than it together, a receiver
 * whose partials the others crowd out is refused (and counted), and every
 * byte comes back once the partials time out or a receiver is freed. */
static void
test_shared_budget_bounds_all_senders_and_is_released (void)
{
  OctoPartialBudget budget = { .limit = 1024 * 1024 };
  OctoReceiverConfig c;
  OctoReceiver *r[16];
  Sink sink[16];
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };
  guint64 refused = 0;

  octo_receiver_config_init (&c);
  c.budget = &budget;
  for (guint i = 0; i < G_N_ELEMENTS (r); i++) {
    sink_init (&sink[i]);
    r[i] = octo_receiver_new (&c, collect, &sink[i]);
  }
  /* Four 200 KB messages per sender, only their first ten fragments. */
  for (guint id = 0; id < 4; id++) {
    for (guint i = 0; i < G_N_ELEMENTS (r); i++) {
      g_ptr_array_set_size (w.packets, 0);
      packetize (&w, 0, id, 200 * 1000);
      for (guint f = 0; f < 10; f++) {
        feed (r[i], w.packets->pdata[f], id * OCTO_MSECOND);
        guint64 held = 0;
        for (guint j = 0; j < G_N_ELEMENTS (r); j++)
          held += octo_receiver_get_stats (r[j])->partial_bytes;
        g_assert_cmpuint (held, ==, budget.held);
        g_assert_cmpuint (budget.held, <=, budget.limit);
      }
    }
  }
  for (guint i = 0; i < G_N_ELEMENTS (r); i++)
    refused += octo_receiver_get_stats (r[i])->messages_refused;
  g_assert_cmpuint (refused, >, 0);
  g_assert_cmpuint (budget.held, >, budget.limit / 2);

  /* Past the timeout every partial is given up and its bytes returned. */
  for (guint i = 0; i < G_N_ELEMENTS (r); i++) {
    octo_receiver_on_timer (r[i], 3 * OCTO_MSECOND + c.timeout);
    g_assert_cmpuint (octo_receiver_get_stats (r[i])->partial_bytes, ==, 0);
  }
  g_assert_cmpuint (budget.held, ==, 0);

  /* The budget serves again; a freed receiver returns what it held. */
  g_ptr_array_set_size (w.packets, 0);
  packetize (&w, 0, 10, 200 * 1000);
  for (guint f = 0; f < 10; f++)
    feed (r[0], w.packets->pdata[f], 2 * OCTO_SECOND);
  g_assert_cmpuint (budget.held, ==, 200 * 1000);
  for (guint i = 0; i < G_N_ELEMENTS (r); i++) {
    g_assert_cmpuint (sink[i].ids->len, ==, 0);
    octo_receiver_free (r[i]);
    sink_clear (&sink[i]);
  }
  g_assert_cmpuint (budget.held, ==, 0);
  g_ptr_array_unref (w.packets);
}

/* A message larger than the shared budget is refused as too large. */
static void
test_message_above_budget_is_too_large (void)
{
  OctoPartialBudget budget = { .limit = 10000 };
  OctoReceiverConfig c;
  Sink sink;
  Wire w = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref), 0, 0 };

  octo_receiver_config_init (&c);
  c.budget = &budget;
  sink_init (&sink);
  OctoReceiver *r = octo_receiver_new (&c, collect, &sink);
  packetize (&w, 0, 0, 20000);
  packetize (&w, 0, 1, 5000);
  for (guint i = 0; i < w.packets->len; i++)
    feed (r, w.packets->pdata[i], 0);
  g_assert_cmpuint (sink.ids->len, ==, 1);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 0), ==, 1);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_too_large, >, 0);
  g_assert_cmpuint (budget.held, ==, 0);
  g_ptr_array_unref (w.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

/* A sender killed and restarted on the same address and port: the old
 * connection delivered msg ids up to 40 with seqs from its ISN; the new one
 * starts again at msg id 0 and, worst case, at the same seqs.  Its first
 * message is delivered the moment it completes, its ACKs echo its id and
 * acknowledge only its own packets, and a late packet of the old
 * connection neither is delivered nor turns the receiver back. */
static void
test_restarted_sender_is_a_new_connection (void)
{
  Sink sink;
  OctoReceiver *r = new_receiver (&sink);
  Wire old = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
    1000, 0x11111111 };
  Wire new = { g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref),
    1000, 0x22222222 };
  guint8 ack_bytes[OCTO_ACK_MAX_LEN];
  OctoTime now = 0;
  OctoAck ack;

  for (guint32 id = 0; id <= 40; id++)
    packetize (&old, 0, id, 1000);
  packetize (&old, 0, 41, 1000);        /* 3 packets: its last is lost */
  for (guint i = 0; i + 1 < old.packets->len; i++)
    feed (r, old.packets->pdata[i], now += OCTO_MSECOND);
  g_assert_cmpuint (sink.ids->len, ==, 41);
  g_assert_cmpuint (octo_receiver_get_stats (r)->partial_messages, ==, 1);

  packetize (&new, 0, 0, 1000);
  packetize (&new, 0, 1, 100);
  feed (r, new.packets->pdata[0], now += OCTO_MSECOND);
  feed (r, new.packets->pdata[1], now);
  g_assert_cmpuint (sink.ids->len, ==, 41);
  feed (r, new.packets->pdata[2], now);
  g_assert_cmpuint (sink.ids->len, ==, 42);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 41), ==, 0);

  const OctoReceiverStats *st = octo_receiver_get_stats (r);
  g_assert_cmpuint (st->connections_replaced, ==, 1);
  g_assert_cmpuint (st->messages_abandoned, ==, 1);
  g_assert_cmpuint (st->partial_messages, ==, 0);
  g_assert_cmpuint (st->packets_duplicate, ==, 0);

  gsize len = octo_receiver_poll_ack (r, now + OCTO_SECOND, ack_bytes, NULL);
  g_assert_cmpint (octo_ack_parse (ack_bytes, len, &ack), ==, OCTO_ACK_OK);
  g_assert_cmpuint (ack.conn_id, ==, 0x22222222);
  g_assert_cmpuint (ack.n_ranges, ==, 1);
  g_assert_cmpuint (ack.ranges[0].first, ==, 1000);
  g_assert_cmpuint (ack.ranges[0].last, ==, 1002);

  /* The old connection's lost packet arrives late. */
  feed (r, old.packets->pdata[old.packets->len - 1], now += OCTO_MSECOND);
  g_assert_cmpuint (st->packets_stale, ==, 1);
  g_assert_cmpuint (st->connections_replaced, ==, 1);
  feed (r, new.packets->pdata[3], now);
  g_assert_cmpuint (sink.ids->len, ==, 43);
  g_assert_cmpuint (g_array_index (sink.ids, guint32, 42), ==, 1);
  g_assert_cmpuint (st->connections_replaced, ==, 1);

  g_ptr_array_unref (old.packets);
  g_ptr_array_unref (new.packets);
  octo_receiver_free (r);
  sink_clear (&sink);
}

typedef struct {
  guint layers_sent, layers_delivered;
  guint32 layer_len[OCTO_CHUNKS_MAX];
  GBytes *data;
} Layered;

static void
collect_layered (OctoMessage *msg, gpointer user_data)
{
  Layered *out = user_data;
  out->layers_sent = msg->layers_sent;
  out->layers_delivered = msg->layers_delivered;
  memcpy (out->layer_len, msg->layer_len, sizeof out->layer_len);
  out->data = g_bytes_new_take (msg->data, msg->len);
}

/* One frame's Q0 | Q1 | Q2 as qualitative packets, fragment 1 trimmed by
 * @trim chunks on the way. */
static void
receive_layered_frame (guint trim, Layered *out, guint8 *msg,
    OctoReceiverStats *stats, GArray *nacks)
{
  const guint32 lens[] = { 900, 600, 300 };
  OctoReceiverConfig config;
  OctoQLayout layout;
  OctoHeader h = {.stream_id = 1,.msg_id = 4 };
  OctoMsgInfo info;
  guint8 pkt[MTU];

  for (guint i = 0; i < 1800; i++)
    msg[i] = (guint8) (i * 11 + i / 900);
  octo_receiver_config_init (&config);
  OctoReceiver *r = octo_receiver_new (&config, collect_layered, out);
  octo_qlayout_layered (&layout, lens, 3);
  octo_msg_info_init (&info);
  guint32 count = octo_qpacket_count (&layout, MTU);
  g_assert_cmpuint (count, ==, 6);
  for (guint32 j = 0; j < count; j++) {
    gsize n = octo_qpacket_write (&h, &info, &layout, msg, MTU, j, count,
        pkt);
    octo_data_stamp (pkt, 0x77, 50 + j, 0);
    if (j == 1 && trim > 0) {
      guint cut;
      g_assert_true (octo_chunks_trim (pkt, &n, trim, &cut));
    }
    g_assert_cmpint (octo_receiver_on_packet (r, pkt, n, j * OCTO_MSECOND),
        ==, OCTO_DATA_OK);
    guint8 nack[OCTO_NACK_LEN];
    while (octo_receiver_poll_nack (r, nack, NULL) == OCTO_NACK_LEN) {
      OctoNack parsed;
      g_assert_cmpint (octo_nack_parse (nack, OCTO_NACK_LEN, &parsed), ==,
          OCTO_NACK_OK);
      g_array_append_val (nacks, parsed);
    }
  }
  *stats = *octo_receiver_get_stats (r);
  octo_receiver_free (r);
}

/* A trimmed fragment of a message already passed by a newer one is late
 * (not reassembled) but still NACKed: the trim is a congestion signal. */
static void
test_trimmed_fragment_of_a_late_message_is_still_nacked (void)
{
  const guint32 lens[] = { 900, 600, 300 };
  guint8 msg[1800] = { 0 }, pkt[MTU], nack[OCTO_NACK_LEN];
  OctoReceiverConfig config;
  OctoQLayout layout;
  OctoHeader newer = {.stream_id = 1,.msg_id = 5 };
  OctoHeader older = {.stream_id = 1,.msg_id = 4 };
  OctoMsgInfo info;
  OctoNack parsed;
  Layered out = { 0 };
  guint cut;

  octo_receiver_config_init (&config);
  OctoReceiver *r = octo_receiver_new (&config, collect_layered, &out);
  octo_msg_info_init (&info);
  gsize n = octo_fragment_write (&newer, &info, msg, 100, MTU, 0, 1, pkt);
  octo_data_stamp (pkt, 0x77, 10, 0);
  g_assert_cmpint (octo_receiver_on_packet (r, pkt, n, 0), ==, OCTO_DATA_OK);
  g_assert_nonnull (out.data);

  octo_qlayout_layered (&layout, lens, 3);
  n = octo_qpacket_write (&older, &info, &layout, msg, MTU, 1,
      octo_qpacket_count (&layout, MTU), pkt);
  octo_data_stamp (pkt, 0x77, 11, 0);
  g_assert_true (octo_chunks_trim (pkt, &n, 2, &cut));
  g_assert_cmpint (octo_receiver_on_packet (r, pkt, n, OCTO_MSECOND), ==,
      OCTO_DATA_OK);
  g_assert_cmpuint (octo_receiver_get_stats (r)->packets_late, ==, 1);
  g_assert_cmpuint (octo_receiver_poll_nack (r, nack, NULL), ==, OCTO_NACK_LEN);
  g_assert_cmpint (octo_nack_parse (nack, OCTO_NACK_LEN, &parsed), ==,
      OCTO_NACK_OK);
  g_assert_cmpuint (parsed.seq, ==, 11);
  g_assert_cmpuint (parsed.trimmed, ==, 2);
  g_bytes_unref (out.data);
  octo_receiver_free (r);
}

static void
test_trimmed_frame_is_delivered_at_a_lower_layer_and_nacked (void)
{
  guint8 msg[1800];
  OctoReceiverStats st;
  GArray *nacks = g_array_new (FALSE, FALSE, sizeof (OctoNack));

  Layered whole = { 0 };
  receive_layered_frame (0, &whole, msg, &st, nacks);
  g_assert_cmpuint (whole.layers_sent, ==, 3);
  g_assert_cmpuint (whole.layers_delivered, ==, 3);
  g_assert_cmpmem (g_bytes_get_data (whole.data, NULL),
      g_bytes_get_size (whole.data), msg, 1800);
  g_assert_cmpuint (nacks->len, ==, 0);
  g_assert_cmpuint (st.packets_qualitative, ==, 6);

  Layered lower = { 0 };
  receive_layered_frame (1, &lower, msg, &st, nacks);
  g_assert_cmpuint (lower.layers_delivered, ==, 2);
  g_assert_cmpuint (lower.layer_len[0], ==, 900);
  g_assert_cmpuint (lower.layer_len[1], ==, 600);
  g_assert_cmpuint (lower.layer_len[2], ==, 0);
  g_assert_cmpmem (g_bytes_get_data (lower.data, NULL),
      g_bytes_get_size (lower.data), msg, 1500);
  g_assert_cmpuint (nacks->len, ==, 1);
  g_assert_cmpuint (g_array_index (nacks, OctoNack, 0).seq, ==, 51);
  g_assert_cmpuint (g_array_index (nacks, OctoNack, 0).conn_id, ==, 0x77);
  g_assert_cmpuint (g_array_index (nacks, OctoNack, 0).trimmed, ==, 1);
  g_assert_cmpuint (st.messages_lower_layers, ==, 1);
  g_assert_cmpuint (st.nacks_sent, ==, 1);

  /* cut to the header: no layer is whole, the frame is given up */
  Layered none = { 0 };
  g_array_set_size (nacks, 0);
  receive_layered_frame (3, &none, msg, &st, nacks);
  g_assert_null (none.data);
  g_assert_cmpuint (st.messages_unusable, ==, 1);
  g_assert_cmpuint (g_array_index (nacks, OctoNack, 0).trimmed, ==, 3);
  g_assert_cmpuint (st.chunks_trimmed, ==, 3);

  g_bytes_unref (whole.data);
  g_bytes_unref (lower.data);
  g_array_free (nacks, TRUE);
}

/* An all-bits-equal message has no layers to hand over apart: it arrives
 * whole, as an ordinary message does. */
static void
test_equal_stripes_arrive_as_one_message_without_layers (void)
{
  guint8 msg[3000], pkt[MTU];
  OctoReceiverConfig config;
  OctoQLayout layout;
  OctoHeader h = {.stream_id = 1,.msg_id = 2 };
  OctoMsgInfo info;
  Layered out = { 0 };

  for (guint i = 0; i < sizeof msg; i++)
    msg[i] = (guint8) (i * 13);
  octo_receiver_config_init (&config);
  OctoReceiver *r = octo_receiver_new (&config, collect_layered, &out);
  g_assert_true (octo_qlayout_equal (&layout, sizeof msg, 3));
  octo_msg_info_init (&info);
  guint32 count = octo_qpacket_count (&layout, MTU);
  for (guint32 j = 0; j < count; j++) {
    gsize n = octo_qpacket_write (&h, &info, &layout, msg, MTU, j, count,
        pkt);
    octo_data_stamp (pkt, 0x77, j, 0);
    g_assert_cmpint (octo_receiver_on_packet (r, pkt, n, 0), ==,
        OCTO_DATA_OK);
  }
  g_assert_nonnull (out.data);
  g_assert_cmpmem (g_bytes_get_data (out.data, NULL),
      g_bytes_get_size (out.data), msg, sizeof msg);
  g_assert_cmpuint (out.layers_sent, ==, 0);
  g_assert_cmpuint (out.layers_delivered, ==, 0);
  g_bytes_unref (out.data);
  octo_receiver_free (r);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/receiver/acks-carry-the-newest-arrival",
      test_acks_carry_the_newest_arrival);
  g_test_add_func ("/transport/receiver/in-order-messages-delivered-byte-exact",
      test_in_order_messages_delivered_byte_exact);
  g_test_add_func
      ("/transport/receiver/reassembly-under-loss-reordering-and-duplication",
      test_reassembly_under_loss_reordering_and_duplication);
  g_test_add_func ("/transport/receiver/reorder-wait-delivers-in-order",
      test_reorder_wait_delivers_in_order);
  g_test_add_func ("/transport/receiver/a-resent-key-frame-holds-newer-messages",
      test_a_resent_key_frame_holds_newer_messages);
  g_test_add_func ("/transport/receiver/reorder-wait-delivers-a-copy-once",
      test_reorder_wait_delivers_a_copy_once);
  g_test_add_func ("/transport/receiver/reorder-wait-restart-returns-the-budget",
      test_reorder_wait_restart_returns_the_budget);
  g_test_add_func
      ("/transport/receiver/reorder-wait-ends-with-the-partial-it-waited-for",
      test_reorder_wait_ends_with_the_partial_it_waited_for);
  g_test_add_func ("/transport/receiver/reorder-wait-is-ordered-and-bounded",
      test_reorder_wait_is_ordered_and_bounded);
  g_test_add_func ("/transport/receiver/late-message-is-discarded-and-counted",
      test_late_message_is_discarded_and_counted);
  g_test_add_func
      ("/transport/receiver/partial-overtaken-by-newer-message-is-given-up",
      test_partial_overtaken_by_newer_message_is_given_up);
  g_test_add_func ("/transport/receiver/incomplete-message-times-out",
      test_incomplete_message_times_out);
  g_test_add_func ("/transport/receiver/memory-cap-holds-under-partial-flood",
      test_memory_cap_holds_under_partial_flood);
  g_test_add_func ("/transport/receiver/padding-is-acknowledged-and-discarded",
      test_padding_is_acknowledged_and_discarded);
  g_test_add_func
      ("/transport/receiver/shared-budget-bounds-all-senders-and-is-released",
      test_shared_budget_bounds_all_senders_and_is_released);
  g_test_add_func ("/transport/receiver/message-above-budget-is-too-large",
      test_message_above_budget_is_too_large);
  g_test_add_func
      ("/transport/receiver/trimmed-fragment-of-a-late-message-is-still-nacked",
      test_trimmed_fragment_of_a_late_message_is_still_nacked);
  g_test_add_func
      ("/transport/receiver/trimmed-frame-is-delivered-at-a-lower-layer-and-nacked",
      test_trimmed_frame_is_delivered_at_a_lower_layer_and_nacked);
  g_test_add_func ("/transport/receiver/restarted-sender-is-a-new-connection",
      test_restarted_sender_is_a_new_connection);
  g_test_add_func
      ("/transport/receiver/equal-stripes-arrive-as-one-message-without-layers",
      test_equal_stripes_arrive_as_one_message_without_layers);
  g_test_add_func ("/transport/receiver/keyframe-request-rides-on-acks",
      test_keyframe_request_rides_on_acks_for_its_span);
  return g_test_run ();
}
