/* Reliable TCP CUBIC byte stream (octo-tcp.h). */
#include "octo-tcp.h"

#include <math.h>

#define BETA 0.7
#define CUBIC_C 0.4
#define INITIAL_CWND 10.0
#define MIN_CWND 2.0
#define DUP_THRESH 3
#define MIN_RTO (200 * OCTO_MSECOND)
#define INITIAL_RTO (1 * OCTO_SECOND)
#define MAX_RTO (60 * OCTO_SECOND)
/* HyStart (delay increase): the first samples of a round give its RTT */
#define HYSTART_MIN_CWND 16.0
#define HYSTART_SAMPLES 8
#define HYSTART_MIN_ETA (4 * OCTO_MSECOND)
#define HYSTART_MAX_ETA (16 * OCTO_MSECOND)

typedef struct {
  guint64 seq;
  guint32 len;
  OctoTime sent_time;
  gboolean sacked, lost, in_flight, retransmitted;
} Segment;

struct _OctoTcpSender {
  GArray *segs;                 /* Segment, unacknowledged, by seq */
  guint64 stream_end, snd_nxt, snd_una;
  gdouble cwnd, ssthresh;
  guint32 pipe;                 /* segments in flight */
  OctoTime srtt, rttvar, rto;
  gboolean in_recovery;
  guint64 recovery_point;
  /* CUBIC */
  gdouble w_max, k, w_est;
  OctoTime epoch_start;
  /* HyStart */
  guint64 round_end;
  OctoTime round_min, last_round_min;
  guint round_samples;
  OctoTcpStats stats;
};

struct _OctoTcpReceiver {
  guint64 cumulative;
  GArray *blocks;               /* OctoTcpBlock above it, sorted, disjoint */
};

OctoTcpSender *
octo_tcp_sender_new (void)
{
  OctoTcpSender *t = g_new0 (OctoTcpSender, 1);

  t->segs = g_array_new (FALSE, FALSE, sizeof (Segment));
  t->cwnd = INITIAL_CWND;
  t->ssthresh = G_MAXDOUBLE;
  t->rto = INITIAL_RTO;
  t->epoch_start = OCTO_TIME_NONE;
  t->round_min = t->last_round_min = OCTO_TIME_NONE;
  return t;
}

void
octo_tcp_sender_free (OctoTcpSender *t)
{
  if (!t)
    return;
  g_array_free (t->segs, TRUE);
  g_free (t);
}

void
octo_tcp_sender_write (OctoTcpSender *t, guint64 bytes)
{
  t->stream_end += bytes;
}

static void
congestion_event (OctoTcpSender *t)
{
  /* fast convergence: a flow whose W_max keeps falling yields sooner */
  t->w_max = t->cwnd < t->w_max ? t->cwnd * (1 + BETA) / 2 : t->cwnd;
  t->cwnd = t->ssthresh = MAX (t->cwnd * BETA, MIN_CWND);
  t->epoch_start = OCTO_TIME_NONE;
  t->stats.loss_events++;
}

static void
timeout (OctoTcpSender *t)
{
  for (guint i = 0; i < t->segs->len; i++) {
    Segment *s = &g_array_index (t->segs, Segment, i);
    if (s->in_flight && !s->sacked) {
      s->in_flight = FALSE;
      s->lost = TRUE;
    }
  }
  t->pipe = 0;
  congestion_event (t);
  t->cwnd = 1;
  t->in_recovery = FALSE;
  t->rto = MIN (t->rto * 2, MAX_RTO);
  t->stats.timeouts++;
}

static OctoTime
rto_deadline (const OctoTcpSender *t)
{
  for (guint i = 0; i < t->segs->len; i++) {
    const Segment *s = &g_array_index (t->segs, Segment, i);
    if (s->in_flight)
      return s->sent_time + t->rto;
  }
  return OCTO_TIME_NONE;
}

static gboolean
window_open (const OctoTcpSender *t)
{
  return t->pipe < (guint32) floor (t->cwnd);
}

gboolean
octo_tcp_sender_poll (OctoTcpSender *t, OctoTime now, OctoTcpSegment *seg,
    OctoTime *wake)
{
  OctoTime deadline = rto_deadline (t);
  Segment fresh = { 0 };

  if (deadline <= now) {
    timeout (t);
    deadline = OCTO_TIME_NONE;
  }
  if (window_open (t)) {
    for (guint i = 0; i < t->segs->len; i++) {
      Segment *s = &g_array_index (t->segs, Segment, i);
      if (s->lost) {
        s->lost = FALSE;
        s->in_flight = s->retransmitted = TRUE;
        s->sent_time = now;
        t->pipe++;
        t->stats.segments_sent++;
        t->stats.segments_retransmitted++;
        *seg = (OctoTcpSegment) { s->seq, s->len, TRUE };
        return TRUE;
      }
    }
    if (t->snd_nxt < t->stream_end) {
      fresh.seq = t->snd_nxt;
      fresh.len = (guint32) MIN ((guint64) OCTO_TCP_MSS,
          t->stream_end - t->snd_nxt);
      fresh.sent_time = now;
      fresh.in_flight = TRUE;
      g_array_append_val (t->segs, fresh);
      t->snd_nxt += fresh.len;
      t->pipe++;
      t->stats.segments_sent++;
      *seg = (OctoTcpSegment) { fresh.seq, fresh.len, FALSE };
      return TRUE;
    }
  }
  *wake = deadline == OCTO_TIME_NONE ? rto_deadline (t) : deadline;
  return FALSE;
}

static void
rtt_sample (OctoTcpSender *t, OctoTime rtt)
{
  if (t->srtt == 0) {
    t->srtt = rtt;
    t->rttvar = rtt / 2;
  } else {
    OctoTime err = rtt > t->srtt ? rtt - t->srtt : t->srtt - rtt;
    t->rttvar = (3 * t->rttvar + err) / 4;
    t->srtt = (7 * t->srtt + rtt) / 8;
  }
  t->rto = CLAMP (t->srtt + 4 * t->rttvar, MIN_RTO, MAX_RTO);
  if (t->round_samples < HYSTART_SAMPLES) {
    t->round_min = MIN (t->round_min, rtt);
    t->round_samples++;
  }
}

/* HyStart: leave slow start once a round's RTT rose by a clamped eighth. */
static void
hystart_round (OctoTcpSender *t, guint64 cumulative)
{
  OctoTime eta;

  if (cumulative < t->round_end)
    return;
  if (t->cwnd < t->ssthresh && t->cwnd >= HYSTART_MIN_CWND
      && t->last_round_min != OCTO_TIME_NONE
      && t->round_samples >= HYSTART_SAMPLES) {
    eta = CLAMP (t->last_round_min / 8, HYSTART_MIN_ETA, HYSTART_MAX_ETA);
    if (t->round_min >= t->last_round_min + eta)
      t->ssthresh = t->cwnd;
  }
  if (t->round_samples >= HYSTART_SAMPLES)
    t->last_round_min = t->round_min;
  t->round_min = OCTO_TIME_NONE;
  t->round_samples = 0;
  t->round_end = t->snd_nxt;
}

static void
grow (OctoTcpSender *t, guint acked, OctoTime now)
{
  gdouble secs, target, cubic;

  if (t->cwnd < t->ssthresh) {
    t->cwnd = MIN (t->cwnd + acked, MAX (t->ssthresh, t->cwnd));
    return;
  }
  if (t->epoch_start == OCTO_TIME_NONE) {
    t->epoch_start = now;
    t->k = t->cwnd < t->w_max ? cbrt ((t->w_max - t->cwnd) / CUBIC_C) : 0;
    t->w_max = MAX (t->w_max, t->cwnd);
    t->w_est = t->cwnd;
  }
  secs = (gdouble) (now - t->epoch_start + t->srtt) / OCTO_SECOND;
  cubic = CUBIC_C * pow (secs - t->k, 3) + t->w_max;
  target = CLAMP (cubic, t->cwnd, 1.5 * t->cwnd);
  /* the Reno-friendly region: never slower than standard TCP would be */
  t->w_est += 3 * (1 - BETA) / (1 + BETA) * acked / t->cwnd;
  if (t->w_est > cubic)
    t->cwnd = MAX (t->cwnd, t->w_est);
  else
    t->cwnd += (target - t->cwnd) / t->cwnd * acked;
}

void
octo_tcp_sender_on_ack (OctoTcpSender *t, const OctoTcpAck *ack, OctoTime now)
{
  OctoTime newest_rtt = OCTO_TIME_NONE;
  guint acked = 0, drop = 0, sacked_above = 0;
  gboolean new_loss = FALSE;

  for (guint i = 0; i < t->segs->len; i++) {
    Segment *s = &g_array_index (t->segs, Segment, i);
    gboolean covered = s->seq + s->len <= ack->cumulative;

    for (guint b = 0; b < ack->n_sack && !covered; b++)
      covered = s->seq >= ack->sack[b].start
          && s->seq + s->len <= ack->sack[b].end;
    if (!covered || s->sacked)
      continue;
    s->sacked = TRUE;
    acked++;
    if (s->in_flight) {
      s->in_flight = FALSE;
      t->pipe--;
    }
    s->lost = FALSE;
    /* Karn: a retransmitted segment's ACK says nothing about the RTT */
    if (!s->retransmitted)
      newest_rtt = now - s->sent_time;
  }
  if (newest_rtt != OCTO_TIME_NONE)
    rtt_sample (t, newest_rtt);
  while (drop < t->segs->len && g_array_index (t->segs, Segment,
          drop).seq + g_array_index (t->segs, Segment, drop).len
      <= ack->cumulative)
    drop++;
  g_array_remove_range (t->segs, 0, drop);
  t->snd_una = MAX (t->snd_una, ack->cumulative);

  for (guint i = t->segs->len; i-- > 0;) {
    Segment *s = &g_array_index (t->segs, Segment, i);
    if (s->sacked)
      sacked_above++;
    /* a retransmission is not judged by SACKs that may predate it: only
     * the timeout recovers it (RFC 6675) */
    else if (s->in_flight && !s->retransmitted
        && sacked_above >= DUP_THRESH) {
      s->in_flight = FALSE;
      s->lost = TRUE;
      t->pipe--;
      new_loss = TRUE;
    }
  }
  hystart_round (t, ack->cumulative);
  if (t->in_recovery && t->snd_una >= t->recovery_point)
    t->in_recovery = FALSE;
  if (new_loss && !t->in_recovery) {
    congestion_event (t);
    t->in_recovery = TRUE;
    t->recovery_point = t->snd_nxt;
  } else if (!t->in_recovery && acked > 0)
    grow (t, acked, now);
}

void
octo_tcp_sender_get_stats (const OctoTcpSender *t, OctoTcpStats *stats)
{
  *stats = t->stats;
  stats->cwnd = t->cwnd;
  stats->ssthresh = t->ssthresh;
  stats->srtt = t->srtt;
  stats->rto = t->rto;
  stats->unsent_bytes = t->stream_end - t->snd_nxt;
  stats->acked_bytes = t->snd_una;
  stats->in_flight_bytes = 0;
  for (guint i = 0; i < t->segs->len; i++) {
    const Segment *s = &g_array_index (t->segs, Segment, i);
    if (s->in_flight)
      stats->in_flight_bytes += s->len;
  }
}

OctoTcpReceiver *
octo_tcp_receiver_new (void)
{
  OctoTcpReceiver *rx = g_new0 (OctoTcpReceiver, 1);

  rx->blocks = g_array_new (FALSE, FALSE, sizeof (OctoTcpBlock));
  return rx;
}

void
octo_tcp_receiver_free (OctoTcpReceiver *rx)
{
  if (!rx)
    return;
  g_array_free (rx->blocks, TRUE);
  g_free (rx);
}

guint64
octo_tcp_receiver_on_segment (OctoTcpReceiver *rx, guint64 seq, guint32 len,
    OctoTcpAck *ack)
{
  OctoTcpBlock in = { seq, seq + len };
  guint i = 0, at;

  if (in.end > rx->cumulative) {
    in.start = MAX (in.start, rx->cumulative);
    /* merge with every block it touches */
    while (i < rx->blocks->len
        && g_array_index (rx->blocks, OctoTcpBlock, i).end < in.start)
      i++;
    at = i;
    while (i < rx->blocks->len
        && g_array_index (rx->blocks, OctoTcpBlock, i).start <= in.end) {
      OctoTcpBlock *b = &g_array_index (rx->blocks, OctoTcpBlock, i);
      in.start = MIN (in.start, b->start);
      in.end = MAX (in.end, b->end);
      i++;
    }
    g_array_remove_range (rx->blocks, at, i - at);
    g_array_insert_val (rx->blocks, at, in);
    if (at == 0 && in.start <= rx->cumulative) {
      rx->cumulative = in.end;
      g_array_remove_index (rx->blocks, 0);
    }
  }
  ack->cumulative = rx->cumulative;
  ack->n_sack = 0;
  /* RFC 2018: the block holding the segment just received first, then the
   * highest others */
  for (i = 0; i < rx->blocks->len; i++) {
    OctoTcpBlock *b = &g_array_index (rx->blocks, OctoTcpBlock, i);
    if (b->start <= seq && seq < b->end)
      ack->sack[ack->n_sack++] = *b;
  }
  for (i = rx->blocks->len; i-- > 0 && ack->n_sack < OCTO_TCP_MAX_SACK;) {
    OctoTcpBlock *b = &g_array_index (rx->blocks, OctoTcpBlock, i);
    if (!(b->start <= seq && seq < b->end))
      ack->sack[ack->n_sack++] = *b;
  }
  return rx->cumulative;
}
