/* gst-octopus core: QUCO's window and the trim-aware BBR wrapper (see
 * octo-cc.h). */
#include "octo-cc.h"

gdouble
octo_quco_beta (guint trimmed)
{
  if (trimmed == 0)
    return 0.0;
  if (trimmed == 1)
    return OCTO_QUCO_BETA_LIGHT;
  if (trimmed == 2)
    return OCTO_QUCO_BETA_MEDIUM;
  return OCTO_QUCO_BETA_HIGH;
}

/* One back-off per round trip, the deepest signal of the round winning. */
typedef struct {
  OctoTime srtt;                /* 0 before the first RTT sample */
  OctoTime round_end;           /* a new back-off may start from here */
  gdouble round_start;          /* the value the current round backed off */
  gdouble round_beta;
  gboolean in_round;
} Backoff;

static void
backoff_rtt (Backoff *b, OctoTime rtt)
{
  if (rtt == 0)
    return;
  if (b->srtt == 0 && b->in_round)
    b->round_end = 0;           /* the pre-sample round ends with the sample */
  b->srtt = b->srtt == 0 ? rtt : (7 * b->srtt + rtt) / 8;
}

/* Returns the backed-off @value (not below @floor) for a signal of @beta
 * at @now. */
static gdouble
backoff_apply (Backoff *b, gdouble value, gdouble beta, gdouble floor,
    OctoTime now)
{
  if (b->in_round && now < b->round_end) {
    if (beta <= b->round_beta)
      return value;
    b->round_beta = beta;
    /* deepen, never raise: the value may have fallen since (a timeout) */
    return MIN (value, MAX ((1.0 - beta) * b->round_start, floor));
  }
  b->in_round = TRUE;
  b->round_start = value;
  b->round_beta = beta;
  /* before the first RTT sample the whole wait is one round */
  b->round_end = b->srtt ? now + b->srtt : OCTO_TIME_NONE;
  return MAX ((1.0 - beta) * value, floor);
}

/* QUCO / NewReno-like window. */

typedef struct {
  OctoCc cc;
  OctoQucoConfig config;
  gdouble cwnd, ssthresh;       /* packets */
  Backoff backoff;
} QucoCc;

static void
quco_free (OctoCc *cc)
{
  g_free (cc);
}

static void
quco_back_off (QucoCc *q, gdouble beta, OctoTime now)
{
  gdouble before = q->cwnd;

  q->cwnd = backoff_apply (&q->backoff, q->cwnd, beta, 1.0, now);
  if (q->cwnd != before)
    q->ssthresh = q->cwnd;
}

static void
quco_on_ack (OctoCc *cc, const OctoRateSample *rs,
    G_GNUC_UNUSED guint64 delivered, guint64 inflight, OctoTime now)
{
  QucoCc *q = (QucoCc *) cc;
  guint64 prior_inflight = inflight + rs->newly_acked + rs->newly_lost;

  backoff_rtt (&q->backoff, rs->rtt);
  if (rs->newly_lost > 0)
    quco_back_off (q, OCTO_QUCO_BETA_HIGH, now);
  /* The window grows only while it is what limits the sender (RFC 7661):
   * an app-limited video would otherwise grow it, and the estimate made of
   * it, without bound. */
  if (prior_inflight + q->config.mss < q->cwnd * q->config.mss)
    return;
  /* Algorithm 3 per acked packet. */
  for (gdouble left = (gdouble) rs->newly_acked / q->config.mss; left > 0;
      left -= 1.0) {
    gdouble step = MIN (left, 1.0);
    q->cwnd += q->cwnd <= q->ssthresh ? step : step / q->cwnd;
  }
}

static void
quco_on_nack (OctoCc *cc, guint trimmed, OctoTime now)
{
  QucoCc *q = (QucoCc *) cc;

  if (!q->config.trim_aware)
    return;
  if (q->config.every_nack) {
    q->cwnd = q->ssthresh = MAX ((1.0 - octo_quco_beta (trimmed)) * q->cwnd,
        1.0);
    return;
  }
  quco_back_off (q, octo_quco_beta (trimmed), now);
}

/* TCP's retransmission timeout (RFC 5681 §3.1): half of what was in
 * flight becomes the threshold, the window one packet, and the back-off
 * round is over (a later signal starts from this window). */
static void
quco_on_timeout (OctoCc *cc, guint64 inflight, G_GNUC_UNUSED OctoTime now)
{
  QucoCc *q = (QucoCc *) cc;

  q->ssthresh = MAX ((gdouble) inflight / q->config.mss / 2, 2.0);
  q->cwnd = 1.0;
  q->backoff.in_round = FALSE;
}

static guint64
quco_pacing_rate (G_GNUC_UNUSED const OctoCc *cc)
{
  return 0;
}

static guint64
quco_cwnd (const OctoCc *cc)
{
  const QucoCc *q = (const QucoCc *) cc;

  return (guint64) (q->cwnd * q->config.mss);
}

static guint64
quco_bandwidth (const OctoCc *cc)
{
  const QucoCc *q = (const QucoCc *) cc;

  if (q->backoff.srtt == 0)
    return OCTO_BW_UNKNOWN;
  return (guint64) (q->cwnd * q->config.mss * 8 * OCTO_SECOND /
      q->backoff.srtt);
}

static const gchar *
quco_state (const OctoCc *cc)
{
  const QucoCc *q = (const QucoCc *) cc;

  return q->cwnd <= q->ssthresh ? "slow-start" : "congestion-avoidance";
}

static const OctoCcOps quco_ops = {
  .free = quco_free,
  .on_ack = quco_on_ack,
  .on_timeout = quco_on_timeout,
  .pacing_rate = quco_pacing_rate,
  .bandwidth = quco_bandwidth,
  .cwnd = quco_cwnd,
  .state = quco_state,
  .on_nack = quco_on_nack,
};

OctoCc *
octo_cc_new_quco (const OctoQucoConfig *config)
{
  g_return_val_if_fail (config->mss > 0, NULL);
  QucoCc *q = g_new0 (QucoCc, 1);

  q->cc.ops = &quco_ops;
  q->config = *config;
  q->cwnd = MAX (config->initial_cwnd, 1.0);
  q->ssthresh = G_MAXDOUBLE;
  return &q->cc;
}

gdouble
octo_cc_quco_cwnd_packets (const OctoCc *cc)
{
  g_return_val_if_fail (cc->ops == &quco_ops, 0);
  return ((const QucoCc *) cc)->cwnd;
}

gdouble
octo_cc_quco_ssthresh (const OctoCc *cc)
{
  g_return_val_if_fail (cc->ops == &quco_ops, 0);
  return ((const QucoCc *) cc)->ssthresh;
}

/* BBR, scaled down by trim level. */

/* Never below a tenth: BBR still needs packets out to measure the path. */
#define TRIM_FACTOR_FLOOR 0.1

typedef struct {
  OctoCc cc;
  OctoCc *inner;
  guint64 min_cwnd;             /* BBR's least window, bytes */
  gdouble factor;
  Backoff backoff;
  OctoTime calm_since;          /* last NACK or recovery step */
} TrimCc;

#define INNER(cc) (((const TrimCc *) (cc))->inner)

static void
trim_free (OctoCc *cc)
{
  octo_cc_free (((TrimCc *) cc)->inner);
  g_free (cc);
}

static void
trim_on_send (OctoCc *cc, guint64 seq, guint64 inflight, gboolean app_limited,
    OctoTime now)
{
  OctoCc *inner = ((TrimCc *) cc)->inner;

  if (inner->ops->on_send)
    inner->ops->on_send (inner, seq, inflight, app_limited, now);
}

static void
trim_on_ack (OctoCc *cc, const OctoRateSample *rs, guint64 delivered,
    guint64 inflight, OctoTime now)
{
  TrimCc *t = (TrimCc *) cc;

  backoff_rtt (&t->backoff, rs->rtt);
  if (t->backoff.srtt > 0 && now >= t->calm_since + t->backoff.srtt &&
      t->factor < 1.0) {
    t->factor = MIN (t->factor + OCTO_QUCO_TRIM_RECOVERY, 1.0);
    t->calm_since = now;
  }
  if (t->inner->ops->on_ack)
    t->inner->ops->on_ack (t->inner, rs, delivered, inflight, now);
}

static void
trim_on_timeout (OctoCc *cc, guint64 inflight, OctoTime now)
{
  OctoCc *inner = ((TrimCc *) cc)->inner;

  if (inner->ops->on_timeout)
    inner->ops->on_timeout (inner, inflight, now);
}

static void
trim_on_nack (OctoCc *cc, guint trimmed, OctoTime now)
{
  TrimCc *t = (TrimCc *) cc;

  t->factor = backoff_apply (&t->backoff, t->factor,
      octo_quco_beta (trimmed), TRIM_FACTOR_FLOOR, now);
  t->calm_since = now;
}

static guint64
trim_pacing_rate (const OctoCc *cc)
{
  return (guint64) (INNER (cc)->ops->pacing_rate (INNER (cc)) *
      ((const TrimCc *) cc)->factor);
}

static guint64
trim_cwnd (const OctoCc *cc)
{
  const TrimCc *t = (const TrimCc *) cc;
  guint64 w = INNER (cc)->ops->cwnd (INNER (cc));

  if (w == OCTO_CC_NO_WINDOW)
    return w;
  return MAX ((guint64) (w * t->factor), MIN (w, t->min_cwnd));
}

/* The rate it will send at, not BBR's: an application that followed
 * BBR's estimate would fill the send buffer with what the scaled pacer
 * never lets out.  Nor more than the window lets out in a smoothed round
 * trip, which binds once NACKs have scaled it down to BBR's least. */
static guint64
trim_bandwidth (const OctoCc *cc)
{
  const TrimCc *t = (const TrimCc *) cc;
  guint64 bw = INNER (cc)->ops->bandwidth (INNER (cc)), w = trim_cwnd (cc);

  if (bw == OCTO_BW_UNKNOWN)
    return bw;
  bw = MAX ((guint64) (bw * t->factor), 1);
  if (w != OCTO_CC_NO_WINDOW && t->backoff.srtt > 0)
    bw = MIN (bw, MAX ((guint64) ((gdouble) w * 8 * OCTO_SECOND /
                t->backoff.srtt), 1));
  return bw;
}

static OctoTime
trim_min_rtt (const OctoCc *cc)
{
  return INNER (cc)->ops->min_rtt (INNER (cc));
}

static gboolean
trim_probing (const OctoCc *cc)
{
  return INNER (cc)->ops->probing && INNER (cc)->ops->probing (INNER (cc));
}

static gboolean
trim_draining (const OctoCc *cc)
{
  return INNER (cc)->ops->draining && INNER (cc)->ops->draining (INNER (cc));
}

static const gchar *
trim_state (const OctoCc *cc)
{
  return INNER (cc)->ops->state (INNER (cc));
}

static const OctoCcOps trim_ops = {
  .free = trim_free,
  .on_send = trim_on_send,
  .on_ack = trim_on_ack,
  .on_timeout = trim_on_timeout,
  .pacing_rate = trim_pacing_rate,
  .bandwidth = trim_bandwidth,
  .cwnd = trim_cwnd,
  .min_rtt = trim_min_rtt,
  .probing = trim_probing,
  .draining = trim_draining,
  .state = trim_state,
  .on_nack = trim_on_nack,
};

OctoCc *
octo_cc_new_trim_aware (OctoCc *inner, guint32 mss)
{
  g_return_val_if_fail (inner->ops->min_rtt != NULL, NULL);
  TrimCc *t = g_new0 (TrimCc, 1);

  t->cc.ops = &trim_ops;
  t->inner = inner;
  t->min_cwnd = (guint64) OCTO_BBR_MIN_PIPE_PACKETS * mss;
  t->factor = 1.0;
  return &t->cc;
}

gdouble
octo_cc_trim_aware_factor (const OctoCc *cc)
{
  g_return_val_if_fail (cc->ops == &trim_ops, 0);
  return ((const TrimCc *) cc)->factor;
}
