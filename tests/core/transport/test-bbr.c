/* BBR and Delay-BBR mode transitions and pacing rates on scripted ACKs. */
#include "transport/octo-bbr.h"

#define MSS 1500
#define BW 12000000ull
#define RTT (50 * OCTO_MSECOND)
#define BDP (BW * RTT / 8 / OCTO_SECOND)        /* 75000 bytes */

typedef struct {
  OctoBbr *bbr;
  OctoTime now;
  guint64 delivered;
  guint64 seq;
} Script;

static void
script_init (Script *s, OctoCcAlgorithm algorithm)
{
  OctoBbrConfig c = { .algorithm = algorithm, .mss = MSS, .seed = 1 };
  s->now = 0;
  s->delivered = 0;
  s->seq = 0;
  s->bbr = octo_bbr_new (&c, 0);
}

/* One ACK, one round trip later, delivering @acked bytes at @rate with
 * @inflight left outstanding. */
static void
ack (Script *s, guint64 rate, OctoTime rtt, guint64 inflight)
{
  OctoRateSample rs = { 0 };

  octo_bbr_on_send (s->bbr, ++s->seq, inflight, FALSE, s->now);
  s->now += rtt;
  rs.delivery_rate = rate;
  rs.rtt = rtt;
  rs.newly_acked = 10 * MSS;
  rs.prior_delivered = s->delivered;
  rs.last_acked_seq = s->seq;
  rs.interval = rtt;
  rs.delivered = rs.newly_acked;
  s->delivered += rs.newly_acked;
  octo_bbr_on_ack (s->bbr, &rs, s->delivered, inflight, s->now);
}

static void
assert_rate (guint64 actual, gdouble expected)
{
  g_assert_cmpfloat (actual, >=, expected * 0.999);
  g_assert_cmpfloat (actual, <=, expected * 1.001);
}

/* Startup paces at 2/ln2 x the estimate, leaves after three rounds without
 * 25 % growth, drains at ln2/2 until inflight <= BDP, then cycles. */
static void
test_startup_drain_probe_bw (void)
{
  Script s;
  script_init (&s, OCTO_CC_BBR);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_STARTUP);
  g_assert_cmpuint (octo_bbr_bandwidth (s.bbr), ==, OCTO_BW_UNKNOWN);

  /* Doubling samples: still filling the pipe. */
  ack (&s, BW / 4, RTT, 0);
  ack (&s, BW / 2, RTT, 0);
  ack (&s, BW, RTT, 0);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_STARTUP);
  g_assert_cmpuint (octo_bbr_bandwidth (s.bbr), ==, BW);
  assert_rate (octo_bbr_pacing_rate (s.bbr), OCTO_BBR_HIGH_GAIN * BW);

  /* Plateau: the third round without growth ends startup. */
  ack (&s, BW, RTT, 3 * BDP);
  ack (&s, BW, RTT, 3 * BDP);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_STARTUP);
  ack (&s, BW, RTT, 3 * BDP);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_DRAIN);
  assert_rate (octo_bbr_pacing_rate (s.bbr), BW / OCTO_BBR_HIGH_GAIN);
  g_assert_cmpuint (octo_bbr_min_rtt (s.bbr), ==, RTT);

  /* Queue drained to the BDP: probe bandwidth. */
  ack (&s, BW, RTT, BDP);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_BW);
  /* cwnd converges to 2 BDP + 3 MSS. */
  for (guint i = 0; i < 20; i++)
    ack (&s, BW, RTT, BDP);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), ==, 2 * BDP + 3 * MSS);

  /* Over one cycle every gain appears, 1.25 then 0.75, pacing = gain x BW. */
  gboolean saw_up = FALSE, saw_down_after_up = FALSE;
  for (guint i = 0; i < 2 * OCTO_BBR_GAIN_CYCLE_LEN; i++) {
    gdouble gain = octo_bbr_pacing_gain (s.bbr);
    assert_rate (octo_bbr_pacing_rate (s.bbr), gain * BW);
    if (gain > 1)
      saw_up = TRUE;
    else if (gain < 1 && saw_up)
      saw_down_after_up = TRUE;
    /* Probing filled the pipe to 1.25 BDP, so the phase can end. */
    ack (&s, BW, RTT, gain > 1 ? 2 * BDP : BDP);
  }
  g_assert_true (saw_up);
  g_assert_true (saw_down_after_up);
  octo_bbr_free (s.bbr);
}

static void
reach_probe_bw (Script *s)
{
  for (guint i = 0; i < 5; i++)
    ack (s, BW, RTT, 2 * BDP);
  ack (s, BW, RTT, BDP);
  g_assert_cmpint (octo_bbr_mode (s->bbr), ==, OCTO_BBR_PROBE_BW);
}

/* ACKs at @rtt, no sample near the minimum, until the 10 s window has
 * passed: PROBE_BW until the last. */
static void
ack_until_min_rtt_expires (Script *s, OctoTime rtt)
{
  OctoTime last_min = s->now;

  while (s->now + rtt <= last_min + OCTO_BBR_MIN_RTT_WINDOW) {
    ack (s, BW, rtt, BDP);
    g_assert_cmpint (octo_bbr_mode (s->bbr), ==, OCTO_BBR_PROBE_BW);
  }
  ack (s, BW, rtt, BDP);
}

/* No RTT sample at or below min_rtt for 10 s: PROBE_RTT with a window of
 * half the BDP (BBRv2/v3, not BBRv1's 4 packets) for 200 ms and a round,
 * then back to PROBE_BW. */
static void
test_probe_rtt_after_min_rtt_expires (void)
{
  Script s;
  script_init (&s, OCTO_CC_BBR);
  reach_probe_bw (&s);
  OctoTime longer = RTT + 10 * OCTO_MSECOND;
  /* the expired minimum is replaced by the newest sample */
  guint64 half_bdp = BW * longer / 8 / OCTO_SECOND / 2;        /* 45000 */

  ack_until_min_rtt_expires (&s, longer);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_RTT);
  g_assert_cmpuint (octo_bbr_min_rtt (s.bbr), ==, longer);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), ==, half_bdp);
  assert_rate (octo_bbr_pacing_rate (s.bbr), BW);

  /* Still above half the BDP in flight: the 200 ms clock has not started. */
  for (guint i = 0; i < 6; i++)
    ack (&s, BW, longer, half_bdp + MSS);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_RTT);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), ==, half_bdp);

  /* Inflight down to half the BDP: 200 ms and a round later it is over. */
  ack (&s, BW, longer, half_bdp);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_RTT);
  for (guint i = 0; i < 5 && octo_bbr_mode (s.bbr) == OCTO_BBR_PROBE_RTT; i++)
    ack (&s, BW, longer, half_bdp);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_BW);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), >, half_bdp);
  octo_bbr_free (s.bbr);
}

/* A loss timeout (no ACK for 3 sRTT: a link that stopped) cuts the window
 * to what is still out plus one packet; ACKs of packets sent before it grow
 * the window by what they deliver; the first ACK of a packet sent after it
 * restores the window from before. */
static void
test_loss_timeout_shrinks_window_until_a_newer_ack (void)
{
  Script s;
  OctoRateSample rs = { 0 };
  script_init (&s, OCTO_CC_BBR);
  reach_probe_bw (&s);
  for (guint i = 0; i < 20; i++)
    ack (&s, BW, RTT, BDP);
  guint64 before = octo_bbr_cwnd (s.bbr);
  g_assert_cmpuint (before, ==, 2 * BDP + 3 * MSS);

  /* 10 packets sent after the last ACK; all but 2 time out */
  for (guint i = 0; i < 10; i++)
    octo_bbr_on_send (s.bbr, ++s.seq, (i + 1) * MSS, FALSE, s.now);
  s.now += 3 * RTT;
  octo_bbr_on_timeout (s.bbr, 2 * MSS, s.now);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), ==, 3 * MSS);
  /* a second timeout with nothing left out: one packet */
  octo_bbr_on_timeout (s.bbr, 0, s.now);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), ==, MSS);
  assert_rate (octo_bbr_bandwidth (s.bbr), BW);

  /* a late ACK of a packet from before the timeout: packet conservation,
   * but never below the minimal pipe */
  rs.newly_acked = MSS;
  rs.rtt = 4 * RTT;
  rs.last_acked_seq = s.seq - 1;
  rs.prior_delivered = s.delivered;
  s.delivered += MSS;
  octo_bbr_on_ack (s.bbr, &rs, s.delivered, MSS, s.now);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), ==, 4 * MSS);
  rs.last_acked_seq = s.seq;
  rs.prior_delivered = s.delivered;
  s.delivered += MSS;
  octo_bbr_on_ack (s.bbr, &rs, s.delivered, 0, s.now);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), ==, 5 * MSS);

  /* a packet sent after the timeout is acked: the old window is back */
  ack (&s, BW, RTT, 2 * MSS);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), ==, before);
  octo_bbr_free (s.bbr);
}

/* One round trip of a backlogged sender on a link of @rate whose ACKs come
 * in one batch: the sample is the link's rate whatever the batching. */
static void
ack_round (Script *s, guint64 rate, gboolean app_limited)
{
  OctoRateSample rs = { 0 };
  guint64 inflight = rate * RTT / 8 / OCTO_SECOND;

  octo_bbr_on_send (s->bbr, ++s->seq, inflight, FALSE, s->now);
  s->now += RTT;
  rs.delivery_rate = rate;
  rs.is_app_limited = app_limited;
  rs.rtt = RTT;
  rs.newly_acked = inflight;
  rs.prior_delivered = s->delivered;
  rs.last_acked_seq = s->seq;
  rs.interval = RTT;
  rs.delivered = inflight;
  s->delivered += inflight;
  octo_bbr_on_ack (s->bbr, &rs, s->delivered, inflight, s->now);
}

/* Capacity halves: the max filter holds the old rate for its window of 10
 * round trips and then follows the link exactly; the pacing rate is the
 * estimate times the phase's gain throughout.  Capacity comes back while
 * the app sends less than the estimate (app-limited samples): those never
 * lower it, and a sample above it (a probe that got through) raises it at
 * once. */
static void
test_capacity_step_down_then_up (void)
{
  Script s;
  guint rounds = 0;

  script_init (&s, OCTO_CC_BBR);
  reach_probe_bw (&s);
  for (guint i = 0; i < 20; i++)
    ack_round (&s, BW, FALSE);
  g_assert_cmpuint (octo_bbr_bandwidth (s.bbr), ==, BW);

  while (octo_bbr_bandwidth (s.bbr) == BW && rounds < 30) {
    ack_round (&s, BW / 2, FALSE);
    rounds++;
    assert_rate (octo_bbr_pacing_rate (s.bbr),
        octo_bbr_pacing_gain (s.bbr) * octo_bbr_bandwidth (s.bbr));
  }
  g_assert_cmpuint (rounds, ==, OCTO_BBR_BW_WINDOW_ROUNDS + 1);
  g_assert_cmpuint (octo_bbr_bandwidth (s.bbr), ==, BW / 2);

  for (guint i = 0; i < 3 * OCTO_BBR_BW_WINDOW_ROUNDS; i++) {
    ack_round (&s, BW / 4, TRUE);
    g_assert_cmpuint (octo_bbr_bandwidth (s.bbr), ==, BW / 2);
  }
  ack_round (&s, BW / 2 * 5 / 4, TRUE);
  g_assert_cmpuint (octo_bbr_bandwidth (s.bbr), ==, BW / 2 * 5 / 4);
  octo_bbr_free (s.bbr);
}

static void
test_delay_bbr_uses_gentle_gain_cycle (void)
{
  Script s;
  script_init (&s, OCTO_CC_DELAY_BBR);
  reach_probe_bw (&s);

  gboolean saw_up = FALSE, saw_down = FALSE;
  for (guint i = 0; i < 2 * OCTO_BBR_GAIN_CYCLE_LEN; i++) {
    gdouble gain = octo_bbr_pacing_gain (s.bbr);
    g_assert_true (gain == 1 || gain == OCTO_DBBR_UP_GAIN ||
        gain == OCTO_DBBR_DOWN_GAIN);
    assert_rate (octo_bbr_pacing_rate (s.bbr), gain * BW);
    saw_up |= gain == OCTO_DBBR_UP_GAIN;
    saw_down |= gain == OCTO_DBBR_DOWN_GAIN;
    ack (&s, BW, RTT, gain > 1 ? 2 * BDP : BDP);
  }
  g_assert_true (saw_up && saw_down);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_BW);
  octo_bbr_free (s.bbr);
}

/* Smoothed RTT above 1.2 x baseline: pace at 0.75 until inflight < BDP,
 * keeping the window (no 4-packet probe). */
static void
test_delay_bbr_backs_off_when_rtt_grows (void)
{
  Script s;
  script_init (&s, OCTO_CC_DELAY_BBR);
  reach_probe_bw (&s);
  guint64 cwnd = octo_bbr_cwnd (s.bbr);

  /* 1.1 x: tolerated. */
  ack (&s, BW, RTT * 11 / 10, BDP);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_BW);
  /* 1.4 x: congested. */
  ack (&s, BW, RTT * 14 / 10, 2 * BDP);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_RTT);
  g_assert_cmpfloat (octo_bbr_pacing_gain (s.bbr), ==, OCTO_DBBR_BACKOFF_GAIN);
  assert_rate (octo_bbr_pacing_rate (s.bbr), OCTO_DBBR_BACKOFF_GAIN * BW);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), >=, MIN (cwnd, 2 * BDP));

  ack (&s, BW, RTT * 14 / 10, 2 * BDP);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_RTT);
  ack (&s, BW, RTT, BDP - 1);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_BW);
  octo_bbr_free (s.bbr);
}

/* No RTT near the minimum for 10 s: Delay-BBR probes it as BBR does (a
 * window of half the BDP at gain 1, then back to PROBE_BW), not by its
 * 0.75 delay backoff, and the expired minimum gives way to the newest
 * sample. */
static void
test_delay_bbr_probes_an_expired_min_rtt_as_bbr (void)
{
  Script s;
  script_init (&s, OCTO_CC_DELAY_BBR);
  reach_probe_bw (&s);
  /* above the similar-sample bound, below the congestion ratio */
  OctoTime longer = RTT * 115 / 100;
  guint64 half_bdp = BW * longer / 8 / OCTO_SECOND / 2;

  ack_until_min_rtt_expires (&s, longer);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_RTT);
  g_assert_cmpfloat (octo_bbr_pacing_gain (s.bbr), ==, 1.0);
  g_assert_cmpuint (octo_bbr_min_rtt (s.bbr), ==, longer);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), ==, half_bdp);

  for (guint i = 0; i < 8 && octo_bbr_mode (s.bbr) == OCTO_BBR_PROBE_RTT; i++)
    ack (&s, BW, longer, half_bdp);
  g_assert_cmpint (octo_bbr_mode (s.bbr), ==, OCTO_BBR_PROBE_BW);
  g_assert_cmpuint (octo_bbr_cwnd (s.bbr), >, half_bdp);
  octo_bbr_free (s.bbr);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/bbr/startup-drain-probe-bw",
      test_startup_drain_probe_bw);
  g_test_add_func ("/transport/bbr/capacity-step-down-then-up",
      test_capacity_step_down_then_up);
  g_test_add_func ("/transport/bbr/loss-timeout-shrinks-window",
      test_loss_timeout_shrinks_window_until_a_newer_ack);
  g_test_add_func ("/transport/bbr/probe-rtt-after-min-rtt-expires",
      test_probe_rtt_after_min_rtt_expires);
  g_test_add_func ("/transport/delay-bbr/uses-gentle-gain-cycle",
      test_delay_bbr_uses_gentle_gain_cycle);
  g_test_add_func ("/transport/delay-bbr/backs-off-when-rtt-grows",
      test_delay_bbr_backs_off_when_rtt_grows);
  g_test_add_func ("/transport/delay-bbr/probes-an-expired-min-rtt-as-bbr",
      test_delay_bbr_probes_an_expired_min_rtt_as_bbr);
  return g_test_run ();
}
