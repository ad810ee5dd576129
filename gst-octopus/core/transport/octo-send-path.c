/* gst-octopus core: one path of a sender (see octo-send-path.h). */
#include "octo-send-path.h"

#include "octo-qpacket.h"

/* a power of two divides 2^32, so a 32-bit seq names its slot */
G_STATIC_ASSERT ((OCTO_SEND_PATH_CHUNK_TAILS &
        (OCTO_SEND_PATH_CHUNK_TAILS - 1)) == 0);

/* What a qualitative packet in flight loses per trimmed chunk count. */
typedef struct {
  guint64 seq;
  guint n_chunks;               /* 0: empty slot */
  guint16 tail[OCTO_CHUNKS_MAX];
} ChunkTail;

struct _OctoSendPath {
  OctoSendPathConfig config;
  OctoFlight *flight;
  OctoCc *cc;
  OctoPacer pacer;
  guint64 backlog;              /* bytes the send buffer holds */
  gboolean fed_back;            /* a feedback arrived */
  OctoTime hold_backs[OCTO_SEND_PATH_HOLD_BACKS];
  guint next_hold_back;
  OctoArrivalCounters acked;    /* bytes acked, by ACK time */
  OctoArrivalSample acked_samples[OCTO_SEND_PATH_ACKED_SAMPLES];
  OctoTime first_acked;         /* OCTO_TIME_NONE: nothing acked yet */
  guint64 acked_rate;           /* over the window at the last ACK; 0: none */
  OctoTime unacked_since;       /* OCTO_TIME_NONE: none sent since an ACK */
  ChunkTail *chunk_tails;       /* by seq, OCTO_SEND_PATH_CHUNK_TAILS; NULL
                                 * until the first qualitative packet */
};

OctoSendPath *
octo_send_path_new (const OctoSendPathConfig *config, OctoCc *cc)
{
  OctoSendPath *p = g_new0 (OctoSendPath, 1);

  p->config = *config;
  p->flight = octo_flight_new ();
  p->cc = cc;
  p->first_acked = OCTO_TIME_NONE;
  p->unacked_since = OCTO_TIME_NONE;
  octo_pacer_init (&p->pacer, OCTO_PACER_DEFAULT_BURST);
  return p;
}

OctoSendPath *
octo_send_path_new_for (const OctoSendPathConfig *config, OctoSenderCc kind,
    guint32 mss, guint32 seed, OctoTime now)
{
  OctoSendPathConfig pc = *config;
  OctoBbrConfig bc = {
    .algorithm = kind == OCTO_SENDER_DELAY_BBR ? OCTO_CC_DELAY_BBR :
        OCTO_CC_BBR,
    .mss = mss,
    .seed = seed,
  };

  if (kind == OCTO_SENDER_QUCO || kind == OCTO_SENDER_NEWRENO) {
    OctoQucoConfig qc = {.mss = mss,.initial_cwnd = 1,
      .trim_aware = kind == OCTO_SENDER_QUCO
    };
    return octo_send_path_new (&pc, octo_cc_new_quco (&qc));
  }
  if (kind == OCTO_SENDER_BBR_QUCO)
    return octo_send_path_new (&pc,
        octo_cc_new_trim_aware (octo_cc_new_bbr (&bc, now), mss));
  if (kind != OCTO_SENDER_FIXED)
    return octo_send_path_new (&pc, octo_cc_new_bbr (&bc, now));
  /* max_rate is the rate itself, the fixed rates set later replace it, and
   * the estimate reported may exceed the pacing rate (the Oracle's): no
   * cap; the rate is known from the start. */
  pc.max_rate = 0;
  pc.initial_rate = 0;
  return octo_send_path_new (&pc, octo_cc_new_fixed (config->max_rate, 0));
}

void
octo_send_path_set_fixed_rates (OctoSendPath *path, guint64 pacing_rate,
    guint64 bandwidth)
{
  octo_cc_fixed_set_rates (path->cc, pacing_rate, bandwidth);
}

void
octo_send_path_free (OctoSendPath *path)
{
  if (!path)
    return;
  octo_flight_free (path->flight);
  octo_cc_free (path->cc);
  g_free (path->chunk_tails);
  g_free (path);
}

OctoCc *
octo_send_path_cc (const OctoSendPath *path)
{
  return path->cc;
}

OctoFlight *
octo_send_path_flight (const OctoSendPath *path)
{
  return path->flight;
}

static guint64
capped (const OctoSendPath *p, guint64 rate)
{
  if (p->config.max_rate && rate > p->config.max_rate)
    return p->config.max_rate;
  return rate;
}

static guint64
with_headroom (guint64 rate)
{
  return (guint64) (OCTO_SEND_PATH_PACING_HEADROOM * rate);
}

static gboolean
before_feedback (const OctoSendPath *p)
{
  return !p->fed_back && p->config.initial_rate > 0;
}

guint64
octo_send_path_pacing_rate (const OctoSendPath *path)
{
  guint64 rate;

  if (before_feedback (path))
    return with_headroom (capped (path, path->config.initial_rate));
  rate = path->cc->ops->pacing_rate (path->cc);
  /* A controller without a window paces at its rate exactly: nothing else
   * bounds what it puts on the path. */
  if (path->cc->ops->cwnd (path->cc) == OCTO_CC_NO_WINDOW)
    return capped (path, rate);
  if (path->config.max_rate)
    rate = MIN (rate, with_headroom (path->config.max_rate));
  return rate;
}

guint64
octo_send_path_bandwidth (const OctoSendPath *path)
{
  return capped (path, path->cc->ops->bandwidth (path->cc));
}

guint64
octo_send_path_rule_bandwidth (const OctoSendPath *path)
{
  guint64 bw = octo_send_path_bandwidth (path);

  if (bw == OCTO_BW_UNKNOWN || !path->cc->ops->searching ||
      !path->cc->ops->searching (path->cc))
    return bw;
  return MAX (bw, octo_send_path_pacing_rate (path));
}

gboolean
octo_send_path_queue_standing (const OctoSendPath *p)
{
  OctoTime srtt = octo_flight_srtt (p->flight);
  OctoTime min_rtt = octo_send_path_min_rtt (p);

  return srtt > 0 && min_rtt > 0 &&
      srtt >= OCTO_SEND_PATH_QUEUED_RTT_RATIO * min_rtt;
}

guint64
octo_send_path_app_rate (const OctoSendPath *path)
{
  guint64 bw = octo_send_path_bandwidth (path), cap;

  if (bw == OCTO_BW_UNKNOWN || path->acked_rate == 0
      || path->cc->ops->cwnd (path->cc) == OCTO_CC_NO_WINDOW
      || !octo_send_path_queue_standing (path))
    return bw;
  cap = (guint64) (OCTO_SEND_PATH_ACKED_FACTOR * path->acked_rate) +
      OCTO_SEND_PATH_ACKED_EXTRA;
  return MIN (bw, cap);
}

guint64
octo_send_path_estimate (const OctoSendPath *path)
{
  return path->cc->ops->bandwidth (path->cc);
}

OctoTime
octo_send_path_hold_back (const OctoSendPath *path)
{
  OctoTime hold_back = 0;

  for (guint i = 0; i < OCTO_SEND_PATH_HOLD_BACKS; i++)
    hold_back = MAX (hold_back, path->hold_backs[i]);
  return hold_back;
}

guint64
octo_send_path_cwnd (const OctoSendPath *path)
{
  guint64 cwnd = path->cc->ops->cwnd (path->cc);

  if (cwnd == OCTO_CC_NO_WINDOW)
    return OCTO_CC_NO_WINDOW;
  return cwnd + octo_send_path_estimate (path) *
      octo_send_path_hold_back (path) / (8 * OCTO_SECOND);
}

OctoTime
octo_send_path_min_rtt (const OctoSendPath *path)
{
  if (path->cc->ops->min_rtt)
    return path->cc->ops->min_rtt (path->cc);
  return octo_flight_min_rtt (path->flight);
}

const gchar *
octo_send_path_state (const OctoSendPath *path)
{
  return path->cc->ops->state (path->cc);
}

OctoTime
octo_send_path_unacked_since (const OctoSendPath *path)
{
  /* before any ACK a silent receiver is no outage: it may not report yet */
  return path->first_acked == OCTO_TIME_NONE ? OCTO_TIME_NONE :
      path->unacked_since;
}

static gboolean
probing (const OctoSendPath *path)
{
  return path->cc->ops->probing && path->cc->ops->probing (path->cc);
}

gboolean
octo_send_path_wants_padding (const OctoSendPath *path, guint64 ceiling)
{
  return probing (path) &&
      octo_send_path_estimate (path) < ceiling;
}

/* A windowed controller's pacer drains a backlog that its own rate would
 * need more than a minimum round trip for, within that round trip, at up
 * to OCTO_SEND_PATH_PACING_HEADROOM times the estimate (header); never
 * while the controller drains the path's queue on purpose. */
static guint64
drain_rate (const OctoSendPath *path)
{
  guint64 base = octo_send_path_pacing_rate (path);
  OctoTime rtt = octo_send_path_min_rtt (path);
  guint64 drain;

  if (path->backlog == 0 || rtt == 0 || before_feedback (path) ||
      path->cc->ops->cwnd (path->cc) == OCTO_CC_NO_WINDOW ||
      (path->cc->ops->draining && path->cc->ops->draining (path->cc)))
    return base;
  drain = (guint64) ((gdouble) path->backlog * 8 * OCTO_SECOND / rtt);
  return MAX (base, MIN (drain,
          with_headroom (octo_send_path_bandwidth (path))));
}

void
octo_send_path_update_pacer (OctoSendPath *path)
{
  octo_pacer_set_rate (&path->pacer, drain_rate (path));
}

void
octo_send_path_set_backlog (OctoSendPath *path, guint64 backlog)
{
  path->backlog = backlog;
  octo_send_path_update_pacer (path);
}

gboolean
octo_send_path_on_timer (OctoSendPath *path, OctoTime now)
{
  OctoTime hold_back = octo_send_path_hold_back (path);

  /* The flight's clock runs the hold-back behind. */
  if (before_feedback (path) || octo_flight_on_timer (path->flight,
          now > hold_back ? now - hold_back : 0) == 0)
    return FALSE;
  if (path->cc->ops->on_timeout)
    path->cc->ops->on_timeout (path->cc,
        octo_flight_inflight (path->flight), now);
  return TRUE;
}

static OctoTime
next_timeout (const OctoSendPath *p)
{
  OctoTime timeout;

  if (before_feedback (p))
    return OCTO_TIME_NONE;
  timeout = octo_flight_next_timeout (p->flight);
  if (timeout != OCTO_TIME_NONE)
    timeout += octo_send_path_hold_back (p);
  return timeout;
}

gboolean
octo_send_path_may_send (OctoSendPath *path, OctoTime now,
    gboolean continues_message, OctoTime *wake)
{
  guint64 cwnd = octo_send_path_cwnd (path);

  /* an unpaced controller has only its window to bound the flight */
  if (path->pacer.rate == 0)
    continues_message = FALSE;
  if (!continues_message && cwnd != OCTO_CC_NO_WINDOW &&
      !before_feedback (path) &&
      octo_flight_inflight (path->flight) >= cwnd) {
    *wake = next_timeout (path);
    return FALSE;
  }
  OctoTime next = octo_pacer_next_send_time (&path->pacer, now);
  if (next > now) {
    *wake = next;
    return FALSE;
  }
  return TRUE;
}

void
octo_send_path_idle (OctoSendPath *path, OctoTime *wake)
{
  octo_flight_mark_app_limited (path->flight);
  *wake = next_timeout (path);
}

guint64
octo_send_path_on_sent (OctoSendPath *path, guint32 size, gboolean tracked,
    OctoTime now)
{
  guint64 seq = 0;

  if (tracked) {
    guint64 inflight = octo_flight_inflight (path->flight);
    gboolean app_limited = octo_flight_is_app_limited (path->flight);

    seq = octo_flight_on_sent (path->flight, size, now);
    if (path->unacked_since == OCTO_TIME_NONE)
      path->unacked_since = now;
    if (path->cc->ops->on_send)
      path->cc->ops->on_send (path->cc, seq, inflight, app_limited, now);
  }
  octo_pacer_on_sent (&path->pacer, size, now);
  return seq;
}

void
octo_send_path_on_sent_bytes (OctoSendPath *path, guint64 seq,
    const guint8 *data, gsize len)
{
  guint32 tail[OCTO_CHUNKS_MAX];
  guint n = octo_qpacket_tail_bytes (data, len, tail);
  ChunkTail *t;

  if (n == 0)
    return;
  if (!path->chunk_tails)
    path->chunk_tails = g_new0 (ChunkTail, OCTO_SEND_PATH_CHUNK_TAILS);
  t = &path->chunk_tails[seq % OCTO_SEND_PATH_CHUNK_TAILS];
  t->seq = seq;
  t->n_chunks = n;
  for (guint k = 0; k < n; k++)
    t->tail[k] = (guint16) MIN (tail[k], G_MAXUINT16);
}

void
octo_send_path_on_nack (OctoSendPath *path, guint32 seq32, guint trimmed,
    OctoTime now)
{
  const ChunkTail *t = path->chunk_tails ?
      &path->chunk_tails[seq32 % OCTO_SEND_PATH_CHUNK_TAILS] : NULL;

  if (t && t->n_chunks > 0 && (guint32) t->seq == seq32 && trimmed > 0)
    octo_flight_on_trimmed (path->flight, seq32,
        t->tail[MIN (trimmed, t->n_chunks) - 1]);
  octo_cc_on_nack (path->cc, trimmed, now);
}

void
octo_send_path_on_feedback (OctoSendPath *path, OctoTime hold_back)
{
  path->fed_back = TRUE;
  if (hold_back == OCTO_TIME_NONE)
    return;
  path->hold_backs[path->next_hold_back] = hold_back;
  path->next_hold_back = (path->next_hold_back + 1) % OCTO_SEND_PATH_HOLD_BACKS;
}

void
octo_send_path_on_ack (OctoSendPath *path, const OctoAck *ack,
    OctoTime ack_time)
{
  OctoRateSample rs;

  octo_flight_on_ack (path->flight, ack, ack_time, &rs);
  if (rs.newly_acked > 0) {
    path->unacked_since = OCTO_TIME_NONE;
    octo_arrival_history_add (&path->acked, path->acked_samples,
        OCTO_SEND_PATH_ACKED_SAMPLES, OCTO_SEND_PATH_ACKED_BUCKET_SHIFT,
        (guint32) rs.newly_acked, ack_time);
    /* only once the history spans the window: a rate over the first few
     * ACKs says little */
    if (path->first_acked == OCTO_TIME_NONE)
      path->first_acked = ack_time;
    else if (ack_time >= path->first_acked + OCTO_SEND_PATH_ACKED_WINDOW)
      path->acked_rate = MAX (1, octo_arrival_history_rate (&path->acked,
              path->acked_samples, OCTO_SEND_PATH_ACKED_SAMPLES,
              ack_time - OCTO_SEND_PATH_ACKED_WINDOW, ack_time));
  }
  if (path->cc->ops->on_ack && (rs.newly_acked > 0 || rs.newly_lost > 0))
    path->cc->ops->on_ack (path->cc, &rs,
        octo_flight_get_stats (path->flight)->bytes_acked,
        octo_flight_inflight (path->flight), ack_time);
}
