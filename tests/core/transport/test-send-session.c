/* The senders' skeleton: a send session (buffer + path) with a scripted
 * controller plugged in, on a virtual clock. */
#include "transport/octo-send-session.h"

#define MS OCTO_MSECOND

/* A controller whose answers the test sets, counting what it is told. */
typedef struct {
  OctoCc cc;
  guint64 pacing_rate, bandwidth, cwnd;
  gboolean draining, searching;
  guint sends, acks;
  guint64 bytes_acked;
} ScriptCc;

static void
script_free (OctoCc *cc)
{
  g_free (cc);
}

static void
script_on_send (OctoCc *cc, guint64 seq, guint64 inflight,
    gboolean app_limited, OctoTime now)
{
  (void) seq;
  (void) inflight;
  (void) app_limited;
  (void) now;
  ((ScriptCc *) cc)->sends++;
}

static void
script_on_ack (OctoCc *cc, const OctoRateSample *rs, guint64 delivered,
    guint64 inflight, OctoTime now)
{
  ScriptCc *s = (ScriptCc *) cc;

  (void) delivered;
  (void) inflight;
  (void) now;
  s->acks++;
  s->bytes_acked += rs->newly_acked;
}

static guint64
script_pacing_rate (const OctoCc *cc)
{
  return ((const ScriptCc *) cc)->pacing_rate;
}

static guint64
script_bandwidth (const OctoCc *cc)
{
  return ((const ScriptCc *) cc)->bandwidth;
}

static guint64
script_cwnd (const OctoCc *cc)
{
  return ((const ScriptCc *) cc)->cwnd;
}

static gboolean
script_probing (const OctoCc *cc)
{
  (void) cc;
  return FALSE;
}

static gboolean
script_draining (const OctoCc *cc)
{
  return ((const ScriptCc *) cc)->draining;
}

static gboolean
script_searching (const OctoCc *cc)
{
  return ((const ScriptCc *) cc)->searching;
}

static const gchar *
script_state (const OctoCc *cc)
{
  (void) cc;
  return "scripted";
}

static const OctoCcOps script_ops = {
  .free = script_free,
  .on_send = script_on_send,
  .on_ack = script_on_ack,
  .pacing_rate = script_pacing_rate,
  .bandwidth = script_bandwidth,
  .cwnd = script_cwnd,
  .probing = script_probing,
  .draining = script_draining,
  .searching = script_searching,
  .state = script_state,
};

static ScriptCc *
script_new (guint64 pacing_rate, guint64 bandwidth, guint64 cwnd)
{
  ScriptCc *s = g_new0 (ScriptCc, 1);

  s->cc.ops = &script_ops;
  s->pacing_rate = pacing_rate;
  s->bandwidth = bandwidth;
  s->cwnd = cwnd;
  return s;
}

typedef struct {
  guint dropped;
} Drops;

static void
count_drop (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  (void) packet;
  (void) reason;
  ((Drops *) user_data)->dropped++;
}

static OctoSendSession *
session_new (ScriptCc *cc, guint64 max_rate, guint64 initial_rate,
    Drops *drops)
{
  OctoSendSessionConfig sc = {
    .buffer_bytes = OCTO_ENGINE_DEFAULT_LIMIT_BYTES,
    .rules = TRUE,
    .drop_func = count_drop,
    .user_data = drops,
  };
  OctoSendPathConfig pc = {
    .max_rate = max_rate,
    .initial_rate = initial_rate,
  };

  return octo_send_session_new (&sc, octo_send_path_new (&pc, &cc->cc));
}

/* Queues a one-packet message of @size link bytes. */
static void
enqueue (OctoSendSession *s, guint32 msg_id, guint32 size,
    guint64 bitrate_threshold, OctoTime now)
{
  OctoPacket p = {
    .size = size,
    .tagged = TRUE,
    .header = {
      .msg_id = msg_id,
      .link_bitrate_threshold_bps = bitrate_threshold,
      .first = TRUE,
      .last = TRUE,
    },
  };

  g_assert_true (octo_send_session_enqueue (s, &p, now));
}

static OctoSendNext
next (OctoSendSession *s, OctoTime now, OctoTime *wake)
{
  OctoPacket p;

  *wake = OCTO_TIME_NONE;
  return octo_send_session_dequeue (s, now, &p, wake);
}

/* Sends one tracked packet of @size at @now; returns when the next may go. */
static OctoTime
send_one_then_wake (OctoSendSession *s, guint32 size, OctoTime now)
{
  OctoTime wake;

  g_assert_cmpint (next (s, now, &wake), ==, OCTO_SEND_PACKET);
  octo_send_session_on_sent (s, size, TRUE, now);
  g_assert_cmpint (next (s, now, &wake), ==, OCTO_SEND_HELD);
  return wake;
}

static void
test_controller_hears_of_tracked_packets_and_acks (void)
{
  ScriptCc *cc = script_new (0, 1000000, OCTO_CC_NO_WINDOW);
  Drops drops = { 0 };
  OctoSendSession *s = session_new (cc, 0, 0, &drops);
  OctoSendPath *path = octo_send_session_path (s);
  OctoSendStats st;
  OctoTime wake;
  guint64 seq[3];

  for (guint i = 0; i < 3; i++)
    enqueue (s, i, 1000, 0, 0);
  for (guint i = 0; i < 3; i++) {
    g_assert_cmpint (next (s, 0, &wake), ==, OCTO_SEND_PACKET);
    seq[i] = octo_send_session_on_sent (s, 1000, i < 2, 0);
  }
  g_assert_cmpuint (cc->sends, ==, 2);
  g_assert_cmpuint (seq[1], ==, seq[0] + 1);
  g_assert_cmpuint (seq[2], ==, 0);

  OctoAck ack = {.n_ranges = 1 };
  ack.ranges[0].first = (guint32) seq[0];
  ack.ranges[0].last = (guint32) seq[1];
  octo_send_path_on_feedback (path, OCTO_TIME_NONE);
  octo_send_path_on_ack (path, &ack, 40 * MS);
  octo_send_session_update (s);
  g_assert_cmpuint (cc->acks, ==, 1);
  g_assert_cmpuint (cc->bytes_acked, ==, 2000);

  g_assert_cmpint (next (s, 40 * MS, &wake), ==, OCTO_SEND_EMPTY);
  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.flight->packets_sent, ==, 2);
  g_assert_cmpuint (st.flight->packets_acked, ==, 2);
  g_assert_cmpuint (st.inflight, ==, 0);
  g_assert_cmpuint (st.min_rtt, ==, 40 * MS);
  g_assert_cmpstr (st.state, ==, "scripted");
  g_assert_cmpuint (drops.dropped, ==, 0);
  octo_send_session_free (s);
}

static void
test_pacer_and_buffer_follow_the_estimate (void)
{
  ScriptCc *cc = script_new (1000000, 1000000, OCTO_CC_NO_WINDOW);
  Drops drops = { 0 };
  OctoSendSession *s = session_new (cc, 0, 0, &drops);
  OctoSendStats st;
  OctoTime wake;

  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.pacing_rate, ==, 1000000);
  g_assert_cmpuint (st.bandwidth, ==, 1000000);

  /* 1250 bytes at 1 Mbit/s: the next packet 10 ms later. */
  enqueue (s, 0, 1250, 0, 0);
  enqueue (s, 1, 1250, 0, 0);
  g_assert_cmpint (next (s, 0, &wake), ==, OCTO_SEND_PACKET);
  octo_send_session_on_sent (s, 1250, TRUE, 0);
  g_assert_cmpint (next (s, 0, &wake), ==, OCTO_SEND_HELD);
  g_assert_cmpuint (wake, ==, 10 * MS);

  /* The controller now paces at 2 Mbit/s and estimates 500 kbit/s: the
   * gap halves and a message needing 800 kbit/s is dropped at the head. */
  cc->pacing_rate = 2000000;
  cc->bandwidth = 500000;
  octo_send_session_update (s);
  enqueue (s, 2, 1250, 800000, 0);
  g_assert_cmpint (next (s, 5 * MS, &wake), ==, OCTO_SEND_PACKET);
  octo_send_session_on_sent (s, 1250, TRUE, 5 * MS);
  g_assert_cmpint (next (s, 5 * MS, &wake), ==, OCTO_SEND_HELD);
  g_assert_cmpuint (wake, ==, 10 * MS);
  g_assert_cmpint (next (s, 10 * MS, &wake), ==, OCTO_SEND_EMPTY);
  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.pacing_rate, ==, 2000000);
  g_assert_cmpuint (st.bandwidth, ==, 500000);
  g_assert_cmpuint (st.buffer->messages_dropped[OCTO_DROP_BITRATE][0], ==, 1);
  g_assert_cmpuint (drops.dropped, ==, 1);

  /* Once the estimate covers it, the same kind of message leaves. */
  cc->bandwidth = 1000000;
  octo_send_session_update (s);
  enqueue (s, 3, 1250, 800000, 10 * MS);
  g_assert_cmpint (next (s, 10 * MS, &wake), ==, OCTO_SEND_PACKET);
  g_assert_cmpuint (drops.dropped, ==, 1);
  octo_send_session_free (s);
}

static void
test_max_rate_caps_pacing_and_estimate (void)
{
  ScriptCc *cc = script_new (3000000, 2000000, OCTO_CC_NO_WINDOW);
  Drops drops = { 0 };
  OctoSendSession *s = session_new (cc, 1000000, 0, &drops);
  OctoSendStats st;

  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.pacing_rate, ==, 1000000);
  g_assert_cmpuint (st.bandwidth, ==, 1000000);
  g_assert_cmpuint (octo_send_session_bandwidth (s), ==, 1000000);
  g_assert_cmpuint (octo_send_path_estimate (octo_send_session_path (s)), ==,
      2000000);
  octo_send_session_free (s);
}

/* With a window, max_rate caps the estimate and the pacing rate at 2.5
 * times it: a key frame is not held back by the application's own cap. */
static void
test_windowed_pacing_may_exceed_max_rate (void)
{
  ScriptCc *cc = script_new (8000000, 8000000, 100000);
  Drops drops = { 0 };
  OctoSendSession *s = session_new (cc, 2000000, 0, &drops);
  OctoSendStats st;

  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.bandwidth, ==, 2000000);
  g_assert_cmpuint (st.pacing_rate, ==, 5000000);
  /* 1250 bytes at 5 Mbit/s: 2 ms apart. */
  for (guint i = 0; i < 2; i++)
    enqueue (s, i, 1250, 0, 0);
  g_assert_cmpuint (send_one_then_wake (s, 1250, 0), ==, 2 * MS);

  /* Below the cap's headroom the controller's own rate paces. */
  cc->pacing_rate = 3000000;
  octo_send_session_update (s);
  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.pacing_rate, ==, 3000000);
  g_assert_cmpuint (st.bandwidth, ==, 2000000);
  octo_send_session_free (s);
}

/* A backlog the pacing rate would need more than a minimum RTT for leaves
 * within one, at up to 2.5 times the estimate, unless the controller drains
 * the path's queue; a windowless controller (the Oracle's) paces at its
 * rate whatever it holds. */
static void
test_backlog_drains_within_a_round_trip (void)
{
  ScriptCc *cc = script_new (1000000, 1000000, 1000000);
  Drops drops = { 0 };
  OctoSendSession *s = session_new (cc, 0, 0, &drops);
  OctoSendPath *path = octo_send_session_path (s);
  OctoAck ack = {.n_ranges = 1 };
  OctoTime wake, now = 100 * MS, gap[20] = { 0 };

  /* One packet ACKed 40 ms after it left: min RTT 40 ms. */
  enqueue (s, 0, 1000, 0, 0);
  g_assert_cmpint (next (s, 0, &wake), ==, OCTO_SEND_PACKET);
  ack.ranges[0].first = ack.ranges[0].last =
      (guint32) octo_send_session_on_sent (s, 1000, TRUE, 0);
  octo_send_path_on_feedback (path, OCTO_TIME_NONE);
  octo_send_path_on_ack (path, &ack, 40 * MS);
  octo_send_session_update (s);

  /* 20 packets of 1250 bytes (200 ms at 1 Mbit/s).  After the k-th left,
   * (20 - k) x 1250 bytes remain: drained within 40 ms means (20 - k) x
   * 250 kbit/s, capped at 2.5 Mbit/s, never below the 1 Mbit/s. */
  for (guint i = 1; i <= 20; i++)
    enqueue (s, i, 1250, 0, now);
  for (guint k = 1; k < 20; k++) {
    wake = send_one_then_wake (s, 1250, now);
    gap[k] = wake - now;
    now = wake;
  }
  /* 19 left: 2.5 Mbit/s, less the pacer's 1 ms burst after idling */
  g_assert_cmpuint (gap[1], ==, 3 * MS);
  g_assert_cmpuint (gap[2], ==, 4 * MS);
  g_assert_cmpuint (gap[10], ==, 4 * MS);       /* 10 left: 2.5 Mbit/s */
  g_assert_cmpuint (gap[15], ==, 8 * MS);       /* 5 left: 1.25 Mbit/s */
  g_assert_cmpuint (gap[16], ==, 10 * MS);      /* 4 left: the rate */
  g_assert_cmpuint (gap[19], ==, 10 * MS);

  /* While the controller drains the path's queue on purpose, its own rate
   * paces whatever the backlog. */
  cc->draining = TRUE;
  for (guint i = 21; i <= 40; i++)
    enqueue (s, i, 1250, 0, now);
  g_assert_cmpuint (send_one_then_wake (s, 1250, now), ==, now + 10 * MS);
  octo_send_session_free (s);

  /* Windowless: 10 ms apart from the first. */
  drops.dropped = 0;
  cc = script_new (1000000, 1000000, OCTO_CC_NO_WINDOW);
  s = session_new (cc, 0, 0, &drops);
  for (guint i = 0; i < 20; i++)
    enqueue (s, i, 1250, 0, 0);
  g_assert_cmpuint (send_one_then_wake (s, 1250, 0), ==, 10 * MS);
  g_assert_cmpuint (drops.dropped, ==, 0);
  octo_send_session_free (s);
}

/* The window holds packets back; a feedback hold-back of 10 ms at 8 Mbit/s
 * widens it by 10 kB. */
static void
test_hold_back_widens_the_window (void)
{
  ScriptCc *cc = script_new (0, 8000000, 2500);
  Drops drops = { 0 };
  OctoSendSession *s = session_new (cc, 0, 0, &drops);
  OctoSendPath *path = octo_send_session_path (s);
  OctoSendStats st;
  OctoTime wake;

  for (guint i = 0; i < 3; i++)
    enqueue (s, i, 1250, 0, 0);
  for (guint i = 0; i < 2; i++) {
    g_assert_cmpint (next (s, 0, &wake), ==, OCTO_SEND_PACKET);
    octo_send_session_on_sent (s, 1250, TRUE, 0);
  }
  g_assert_cmpint (next (s, 0, &wake), ==, OCTO_SEND_HELD);
  g_assert_cmpuint (wake, ==,
      octo_flight_next_timeout (octo_send_path_flight (path)));
  g_assert_cmpuint (wake, !=, OCTO_TIME_NONE);

  octo_send_path_on_feedback (path, 10 * MS);
  octo_send_session_update (s);
  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.cwnd, ==, 2500 + 10000);
  g_assert_cmpuint (st.feedback_hold_back, ==, 10 * MS);
  g_assert_cmpint (next (s, 0, &wake), ==, OCTO_SEND_PACKET);
  octo_send_session_free (s);
}

/* Sends the first packets of a three-packet message through a window of
 * two 1250-byte packets, one per millisecond, with a one-packet message
 * queued behind it; returns how many packets left before the session held
 * one back. */
static guint
send_through_a_full_window (guint64 pacing_rate)
{
  ScriptCc *cc = script_new (pacing_rate, 8000000, 2500);
  Drops drops = { 0 };
  OctoSendSession *s = session_new (cc, 0, 0, &drops);
  OctoTime wake;
  guint sent = 0;

  for (guint i = 0; i < 4; i++) {
    OctoPacket p = {
      .size = 1250,
      .tagged = TRUE,
      .header = {
        .msg_id = i < 3 ? 0 : 1,
        .first = i == 0 || i == 3,
        .last = i >= 2,
      },
    };

    g_assert_true (octo_send_session_enqueue (s, &p, 0));
  }
  while (next (s, sent * MS, &wake) == OCTO_SEND_PACKET) {
    octo_send_session_on_sent (s, 1250, TRUE, sent * MS);
    sent++;
  }
  g_assert_cmpuint (octo_flight_inflight (octo_send_path_flight
          (octo_send_session_path (s))), ==, sent * 1250);
  g_assert_cmpuint (drops.dropped, ==, 0);
  octo_send_session_free (s);
  return sent;
}

/* A full window holds a new message back but not the rest of one part-sent
 * (the receiver has its start; GStreamer's transport-cc feedback waits for
 * its end), if the path is paced; an unpaced controller (QUCO's) has only
 * its window to bound the flight, which then holds the rest too. */
static void
test_full_window_finishes_a_part_sent_message (void)
{
  g_assert_cmpuint (send_through_a_full_window (80000000), ==, 3);
  g_assert_cmpuint (send_through_a_full_window (0), ==, 2);
}

/* While the controller searches for the path's rate, the buffer's bitrate
 * rule takes the pacing rate (the startup estimate is a lower bound):
 * estimate 3 Mbit/s, pacing 8.7 Mbit/s, a message needing 3.5 Mbit/s
 * leaves; once the search ends the same message is dropped. */
static void
test_bitrate_rule_takes_the_pacing_rate_while_searching (void)
{
  ScriptCc *cc = script_new (8700000, 3000000, OCTO_CC_NO_WINDOW);
  Drops drops = { 0 };
  OctoSendSession *s;
  OctoTime wake;

  cc->searching = TRUE;
  s = session_new (cc, 0, 0, &drops);
  g_assert_cmpuint (octo_send_path_rule_bandwidth (octo_send_session_path
          (s)), ==, 8700000);
  enqueue (s, 0, 1250, 3500000, 0);
  g_assert_cmpint (next (s, 0, &wake), ==, OCTO_SEND_PACKET);
  octo_send_session_on_sent (s, 1250, TRUE, 0);
  g_assert_cmpuint (drops.dropped, ==, 0);

  cc->searching = FALSE;
  octo_send_session_update (s);
  g_assert_cmpuint (octo_send_path_rule_bandwidth (octo_send_session_path
          (s)), ==, 3000000);
  enqueue (s, 1, 1250, 3500000, 10 * MS);
  g_assert_cmpint (next (s, 10 * MS, &wake), ==, OCTO_SEND_EMPTY);
  g_assert_cmpuint (drops.dropped, ==, 1);
  octo_send_session_free (s);
}

/* Before the first feedback: 2.5 times the initial rate, no window. */
static void
test_initial_rate_until_the_first_feedback (void)
{
  ScriptCc *cc = script_new (4000000, 0, 1250);
  Drops drops = { 0 };
  OctoSendSession *s = session_new (cc, 0, 500000, &drops);
  OctoSendStats st;
  OctoTime wake;

  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.pacing_rate, ==, 1250000);
  for (guint i = 0; i < 3; i++)
    enqueue (s, i, 1250, 0, 0);
  g_assert_cmpuint (send_one_then_wake (s, 1250, 0), ==, 8 * MS);
  g_assert_cmpint (next (s, 8 * MS, &wake), ==, OCTO_SEND_PACKET);
  octo_send_session_on_sent (s, 1250, TRUE, 8 * MS);

  octo_send_path_on_feedback (octo_send_session_path (s), OCTO_TIME_NONE);
  octo_send_session_update (s);
  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.pacing_rate, ==, 4000000);
  g_assert_cmpint (next (s, 40 * MS, &wake), ==, OCTO_SEND_HELD);
  g_assert_cmpuint (st.inflight, ==, 2500);
  octo_send_session_free (s);
}

/* The Oracle's use: its estimate may exceed its pacing rate. */
static void
test_fixed_controller_reports_what_it_is_set_to (void)
{
  OctoSendSessionConfig sc = {
    .buffer_bytes = OCTO_ENGINE_DEFAULT_LIMIT_BYTES,
    .rules = TRUE,
    .drop_func = count_drop,
  };
  OctoSendPathConfig pc = {.max_rate = 1000000 };
  Drops drops = { 0 };
  OctoSendSession *s;
  OctoSendStats st;

  sc.user_data = &drops;
  s = octo_send_session_new (&sc, octo_send_path_new_for (&pc,
          OCTO_SENDER_FIXED, 1428, 1, 0));
  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.pacing_rate, ==, 1000000);
  g_assert_cmpuint (st.bandwidth, ==, 1000000);
  g_assert_cmpuint (st.cwnd, ==, OCTO_CC_NO_WINDOW);
  g_assert_cmpstr (st.state, ==, "fixed");

  octo_send_path_set_fixed_rates (octo_send_session_path (s), 2000000,
      5000000);
  octo_send_session_update (s);
  octo_send_session_get_stats (s, &st);
  g_assert_cmpuint (st.pacing_rate, ==, 2000000);
  g_assert_cmpuint (st.bandwidth, ==, 5000000);
  octo_send_session_free (s);
}

/* A sender's packets and when each is acked. */
typedef struct {
  OctoSendSession *session;
  guint64 seq[256];
  OctoTime acked_at[256];
  guint sent, acked;
} AckScript;

/* Sends a 2500-byte packet every 10 ms (2 Mbit/s) from @from to @to and
 * acks each @rtt later, in order (a packet waits for the one before it, as
 * behind a FIFO queue); returns the app rate at @to. */
static guint64
run_acks (AckScript *a, OctoTime from, OctoTime to, OctoTime rtt)
{
  OctoSendPath *path = octo_send_session_path (a->session);

  for (OctoTime t = from; t <= to; t += 1 * MS) {
    if (t % (10 * MS) == 0 && t < to) {
      a->seq[a->sent] = octo_send_session_on_sent (a->session, 2500, TRUE, t);
      a->acked_at[a->sent++] = t + rtt;
    }
    while (a->acked < a->sent && a->acked_at[a->acked] <= t) {
      OctoAck ack = {.n_ranges = 1 };
      ack.ranges[0].first = ack.ranges[0].last = (guint32) a->seq[a->acked++];
      octo_send_path_on_feedback (path, OCTO_TIME_NONE);
      octo_send_path_on_ack (path, &ack, t);
    }
  }
  return octo_send_session_app_rate (a->session);
}

/* The application's rate: the estimate while the path holds no standing
 * queue, however little the app sends; 1.5 times the acked rate plus
 * 10 kbit/s once the smoothed RTT is 1.5 times the minimum; the estimate
 * again when the queue is gone. */
static void
test_app_rate_follows_acked_rate_under_a_standing_queue (void)
{
  ScriptCc *cc = script_new (10000000, 10000000, 1000000);
  Drops drops = { 0 };
  AckScript a = {.session = session_new (cc, 0, 0, &drops) };
  OctoSendStats st;

  g_assert_cmpuint (octo_send_session_app_rate (a.session), ==, 10000000);
  /* RTT 50 ms: acked 2 Mbit/s, no queue */
  g_assert_cmpuint (run_acks (&a, 0, 500 * MS, 50 * MS), ==, 10000000);
  /* RTT 70 ms, 1.4 times the minimum: not yet a standing queue */
  g_assert_cmpuint (run_acks (&a, 500 * MS, 1000 * MS, 70 * MS), ==,
      10000000);
  /* RTT 80 ms from 1 s on, 1.6 times: srtt passes 75 ms after six samples,
   * and the acked rate is 2 Mbit/s again once 250 ms of them came in */
  g_assert_cmpuint (run_acks (&a, 1000 * MS, 1500 * MS, 80 * MS), ==,
      1.5 * 2000000 + 10000);
  /* and so at RTT 150 ms */
  g_assert_cmpuint (run_acks (&a, 1500 * MS, 2000 * MS, 150 * MS), ==,
      1.5 * 2000000 + 10000);
  octo_send_session_get_stats (a.session, &st);
  g_assert_cmpuint (st.app_rate, ==, 3010000);
  g_assert_cmpuint (st.bandwidth, ==, 10000000);
  g_assert_cmpuint (st.srtt, >=, 140 * MS);
  /* the estimate still bounds it */
  cc->bandwidth = 2000000;
  g_assert_cmpuint (octo_send_session_app_rate (a.session), ==, 2000000);
  cc->bandwidth = 10000000;
  /* RTT 50 ms again: the queue is gone within a few samples */
  g_assert_cmpuint (run_acks (&a, 2000 * MS, 2400 * MS, 50 * MS), ==,
      10000000);
  g_assert_cmpuint (drops.dropped, ==, 0);
  octo_send_session_free (a.session);
}

/* A controller without a window (the Oracle's fixed rate) is followed as it
 * is, queue or not. */
static void
test_app_rate_of_a_windowless_controller_is_its_estimate (void)
{
  ScriptCc *cc = script_new (10000000, 10000000, OCTO_CC_NO_WINDOW);
  Drops drops = { 0 };
  AckScript a = {.session = session_new (cc, 0, 0, &drops) };

  run_acks (&a, 0, 500 * MS, 50 * MS);
  g_assert_cmpuint (run_acks (&a, 500 * MS, 1000 * MS, 150 * MS), ==,
      10000000);
  octo_send_session_free (a.session);
}

static void
test_notify_rule_threshold_is_five_percent (void)
{
  g_assert_false (octo_send_bandwidth_changed_enough (0, 0));
  g_assert_true (octo_send_bandwidth_changed_enough (0, 1));
  g_assert_true (octo_send_bandwidth_changed_enough (1000000, 0));
  g_assert_false (octo_send_bandwidth_changed_enough (1000000, 1000000));
  g_assert_false (octo_send_bandwidth_changed_enough (1000000, 1049999));
  g_assert_true (octo_send_bandwidth_changed_enough (1000000, 1050000));
  g_assert_false (octo_send_bandwidth_changed_enough (1000000, 950001));
  g_assert_true (octo_send_bandwidth_changed_enough (1000000, 950000));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/send-session/controller-hears-of-tracked-"
      "packets-and-acks", test_controller_hears_of_tracked_packets_and_acks);
  g_test_add_func ("/transport/send-session/pacer-and-buffer-follow-the-"
      "estimate", test_pacer_and_buffer_follow_the_estimate);
  g_test_add_func ("/transport/send-session/max-rate-caps-pacing-and-estimate",
      test_max_rate_caps_pacing_and_estimate);
  g_test_add_func ("/transport/send-session/windowed-pacing-may-exceed-max-"
      "rate", test_windowed_pacing_may_exceed_max_rate);
  g_test_add_func ("/transport/send-session/backlog-drains-within-a-round-"
      "trip", test_backlog_drains_within_a_round_trip);
  g_test_add_func ("/transport/send-session/hold-back-widens-the-window",
      test_hold_back_widens_the_window);
  g_test_add_func ("/transport/send-session/full-window-finishes-a-part-sent-"
      "message", test_full_window_finishes_a_part_sent_message);
  g_test_add_func ("/transport/send-session/bitrate-rule-takes-the-pacing-"
      "rate-while-searching",
      test_bitrate_rule_takes_the_pacing_rate_while_searching);
  g_test_add_func ("/transport/send-session/initial-rate-until-the-first-"
      "feedback", test_initial_rate_until_the_first_feedback);
  g_test_add_func ("/transport/send-session/fixed-controller-reports-what-it-"
      "is-set-to", test_fixed_controller_reports_what_it_is_set_to);
  g_test_add_func ("/transport/send-session/app-rate-follows-acked-rate-"
      "under-a-standing-queue",
      test_app_rate_follows_acked_rate_under_a_standing_queue);
  g_test_add_func ("/transport/send-session/app-rate-of-a-windowless-"
      "controller-is-its-estimate",
      test_app_rate_of_a_windowless_controller_is_its_estimate);
  g_test_add_func ("/transport/send-session/notify-rule-threshold-is-five-"
      "percent", test_notify_rule_threshold_is_five_percent);
  return g_test_run ();
}
