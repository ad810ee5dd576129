/* gst-octopus core: BBR and Delay-BBR (see octo-bbr.h). */
#include "octo-bbr.h"

/* Kathleen Nichols' windowed max: the best, 2nd and 3rd best samples of
 * the window, so expiring the best never needs the whole history. */
typedef struct {
  guint64 round;
  guint64 value;
} MaxSample;

typedef struct {
  MaxSample s[3];
} MaxFilter;

static guint64
max_filter_update (MaxFilter *m, guint64 window, guint64 round, guint64 v)
{
  MaxSample val = { round, v };

  if (v >= m->s[0].value || round - m->s[2].round > window) {
    m->s[0] = m->s[1] = m->s[2] = val;
    return v;
  }
  if (v >= m->s[1].value)
    m->s[2] = m->s[1] = val;
  else if (v >= m->s[2].value)
    m->s[2] = val;

  /* Age out expired bests; keep sub-windows spread over the window. */
  guint64 dt = round - m->s[0].round;
  if (dt > window) {
    m->s[0] = m->s[1];
    m->s[1] = m->s[2];
    m->s[2] = val;
    if (round - m->s[0].round > window) {
      m->s[0] = m->s[1];
      m->s[1] = m->s[2];
      m->s[2] = val;
    }
  } else if (m->s[1].round == m->s[0].round && dt > window / 4) {
    m->s[2] = m->s[1] = val;
  } else if (m->s[2].round == m->s[1].round && dt > window / 2) {
    m->s[2] = val;
  }
  return m->s[0].value;
}

struct _OctoBbr {
  OctoBbrConfig config;
  OctoBbrMode mode;
  const gdouble *cycle;

  MaxFilter bw_filter;
  guint64 btl_bw;
  OctoTime min_rtt;             /* 0 = none yet */
  OctoTime min_rtt_stamp;
  gboolean min_rtt_expired;

  guint64 round_count;
  guint64 next_round_delivered;
  gboolean round_start;

  gboolean filled_pipe;
  guint64 full_bw;
  guint full_bw_count;

  gdouble pacing_gain, cwnd_gain;
  guint cycle_index;
  OctoTime cycle_stamp;

  OctoTime probe_rtt_done_stamp;
  gboolean probe_rtt_round_done;
  guint64 prior_cwnd;
  gboolean idle_restart;
  /* after a loss timeout, until a packet sent after it is acked */
  gboolean in_timeout_recovery;
  guint64 recovery_seq;

  guint64 pacing_rate;
  guint64 cwnd;
  gboolean seen_rtt;

  /* Delay-BBR */
  OctoTime srtt;                /* 0 = restart sampling */
  OctoTime baseline_rtt;        /* 0 = +infinity */
  guint64 seq_at_backoff;
  guint64 last_sent_seq;
  guint64 backoff_bdp;
  gboolean delay_backoff;       /* PROBE_RTT is a delay backoff, not a probe */

  guint32 rng;
};

static const gdouble bbr_cycle[OCTO_BBR_GAIN_CYCLE_LEN] =
    { 1.25, 0.75, 1, 1, 1, 1, 1, 1 };
static const gdouble dbbr_cycle[OCTO_BBR_GAIN_CYCLE_LEN] =
    { OCTO_DBBR_UP_GAIN, OCTO_DBBR_DOWN_GAIN, 1, 1, 1, 1, 1, 1 };

const gchar *
octo_bbr_mode_to_string (OctoBbrMode mode)
{
  static const gchar *names[] = { "startup", "drain", "probe-bw", "probe-rtt" };
  return mode <= OCTO_BBR_PROBE_RTT ? names[mode] : "invalid";
}

static guint64
bdp_bytes (const OctoBbr *b, gdouble gain)
{
  if (b->min_rtt == 0 || b->btl_bw == 0)
    return (guint64) OCTO_BBR_INITIAL_PACKETS * b->config.mss;
  gdouble bdp = (gdouble) b->btl_bw * b->min_rtt / (8.0 * OCTO_SECOND);
  return (guint64) (gain * bdp);
}

/* Target inflight for @gain: the BDP share plus room for ACK aggregation. */
static guint64
target_inflight (const OctoBbr *b, gdouble gain)
{
  if (b->min_rtt == 0 || b->btl_bw == 0)
    return (guint64) OCTO_BBR_INITIAL_PACKETS * b->config.mss;
  return bdp_bytes (b, gain) + 3 * (guint64) b->config.mss;
}

static guint64
min_pipe_cwnd (const OctoBbr *b)
{
  return (guint64) OCTO_BBR_MIN_PIPE_PACKETS * b->config.mss;
}

/* PROBE_RTT's window: half the BDP, as BBRv2/v3 (draft-ietf-ccwg-bbr's
 * ProbeRTTCwndGain), not BBRv1's 4 packets: a real-time sender keeps
 * sending while the queue drains, and enough packets stay in flight for
 * the packet threshold to detect a loss without waiting for the timer. */
static guint64
probe_rtt_cwnd (const OctoBbr *b)
{
  return MAX (bdp_bytes (b, OCTO_BBR_PROBE_RTT_CWND_GAIN), min_pipe_cwnd (b));
}

static void
set_pacing_rate_with_gain (OctoBbr *b, gdouble gain)
{
  guint64 rate = (guint64) (gain * b->btl_bw);
  if (b->btl_bw > 0 && (b->filled_pipe || rate > b->pacing_rate))
    b->pacing_rate = rate;
}

static void
enter_startup (OctoBbr *b)
{
  b->mode = OCTO_BBR_STARTUP;
  b->pacing_gain = OCTO_BBR_HIGH_GAIN;
  b->cwnd_gain = OCTO_BBR_HIGH_GAIN;
}

static void
advance_cycle_phase (OctoBbr *b, OctoTime now)
{
  b->cycle_stamp = now;
  b->cycle_index = (b->cycle_index + 1) % OCTO_BBR_GAIN_CYCLE_LEN;
  b->pacing_gain = b->cycle[b->cycle_index];
}

static void
enter_probe_bw (OctoBbr *b, OctoTime now)
{
  b->mode = OCTO_BBR_PROBE_BW;
  b->pacing_gain = 1;
  b->cwnd_gain = OCTO_BBR_CWND_GAIN;
  /* Any phase but the draining one, so flows desynchronise. */
  b->rng = b->rng * 1103515245u + 12345u;
  b->cycle_index = OCTO_BBR_GAIN_CYCLE_LEN - 1 -
      (b->rng >> 16) % (OCTO_BBR_GAIN_CYCLE_LEN - 1);
  advance_cycle_phase (b, now);
}

OctoBbr *
octo_bbr_new (const OctoBbrConfig *config, OctoTime now)
{
  OctoBbr *b = g_new0 (OctoBbr, 1);

  b->config = *config;
  if (b->config.mss == 0)
    b->config.mss = 1500;
  b->cycle = config->algorithm == OCTO_CC_DELAY_BBR ? dbbr_cycle : bbr_cycle;
  b->rng = config->seed;
  b->min_rtt_stamp = now;
  b->cwnd = (guint64) OCTO_BBR_INITIAL_PACKETS * b->config.mss;
  /* No RTT yet: assume 1 ms as Linux does; the window bounds the burst. */
  b->pacing_rate = (guint64) (OCTO_BBR_HIGH_GAIN * b->cwnd * 8 * 1000);
  enter_startup (b);
  return b;
}

void
octo_bbr_free (OctoBbr *bbr)
{
  g_free (bbr);
}

void
octo_bbr_on_send (OctoBbr *b, guint64 seq, guint64 inflight,
    gboolean app_limited, OctoTime now)
{
  (void) now;
  b->last_sent_seq = seq;
  if (inflight == 0 && app_limited) {
    b->idle_restart = TRUE;
    if (b->mode == OCTO_BBR_PROBE_BW)
      set_pacing_rate_with_gain (b, 1.0);
  }
}

static void
update_round (OctoBbr *b, const OctoRateSample *rs, guint64 delivered)
{
  b->round_start = FALSE;
  if (rs->newly_acked > 0 && rs->prior_delivered >= b->next_round_delivered) {
    b->next_round_delivered = delivered;
    b->round_count++;
    b->round_start = TRUE;
  }
}

static void
update_btl_bw (OctoBbr *b, const OctoRateSample *rs)
{
  if (rs->delivery_rate == 0)
    return;
  if (rs->delivery_rate >= b->btl_bw || !rs->is_app_limited)
    b->btl_bw = max_filter_update (&b->bw_filter, OCTO_BBR_BW_WINDOW_ROUNDS,
        b->round_count, rs->delivery_rate);
}

static void
check_cycle_phase (OctoBbr *b, const OctoRateSample *rs, guint64 prior_inflight,
    OctoTime now)
{
  if (b->mode != OCTO_BBR_PROBE_BW)
    return;
  gboolean full_length = now - b->cycle_stamp > b->min_rtt;
  gboolean next;
  if (b->pacing_gain == 1)
    next = full_length;
  else if (b->pacing_gain > 1)
    next = full_length && (rs->newly_lost > 0 ||
        prior_inflight >= target_inflight (b, b->pacing_gain));
  else
    next = full_length || prior_inflight <= target_inflight (b, 1.0);
  if (next)
    advance_cycle_phase (b, now);
}

static void
check_full_pipe (OctoBbr *b, const OctoRateSample *rs)
{
  if (b->filled_pipe || !b->round_start || rs->is_app_limited)
    return;
  if (b->btl_bw >= b->full_bw * OCTO_BBR_FULL_BW_GROWTH) {
    b->full_bw = b->btl_bw;
    b->full_bw_count = 0;
    return;
  }
  if (++b->full_bw_count >= OCTO_BBR_FULL_BW_ROUNDS)
    b->filled_pipe = TRUE;
}

static void
check_drain (OctoBbr *b, guint64 inflight, OctoTime now)
{
  if (b->mode == OCTO_BBR_STARTUP && b->filled_pipe) {
    b->mode = OCTO_BBR_DRAIN;
    b->pacing_gain = 1.0 / OCTO_BBR_HIGH_GAIN;
    b->cwnd_gain = OCTO_BBR_HIGH_GAIN;
  }
  if (b->mode == OCTO_BBR_DRAIN && inflight <= target_inflight (b, 1.0))
    enter_probe_bw (b, now);
}

static void
update_min_rtt (OctoBbr *b, const OctoRateSample *rs, OctoTime now)
{
  b->min_rtt_expired = now > b->min_rtt_stamp + OCTO_BBR_MIN_RTT_WINDOW;
  if (rs->rtt == 0)
    return;
  if (b->min_rtt == 0 || rs->rtt <= b->min_rtt || b->min_rtt_expired) {
    b->min_rtt = rs->rtt;
    b->min_rtt_stamp = now;
  } else if (b->config.algorithm == OCTO_CC_DELAY_BBR &&
      rs->rtt < OCTO_DBBR_SIMILAR_MIN_RTT * b->min_rtt) {
    /* A sample close to the minimum still proves the path is not queued. */
    b->min_rtt_stamp = now;
  }
}

static void
exit_probe_rtt (OctoBbr *b, OctoTime now)
{
  if (b->filled_pipe)
    enter_probe_bw (b, now);
  else
    enter_startup (b);
}

static void
check_probe_rtt (OctoBbr *b, guint64 delivered, guint64 inflight, OctoTime now)
{
  if (b->mode != OCTO_BBR_PROBE_RTT && b->min_rtt_expired && !b->idle_restart) {
    b->mode = OCTO_BBR_PROBE_RTT;
    b->pacing_gain = 1;
    /* as Linux's bbr_save_cwnd: in recovery the window before it counts */
    b->prior_cwnd = b->in_timeout_recovery ?
        MAX (b->prior_cwnd, b->cwnd) : b->cwnd;
    b->probe_rtt_done_stamp = 0;
  }
  /* a delay backoff is PROBE_RTT too; delay_response ends it */
  if (b->mode == OCTO_BBR_PROBE_RTT && !b->delay_backoff) {
    if (b->probe_rtt_done_stamp == 0 && inflight <= probe_rtt_cwnd (b)) {
      b->probe_rtt_done_stamp = now + OCTO_BBR_PROBE_RTT_TIME;
      b->probe_rtt_round_done = FALSE;
      b->next_round_delivered = delivered;
    } else if (b->probe_rtt_done_stamp != 0) {
      if (b->round_start)
        b->probe_rtt_round_done = TRUE;
      if (b->probe_rtt_round_done && now > b->probe_rtt_done_stamp) {
        b->min_rtt_stamp = now;
        b->cwnd = MAX (b->cwnd, b->prior_cwnd);
        exit_probe_rtt (b, now);
      }
    }
  }
  b->idle_restart = FALSE;
}

/* Delay-BBR's delay response (paper 003, Algorithms 3-5), for congestion
 * only: an expired min RTT is probed as BBR does (check_probe_rtt; see the
 * header). */
static void
delay_response (OctoBbr *b, const OctoRateSample *rs, guint64 inflight,
    OctoTime now)
{
  if (rs->rtt != 0 && rs->newly_acked > 0 &&
      rs->last_acked_seq > b->seq_at_backoff) {
    if (b->baseline_rtt == 0 || rs->rtt < b->baseline_rtt) {
      b->baseline_rtt = rs->rtt;
      b->srtt = rs->rtt;
    }
    b->srtt = (OctoTime) ((1 - OCTO_DBBR_SRTT_WEIGHT) * b->srtt +
        OCTO_DBBR_SRTT_WEIGHT * rs->rtt);
  }
  gboolean congested = b->mode == OCTO_BBR_PROBE_BW && b->srtt != 0 &&
      b->baseline_rtt != 0 &&
      b->srtt > OCTO_DBBR_CONGESTED_RATIO * b->baseline_rtt;

  if (congested) {
    b->mode = OCTO_BBR_PROBE_RTT;
    b->delay_backoff = TRUE;
    b->seq_at_backoff = b->last_sent_seq;
    b->srtt = 0;
    b->baseline_rtt = 0;
    b->pacing_gain = OCTO_DBBR_BACKOFF_GAIN;
    b->backoff_bdp = bdp_bytes (b, 1.0);
  }
  if (b->delay_backoff && inflight < b->backoff_bdp) {
    b->delay_backoff = FALSE;
    enter_probe_bw (b, now);
  }
}

static void
set_cwnd (OctoBbr *b, const OctoRateSample *rs, guint64 delivered)
{
  guint64 target = target_inflight (b, b->cwnd_gain);

  if (b->in_timeout_recovery) {
    if (rs->newly_acked == 0 || rs->last_acked_seq <= b->recovery_seq) {
      /* packet conservation: one out for each one delivered */
      b->cwnd = MAX (b->cwnd + rs->newly_acked, min_pipe_cwnd (b));
      return;
    }
    b->in_timeout_recovery = FALSE;
    b->cwnd = MAX (b->cwnd, b->prior_cwnd);
  }

  if (b->filled_pipe)
    b->cwnd = MIN (b->cwnd + rs->newly_acked, target);
  else if (b->cwnd < target ||
      delivered < (guint64) OCTO_BBR_INITIAL_PACKETS * b->config.mss)
    b->cwnd += rs->newly_acked;
  b->cwnd = MAX (b->cwnd, min_pipe_cwnd (b));
  if (b->mode == OCTO_BBR_PROBE_RTT && !b->delay_backoff)
    b->cwnd = MIN (b->cwnd, probe_rtt_cwnd (b));
}

void
octo_bbr_on_ack (OctoBbr *b, const OctoRateSample *rs, guint64 delivered,
    guint64 inflight, OctoTime now)
{
  guint64 prior_inflight = inflight + rs->newly_acked + rs->newly_lost;

  /* The first RTT replaces the 1 ms guess behind the initial pacing rate. */
  if (!b->seen_rtt && rs->rtt > 0) {
    b->seen_rtt = TRUE;
    b->pacing_rate = (guint64) (OCTO_BBR_HIGH_GAIN * b->cwnd * 8 *
        ((gdouble) OCTO_SECOND / rs->rtt));
  }
  update_round (b, rs, delivered);
  update_btl_bw (b, rs);
  check_cycle_phase (b, rs, prior_inflight, now);
  check_full_pipe (b, rs);
  check_drain (b, inflight, now);
  update_min_rtt (b, rs, now);
  if (b->config.algorithm == OCTO_CC_DELAY_BBR)
    delay_response (b, rs, inflight, now);
  check_probe_rtt (b, delivered, inflight, now);
  set_pacing_rate_with_gain (b, b->pacing_gain);
  set_cwnd (b, rs, delivered);
}

void
octo_bbr_on_timeout (OctoBbr *b, guint64 inflight, OctoTime now)
{
  (void) now;
  if (!b->in_timeout_recovery) {
    b->prior_cwnd = b->mode == OCTO_BBR_PROBE_RTT ?
        MAX (b->prior_cwnd, b->cwnd) : b->cwnd;
    b->in_timeout_recovery = TRUE;
  }
  b->recovery_seq = b->last_sent_seq;
  b->cwnd = inflight + b->config.mss;
}

guint64
octo_bbr_pacing_rate (const OctoBbr *bbr)
{
  return bbr->pacing_rate;
}

guint64
octo_bbr_cwnd (const OctoBbr *bbr)
{
  return bbr->cwnd;
}

guint64
octo_bbr_bandwidth (const OctoBbr *bbr)
{
  return bbr->btl_bw;
}

OctoTime
octo_bbr_min_rtt (const OctoBbr *bbr)
{
  return bbr->min_rtt;
}

OctoBbrMode
octo_bbr_mode (const OctoBbr *bbr)
{
  return bbr->mode;
}

gdouble
octo_bbr_pacing_gain (const OctoBbr *bbr)
{
  return bbr->pacing_gain;
}
