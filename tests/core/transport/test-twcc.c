/* The core's transport-wide feedback conversion (octo-twcc.h) and the RTP
 * sender built on it (octo-rtp-sender.h): exact ACKs and ACK times, gaps,
 * 16-bit wrap, and BBR following a simulated bottleneck with the rules
 * dropping in the send buffer. */
#include <glib.h>
#include <string.h>

#include "transport/octo-rtp-sender.h"
#include "transport/octo-twcc.h"

#define MS OCTO_MSECOND
/* The receiver's clock is unrelated to ours. */
#define REMOTE_EPOCH (987654 * MS)

static OctoTwccReport
received (guint16 seqnum, OctoTime remote_ms)
{
  return (OctoTwccReport) {
    .seqnum = seqnum,
    .remote_ts = REMOTE_EPOCH + remote_ms * MS,
    .size = 1000,
  };
}

static OctoTwccReport
lost (guint16 seqnum)
{
  return (OctoTwccReport) {.seqnum = seqnum,.lost = TRUE };
}

static void
test_ack_times_follow_remote_arrivals (void)
{
  OctoTwcc *t = octo_twcc_new ();
  OctoTwccReport r[4] = {
    received (0, 50), received (1, 51), received (2, 53), received (3, 54),
  };
  OctoTwccAck acks[4];

  for (guint i = 0; i < 4; i++)
    octo_twcc_on_sent (t, i, 100 + i, 1000, i * MS);
  /* The batch arrives at 100 ms: the newest arrival is acked then, the
   * others earlier by their arrival spacing. */
  g_assert_cmpuint (octo_twcc_on_feedback (t, r, 4, 100 * MS, acks), ==, 4);
  const guint64 want_seq[] = { 100, 101, 102, 103 };
  const OctoTime want_time[] = { 96 * MS, 97 * MS, 99 * MS, 100 * MS };
  for (guint i = 0; i < 4; i++) {
    g_assert_cmpuint (acks[i].flight_seq, ==, want_seq[i]);
    g_assert_cmpuint (acks[i].ack_time, ==, want_time[i]);
  }
  g_assert_cmpuint (octo_twcc_get_stats (t)->reports_received, ==, 4);
  g_assert_cmpuint (octo_twcc_get_stats (t)->size_mismatches, ==, 0);
  octo_twcc_free (t);
}

static void
test_unsent_seqnums_are_not_loss (void)
{
  OctoTwcc *t = octo_twcc_new ();
  OctoTwccAck acks[7];
  /* 2..4 were numbered but never sent (the send buffer dropped them): the
   * feedback calls them not received; 6 was sent and lost on the path. */
  OctoTwccReport r[7] = {
    received (0, 10), received (1, 11), lost (2), lost (3), lost (4),
    received (5, 15), lost (6),
  };

  octo_twcc_on_sent (t, 0, 0, 1000, 0);
  octo_twcc_on_sent (t, 1, 1, 1000, 1 * MS);
  octo_twcc_on_sent (t, 5, 2, 1000, 2 * MS);
  octo_twcc_on_sent (t, 6, 3, 1000, 3 * MS);
  g_assert_cmpuint (octo_twcc_on_feedback (t, r, 7, 60 * MS, acks), ==, 3);
  g_assert_cmpuint (acks[0].flight_seq, ==, 0);
  g_assert_cmpuint (acks[0].ack_time, ==, 55 * MS);
  g_assert_cmpuint (acks[1].flight_seq, ==, 1);
  g_assert_cmpuint (acks[1].ack_time, ==, 56 * MS);
  g_assert_cmpuint (acks[2].flight_seq, ==, 2);
  g_assert_cmpuint (acks[2].ack_time, ==, 60 * MS);

  const OctoTwccStats *st = octo_twcc_get_stats (t);
  g_assert_cmpuint (st->reports, ==, 7);
  g_assert_cmpuint (st->reports_received, ==, 3);
  g_assert_cmpuint (st->reports_unknown, ==, 3);
  g_assert_cmpuint (st->reports_lost, ==, 1);
  octo_twcc_free (t);
}

static void
test_seqnums_wrap (void)
{
  OctoTwcc *t = octo_twcc_new ();
  const guint16 seqs[] = { 65534, 65535, 0, 1 };
  OctoTwccReport r[5];
  OctoTwccAck acks[5];

  for (guint i = 0; i < 4; i++) {
    octo_twcc_on_sent (t, seqs[i], 10 + i, 1000, i * MS);
    r[i] = received (seqs[i], 20 + i);
  }
  r[4] = received (2, 30);      /* newer than anything sent */
  g_assert_cmpuint (octo_twcc_on_feedback (t, r, 5, 50 * MS, acks), ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpuint (acks[i].flight_seq, ==, 10 + i);
  /* The unknown report's arrival is not the batch's newest. */
  g_assert_cmpuint (acks[3].ack_time, ==, 50 * MS);
  g_assert_cmpuint (acks[0].ack_time, ==, 47 * MS);
  g_assert_cmpuint (octo_twcc_get_stats (t)->reports_unknown, ==, 1);
  octo_twcc_free (t);
}

static void
test_repeated_reports_ack_once (void)
{
  OctoTwcc *t = octo_twcc_new ();
  OctoTwccReport first[2] = { received (0, 10), received (1, 12) };
  OctoTwccReport again[2] = { received (1, 12), received (2, 13) };
  OctoTwccAck acks[2];

  for (guint i = 0; i < 3; i++)
    octo_twcc_on_sent (t, i, i, 1000, i * MS);
  g_assert_cmpuint (octo_twcc_on_feedback (t, first, 2, 40 * MS, acks), ==, 2);
  g_assert_cmpuint (octo_twcc_on_feedback (t, again, 2, 50 * MS, acks), ==, 1);
  g_assert_cmpuint (acks[0].flight_seq, ==, 2);
  /* The first feedback waited less (28 ms after the arrival of #1). */
  g_assert_cmpuint (acks[0].ack_time, ==, 41 * MS);
  g_assert_cmpuint (octo_twcc_get_stats (t)->reports_repeated, ==, 1);
  octo_twcc_free (t);
}

/* Feedback that waited longer than before does not squeeze the delivery
 * intervals: arrivals map onto our clock with the smallest wait seen. */
static void
test_late_feedback_keeps_arrival_spacing (void)
{
  OctoTwcc *t = octo_twcc_new ();
  OctoTwccReport b1[2] = { received (0, 50), received (1, 54) };
  OctoTwccReport b2[2] = { received (2, 70), received (3, 74) };
  OctoTwccReport b3[2] = { received (4, 90), received (5, 94) };
  OctoTwccAck acks[2];

  for (guint i = 0; i < 6; i++)
    octo_twcc_on_sent (t, i, i, 1000, i * MS);
  g_assert_cmpuint (octo_twcc_on_feedback (t, b1, 2, 100 * MS, acks), ==, 2);
  g_assert_cmpuint (acks[0].ack_time, ==, 96 * MS);
  g_assert_cmpuint (acks[1].ack_time, ==, 100 * MS);
  /* 60 ms after its newest arrival instead of 46. */
  g_assert_cmpuint (octo_twcc_on_feedback (t, b2, 2, 134 * MS, acks), ==, 2);
  g_assert_cmpuint (acks[0].ack_time, ==, 116 * MS);
  g_assert_cmpuint (acks[1].ack_time, ==, 120 * MS);
  g_assert_cmpuint (octo_twcc_on_feedback (t, b3, 2, 140 * MS, acks), ==, 2);
  g_assert_cmpuint (acks[0].ack_time, ==, 136 * MS);
  g_assert_cmpuint (acks[1].ack_time, ==, 140 * MS);
  octo_twcc_free (t);
}

static void
test_ack_times_are_ordered_and_after_sending (void)
{
  OctoTwcc *t = octo_twcc_new ();
  /* Arrivals spread over 80 ms, but packet 0 left only 30 ms before the
   * feedback, and packet 2 arrived before packet 1 (reordering). */
  OctoTwccReport r[3] = { received (0, 0), received (2, 70), received (1, 80) };
  OctoTwccAck acks[3];

  octo_twcc_on_sent (t, 0, 0, 1000, 70 * MS);
  octo_twcc_on_sent (t, 1, 1, 1000, 71 * MS);
  octo_twcc_on_sent (t, 2, 2, 1000, 72 * MS);
  g_assert_cmpuint (octo_twcc_on_feedback (t, r, 3, 100 * MS, acks), ==, 3);
  g_assert_cmpuint (acks[0].ack_time, ==, 70 * MS);     /* not before sent */
  g_assert_cmpuint (acks[1].ack_time, ==, 90 * MS);
  g_assert_cmpuint (acks[2].ack_time, ==, 100 * MS);
  octo_twcc_free (t);
}

static void
test_size_mismatch_is_counted (void)
{
  OctoTwcc *t = octo_twcc_new ();
  OctoTwccReport r = received (0, 5);
  OctoTwccAck ack;

  octo_twcc_on_sent (t, 0, 0, 999, 0);
  g_assert_cmpuint (octo_twcc_on_feedback (t, &r, 1, 10 * MS, &ack), ==, 1);
  g_assert_cmpuint (octo_twcc_get_stats (t)->size_mismatches, ==, 1);
  octo_twcc_free (t);
}

/* A bottleneck of @rate bits/s with @delay each way, fed by an OctoRtpSender
 * whose source sends @frames_per_s frames of @packets RTP packets of
 * RTP_BYTES; feedback every FEEDBACK_INTERVAL.  Message m is tagged with
 * @tag (msg_id, first and last filled in here). */
#define RTP_BYTES 1200
#define FEEDBACK_INTERVAL (50 * MS)
#define STEP (100 * OCTO_USECOND)

typedef struct {
  OctoTime arrival;
  guint16 twcc_seq;
  guint32 msg;
} Arrival;

typedef struct {
  guint64 sent_messages[8];     /* by priority: messages fully sent */
  guint64 packets_on_link;
  guint64 bandwidth_at_end;
  const OctoEngineStats *buffer;
} SimResult;

typedef void (*TagFunc) (guint32 msg, OctoHeader *header);

static OctoRtpSender *
simulate (guint64 rate, OctoTime delay, guint packets, guint frames_per_s,
    OctoTime duration, TagFunc tag, SimResult *res)
{
  OctoRtpSenderConfig config;
  octo_rtp_sender_config_init (&config);
  OctoRtpSender *s = octo_rtp_sender_new (&config, 0);
  GArray *arrivals = g_array_new (FALSE, FALSE, sizeof (Arrival));
  guint reported = 0;
  OctoTime link_free = 0, next_frame = 0, next_feedback = FEEDBACK_INTERVAL;
  guint32 msg = 0;
  GHashTable *msg_packets = g_hash_table_new (NULL, NULL);

  memset (res, 0, sizeof (*res));
  for (OctoTime now = 0; now < duration; now += STEP) {
    if (now >= next_frame) {
      OctoHeader h = { 0 };
      tag (msg, &h);
      h.msg_id = msg;
      for (guint i = 0; i < packets; i++) {
        h.first = i == 0;
        h.last = i == packets - 1;
        octo_rtp_sender_submit (s, GUINT_TO_POINTER (msg + 1), RTP_BYTES,
            RTP_BYTES - 40, 0x1234, &h, TRUE, now);
      }
      msg++;
      next_frame += OCTO_SECOND / frames_per_s;
    }
    OctoRtpSend out;
    OctoTime wake;
    while (octo_rtp_sender_poll (s, now, &out, &wake)) {
      guint32 m = GPOINTER_TO_UINT (out.data) - 1;
      guint32 size = RTP_BYTES + OCTO_RTP_LINK_OVERHEAD;
      link_free = MAX (link_free, now) + size * 8 * OCTO_SECOND / rate;
      Arrival a = { link_free + delay, out.twcc_seq, m };
      g_array_append_val (arrivals, a);
      res->packets_on_link++;
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (msg_packets,
              GUINT_TO_POINTER (m))) + 1;
      g_hash_table_insert (msg_packets, GUINT_TO_POINTER (m),
          GUINT_TO_POINTER (n));
      if (n == packets) {
        OctoHeader h = { 0 };
        tag (m, &h);
        res->sent_messages[h.priority]++;
      }
    }
    if (now >= next_feedback) {
      /* What arrived by now - delay reaches us now, in sending order. */
      guint n = 0;
      while (reported + n < arrivals->len &&
          g_array_index (arrivals, Arrival, reported + n).arrival + delay <= now)
        n++;
      OctoTwccReport *r = g_new (OctoTwccReport, MAX (n, 1));
      for (guint i = 0; i < n; i++) {
        Arrival *a = &g_array_index (arrivals, Arrival, reported + i);
        r[i] = (OctoTwccReport) {
          .seqnum = a->twcc_seq,
          .remote_ts = REMOTE_EPOCH + a->arrival,
          .size = RTP_BYTES - 40,
        };
      }
      if (n > 0)
        octo_rtp_sender_on_feedback (s, r, n, now);
      reported += n;
      g_free (r);
      next_feedback += FEEDBACK_INTERVAL;
    }
  }
  res->bandwidth_at_end = octo_rtp_sender_bandwidth (s);
  g_array_unref (arrivals);
  g_hash_table_unref (msg_packets);
  return s;
}

static void
tag_plain (guint32 msg, OctoHeader *h)
{
  (void) msg;
  h->priority = 0;
}

static void
test_estimate_follows_the_bottleneck (void)
{
  SimResult res;
  /* 10 packets per frame at 25 fps: about 2.5 Mbit/s offered to a
   * 2 Mbit/s link, so the sender is never app-limited for long. */
  OctoRtpSender *s = simulate (2000000, 20 * MS, 10, 25, 10 * OCTO_SECOND,
      tag_plain, &res);
  OctoRtpSenderStats st;

  g_test_message ("estimate %" G_GUINT64_FORMAT " bit/s", res.bandwidth_at_end);
  g_assert_cmpuint (res.bandwidth_at_end, >=, 1960000);
  g_assert_cmpuint (res.bandwidth_at_end, <=, 2040000);
  octo_rtp_sender_get_stats (s, &st);
  /* 40 ms of propagation plus one packet's 4.95 ms on the link. */
  g_assert_cmpuint (st.session.min_rtt, >=, 44 * MS);
  g_assert_cmpuint (st.session.min_rtt, <=, 46 * MS);
  g_assert_cmpuint (st.session.flight->packets_lost, ==, 0);
  g_assert_cmpuint (st.twcc->reports_unknown, ==, 0);
  /* A busy link's batches span the feedback interval: that much window. */
  g_assert_cmpuint (st.session.feedback_hold_back, >=,
      FEEDBACK_INTERVAL - 5 * MS);
  g_assert_cmpuint (st.session.feedback_hold_back, <=,
      FEEDBACK_INTERVAL + 5 * MS);
  octo_rtp_sender_free (s);
}

/* Case 1's shape: a key frame (0/0) every 8 frames, TL0 1/2 on frames 4,
 * TL1 2/2 on 2 and 6, TL2 3/3 on odd frames; all droppers. */
static void
tag_temporal_layers (guint32 msg, OctoHeader *h)
{
  guint pos = msg % 8;

  h->drop = TRUE;
  if (pos == 0) {
    h->priority = 0;
    h->priority_threshold = 0;
  } else if (pos == 4) {
    h->priority = 1;
    h->priority_threshold = 2;
  } else if (pos % 2 == 0) {
    h->priority = 2;
    h->priority_threshold = 2;
  } else {
    h->priority = 3;
    h->priority_threshold = 3;
  }
}

static void
test_rules_drop_upper_layers_when_the_path_is_slow (void)
{
  SimResult res;
  /* 4 Mbit/s offered to 1.5 Mbit/s: the send buffer keeps the key frames
   * and sheds the higher layers first. */
  OctoRtpSender *s = simulate (1500000, 20 * MS, 16, 25, 10 * OCTO_SECOND,
      tag_temporal_layers, &res);
  OctoRtpSenderStats st;

  octo_rtp_sender_get_stats (s, &st);
  for (guint p = 0; p < 4; p++)
    g_test_message ("priority %u: %" G_GUINT64_FORMAT " sent, %"
        G_GUINT64_FORMAT " dropped", p, res.sent_messages[p],
        st.session.buffer->messages_dropped[OCTO_DROP_DROPPER][p]);
  /* 250 frames: 32 key frames, 31 TL0, 62 TL1, 125 TL2. */
  g_assert_cmpuint (res.sent_messages[0], >=, 31);
  g_assert_cmpuint (st.session.buffer->messages_dropped[OCTO_DROP_DROPPER][0],
      ==, 0);
  g_assert_cmpuint (st.session.buffer->messages_dropped[OCTO_DROP_OVERFLOW][0],
      ==, 0);
  g_assert_cmpuint (st.session.buffer->messages_dropped[OCTO_DROP_DROPPER][3],
      >, 60);
  g_assert_cmpuint (res.sent_messages[3], <, res.sent_messages[1] * 2);
  g_assert_cmpuint (res.bandwidth_at_end, >=, 1400000);
  g_assert_cmpuint (res.bandwidth_at_end, <=, 1600000);
  /* The send buffer, not the path, took the excess: nothing was lost. */
  g_assert_cmpuint (st.session.flight->packets_lost, ==, 0);
  octo_rtp_sender_free (s);
}

/* Sends 5 untagged packets from @now on (polling each ms) and reports
 * them received 20 ms after they left, in one feedback 50 ms after the
 * last one arrived.  Returns when that feedback was given. */
static OctoTime
send_and_report (OctoRtpSender *s, OctoTime now)
{
  OctoTwccReport r[5];
  guint n = 0;

  for (guint i = 0; i < 5; i++)
    octo_rtp_sender_submit (s, NULL, 1000, 960, 0x1234, NULL, TRUE, now);
  for (; n < 5; now += MS) {
    OctoRtpSend out;
    OctoTime wake;
    while (n < 5 && octo_rtp_sender_poll (s, now, &out, &wake))
      r[n++] = (OctoTwccReport) {
        .seqnum = out.twcc_seq,
        .remote_ts = REMOTE_EPOCH + now + 20 * MS,
        .size = 960,
      };
  }
  now += 70 * MS;
  octo_rtp_sender_on_feedback (s, r, n, now);
  return now;
}

static void
test_an_outage_is_no_feedback_hold_back (void)
{
  OctoRtpSenderConfig config;
  OctoRtpSenderStats st;
  OctoTime now;

  octo_rtp_sender_config_init (&config);
  OctoRtpSender *s = octo_rtp_sender_new (&config, 0);
  now = send_and_report (s, 0);
  /* Two seconds with nothing sent, so nothing to report: no hold-back.
   * Taken as one, it would grant 2 s of the estimate as window.  What the
   * clocks show of a batch's hold-back is its arrivals' spread (here 4
   * packets paced 2 ms apart) beyond the smallest wait seen. */
  now = send_and_report (s, now + 2 * OCTO_SECOND);
  octo_rtp_sender_get_stats (s, &st);
  g_assert_cmpuint (st.feedbacks, ==, 2);
  g_assert_cmpuint (st.session.feedback_hold_back, >=, 4 * MS);
  g_assert_cmpuint (st.session.feedback_hold_back, <=, 20 * MS);
  octo_rtp_sender_free (s);
}

/* Sends 5 untagged packets at @now and returns when the first left. */
static OctoTime
send_unreported (OctoRtpSender *s, OctoTime now)
{
  OctoRtpSend out;
  OctoTime wake, first = OCTO_TIME_NONE;
  guint n = 0;

  for (guint i = 0; i < 5; i++)
    octo_rtp_sender_submit (s, NULL, 1000, 960, 0x1234, NULL, TRUE, now);
  for (; n < 5; now += MS)
    while (n < 5 && octo_rtp_sender_poll (s, now, &out, &wake)) {
      first = MIN (first, now);
      n++;
    }
  return first;
}

/* An outage asks for one restart, restart_after after the first packet
 * sent since the last acknowledgement; the poll wakes for it; feedback
 * that acknowledges ends the outage; nothing asks before the first
 * acknowledgement, nor with restart_after 0. */
static void
test_an_outage_asks_for_one_restart (void)
{
  OctoRtpSenderConfig config;
  OctoRtpSenderStats st;
  OctoRtpSend out;
  OctoTime now, first, wake;

  octo_rtp_sender_config_init (&config);
  config.restart_after = 500 * MS;
  OctoRtpSender *s = octo_rtp_sender_new (&config, 0);
  first = send_unreported (s, 0);
  g_assert_false (octo_rtp_sender_take_restart (s, first + OCTO_SECOND));
  octo_rtp_sender_free (s);

  s = octo_rtp_sender_new (&config, 0);
  now = send_and_report (s, 0);
  g_assert_false (octo_rtp_sender_take_restart (s, now + OCTO_SECOND));
  first = send_unreported (s, now);
  g_assert_false (octo_rtp_sender_poll (s, first + 10 * MS, &out, &wake));
  g_assert_cmpuint (wake, <=, first + 500 * MS);
  g_assert_false (octo_rtp_sender_take_restart (s, first + 499 * MS));
  g_assert_true (octo_rtp_sender_take_restart (s, first + 500 * MS));
  g_assert_false (octo_rtp_sender_take_restart (s, first + 900 * MS));
  g_assert_false (octo_rtp_sender_poll (s, first + 900 * MS, &out, &wake));
  g_assert_cmpuint (wake, >, first + 900 * MS);
  /* acknowledged again: the next outage asks again */
  now = send_and_report (s, first + OCTO_SECOND);
  first = send_unreported (s, now);
  g_assert_true (octo_rtp_sender_take_restart (s, first + 500 * MS));
  octo_rtp_sender_get_stats (s, &st);
  g_assert_cmpuint (st.session.restarts, ==, 2);
  octo_rtp_sender_free (s);

  config.restart_after = 0;
  s = octo_rtp_sender_new (&config, 0);
  now = send_and_report (s, 0);
  first = send_unreported (s, now);
  g_assert_false (octo_rtp_sender_take_restart (s, first + 10 * OCTO_SECOND));
  octo_rtp_sender_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/twcc/ack-times-follow-remote-arrivals",
      test_ack_times_follow_remote_arrivals);
  g_test_add_func ("/twcc/unsent-seqnums-are-not-loss",
      test_unsent_seqnums_are_not_loss);
  g_test_add_func ("/twcc/seqnums-wrap", test_seqnums_wrap);
  g_test_add_func ("/twcc/repeated-reports-ack-once",
      test_repeated_reports_ack_once);
  g_test_add_func ("/twcc/late-feedback-keeps-arrival-spacing",
      test_late_feedback_keeps_arrival_spacing);
  g_test_add_func ("/twcc/ack-times-are-ordered-and-after-sending",
      test_ack_times_are_ordered_and_after_sending);
  g_test_add_func ("/twcc/size-mismatch-is-counted",
      test_size_mismatch_is_counted);
  g_test_add_func ("/rtp-sender/estimate-follows-the-bottleneck",
      test_estimate_follows_the_bottleneck);
  g_test_add_func ("/rtp-sender/rules-drop-upper-layers-when-the-path-is-slow",
      test_rules_drop_upper_layers_when_the_path_is_slow);
  g_test_add_func ("/rtp-sender/an-outage-asks-for-one-restart",
      test_an_outage_asks_for_one_restart);
  g_test_add_func ("/rtp-sender/an-outage-is-no-feedback-hold-back",
      test_an_outage_is_no_feedback_hold_back);
  return g_test_run ();
}
