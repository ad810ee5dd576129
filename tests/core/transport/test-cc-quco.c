/* QUCO's window (paper 004 Algorithm 3) on scripted ACKs, NACKs and
 * losses, its NewReno-like twin, and BBR scaled by trim level. */
#include "transport/octo-cc.h"

#define MSS 1000
#define RTT (100 * OCTO_MSECOND)

/* @packets acked of a sender that keeps its window full. */
static void
ack (OctoCc *cc, guint packets, OctoTime now)
{
  OctoRateSample rs = {.rtt = RTT,.newly_acked = (guint64) packets * MSS };
  guint64 window = cc->ops->cwnd (cc);

  cc->ops->on_ack (cc, &rs, 0, window > rs.newly_acked ?
      window - rs.newly_acked : 0, now);
}

static void
loss (OctoCc *cc, OctoTime now)
{
  OctoRateSample rs = {.newly_lost = MSS };

  cc->ops->on_ack (cc, &rs, 0, 0, now);
}

#define MS(x) ((OctoTime) (x) * OCTO_MSECOND)
#define assert_cwnd(cc, expect) \
  g_assert_cmpfloat_with_epsilon (octo_cc_quco_cwnd_packets (cc), (expect), 1e-9)

static void
test_algorithm_3_window_trajectory (void)
{
  OctoQucoConfig config = {.mss = MSS,.initial_cwnd = 1,.trim_aware = TRUE };
  OctoCc *cc = octo_cc_new_quco (&config);

  /* slow start: +1 per acked packet, from 1 */
  assert_cwnd (cc, 1);
  g_assert_cmpfloat (octo_cc_quco_ssthresh (cc), ==, G_MAXDOUBLE);
  ack (cc, 1, MS (100));
  assert_cwnd (cc, 2);
  ack (cc, 2, MS (200));
  assert_cwnd (cc, 4);
  ack (cc, 4, MS (300));
  ack (cc, 8, MS (400));
  assert_cwnd (cc, 16);
  g_assert_cmpuint (cc->ops->cwnd (cc), ==, 16 * MSS);

  /* one chunk trimmed: beta 0.10 */
  octo_cc_on_nack (cc, 1, MS (400));
  assert_cwnd (cc, 14.4);
  g_assert_cmpfloat_with_epsilon (octo_cc_quco_ssthresh (cc), 14.4, 1e-9);
  /* two chunks in the same round: deepened to 0.75 of the round's 16 */
  octo_cc_on_nack (cc, 2, MS (450));
  assert_cwnd (cc, 12);
  /* a milder one in the same round changes nothing */
  octo_cc_on_nack (cc, 1, MS (480));
  assert_cwnd (cc, 12);
  /* CWND <= ssthresh: one slow-start step, then +1/CWND */
  ack (cc, 1, MS (500));
  assert_cwnd (cc, 13);
  ack (cc, 1, MS (505));
  assert_cwnd (cc, 13 + 1.0 / 13);
  /* the round (one srtt = 100 ms from 400 ms) is over: three chunks, 0.50 */
  octo_cc_on_nack (cc, 3, MS (520));
  assert_cwnd (cc, (13 + 1.0 / 13) / 2);
  /* a whole packet lost in the same round: no second halving */
  loss (cc, MS (560));
  assert_cwnd (cc, (13 + 1.0 / 13) / 2);
  /* in the next round it halves */
  loss (cc, MS (700));
  assert_cwnd (cc, (13 + 1.0 / 13) / 4);
  /* and never below one packet */
  octo_cc_on_nack (cc, 15, MS (900));
  assert_cwnd (cc, (13 + 1.0 / 13) / 8);
  octo_cc_on_nack (cc, 3, MS (1100));
  assert_cwnd (cc, 1);
  g_assert_cmpstr (cc->ops->state (cc), ==, "slow-start");
  ack (cc, 1, MS (1200));
  assert_cwnd (cc, 2);
  g_assert_cmpstr (cc->ops->state (cc), ==, "congestion-avoidance");
  octo_cc_free (cc);
}

static void
test_newreno_twin_ignores_nacks_and_halves_on_loss (void)
{
  OctoQucoConfig config = {.mss = MSS,.initial_cwnd = 10,.trim_aware = FALSE };
  OctoCc *cc = octo_cc_new_quco (&config);

  ack (cc, 10, MS (100));
  assert_cwnd (cc, 20);
  octo_cc_on_nack (cc, 3, MS (150));
  assert_cwnd (cc, 20);
  loss (cc, MS (160));
  assert_cwnd (cc, 10);
  ack (cc, 1, MS (200));
  ack (cc, 1, MS (210));
  assert_cwnd (cc, 11 + 1.0 / 11);
  octo_cc_free (cc);
}

static void
test_every_nack_variant_backs_off_on_each (void)
{
  OctoQucoConfig config = {.mss = MSS,.initial_cwnd = 20,.trim_aware = TRUE,
    .every_nack = TRUE
  };
  OctoCc *cc = octo_cc_new_quco (&config);

  ack (cc, 1, MS (100));
  assert_cwnd (cc, 21);
  octo_cc_on_nack (cc, 1, MS (110));
  octo_cc_on_nack (cc, 1, MS (111));
  assert_cwnd (cc, 21 * 0.9 * 0.9);
  octo_cc_on_nack (cc, 3, MS (112));
  assert_cwnd (cc, 21 * 0.9 * 0.9 * 0.5);
  octo_cc_free (cc);
}

/* A timeout ends the back-off round: a deeper signal right after it backs
 * off from the timeout's window of 1, never back up to (1 - beta) of the
 * window the round started with. */
static void
test_timeout_ends_the_backoff_round (void)
{
  OctoQucoConfig config = {.mss = MSS,.initial_cwnd = 20,.trim_aware = TRUE };
  OctoCc *cc = octo_cc_new_quco (&config);

  ack (cc, 1, MS (100));        /* an RTT sample: rounds of 100 ms */
  assert_cwnd (cc, 21);
  octo_cc_on_nack (cc, 1, MS (200));
  assert_cwnd (cc, 21 * 0.9);
  cc->ops->on_timeout (cc, 10 * MSS, MS (250));
  assert_cwnd (cc, 1);
  g_assert_cmpfloat (octo_cc_quco_ssthresh (cc), ==, 5);
  octo_cc_on_nack (cc, 3, MS (260));
  assert_cwnd (cc, 1);
  octo_cc_free (cc);
}

/* An app-limited sender (far less in flight than the window) does not
 * grow the window, so neither does the estimate made of it. */
static void
test_app_limited_window_does_not_grow (void)
{
  OctoQucoConfig config = {.mss = MSS,.initial_cwnd = 10,.trim_aware = TRUE };
  OctoCc *cc = octo_cc_new_quco (&config);
  OctoRateSample rs = {.rtt = RTT,.newly_acked = MSS };

  for (guint i = 0; i < 1000; i++)
    cc->ops->on_ack (cc, &rs, 0, 2 * MSS, MS (100 + i));
  assert_cwnd (cc, 10);
  ack (cc, 1, MS (2000));       /* window full: it grows */
  assert_cwnd (cc, 11);
  octo_cc_free (cc);
}

/* Before the first RTT sample every NACK belongs to one round. */
static void
test_one_round_before_the_first_rtt_sample (void)
{
  OctoQucoConfig config = {.mss = MSS,.initial_cwnd = 20,.trim_aware = TRUE };
  OctoCc *cc = octo_cc_new_quco (&config);

  octo_cc_on_nack (cc, 1, MS (10));
  octo_cc_on_nack (cc, 1, MS (20));
  octo_cc_on_nack (cc, 1, MS (500));
  assert_cwnd (cc, 18);
  octo_cc_free (cc);
}

static void
test_betas_by_trimmed_chunks (void)
{
  g_assert_cmpfloat (octo_quco_beta (0), ==, 0.0);
  g_assert_cmpfloat (octo_quco_beta (1), ==, 0.10);
  g_assert_cmpfloat (octo_quco_beta (2), ==, 0.25);
  g_assert_cmpfloat (octo_quco_beta (3), ==, 0.50);
  g_assert_cmpfloat (octo_quco_beta (15), ==, 0.50);
}

static void
test_trim_aware_bbr_scales_rate_and_window (void)
{
  OctoBbrConfig bc = {.algorithm = OCTO_CC_BBR,.mss = MSS,.seed = 1 };
  OctoCc *cc = octo_cc_new_trim_aware (octo_cc_new_bbr (&bc, 0), MSS);
  OctoCc *ref = octo_cc_new_bbr (&bc, 0);

  ack (cc, 1, MS (100));
  ack (ref, 1, MS (100));
  g_assert_cmpuint (cc->ops->pacing_rate (cc), ==,
      ref->ops->pacing_rate (ref));
  octo_cc_on_nack (cc, 2, MS (110));
  g_assert_cmpfloat_with_epsilon (octo_cc_trim_aware_factor (cc), 0.75, 1e-9);
  octo_cc_on_nack (cc, 3, MS (150));
  g_assert_cmpfloat_with_epsilon (octo_cc_trim_aware_factor (cc), 0.5, 1e-9);
  g_assert_cmpuint (cc->ops->pacing_rate (cc), ==,
      (guint64) (ref->ops->pacing_rate (ref) * 0.5));
  g_assert_cmpuint (cc->ops->cwnd (cc), ==,
      (guint64) (ref->ops->cwnd (ref) * 0.5));
  g_assert_cmpuint (cc->ops->bandwidth (cc), ==,
      (guint64) (ref->ops->bandwidth (ref) * 0.5));
  /* one RTT without a NACK: +0.05 */
  ack (cc, 1, MS (200));
  g_assert_cmpfloat_with_epsilon (octo_cc_trim_aware_factor (cc), 0.5, 1e-9);
  ack (cc, 1, MS (250));
  g_assert_cmpfloat_with_epsilon (octo_cc_trim_aware_factor (cc),
      0.5 + OCTO_QUCO_TRIM_RECOVERY, 1e-9);
  octo_cc_free (cc);
  octo_cc_free (ref);
}

/* However far NACKs scale trim-aware BBR down, its window stays at BBR's
 * least (4 packets) where BBR's own is above it: a tenth of it is less
 * than a packet, one per round trip.  Its estimate is then what that
 * window sends in a round trip, not a tenth of BBR's.  Below the least,
 * BBR's own window (packet conservation after a timeout) passes
 * unscaled. */
static void
test_trim_aware_bbr_keeps_bbr_minimum_window (void)
{
  OctoBbrConfig bc = {.algorithm = OCTO_CC_BBR,.mss = MSS,.seed = 1 };
  OctoCc *cc = octo_cc_new_trim_aware (octo_cc_new_bbr (&bc, 0), MSS);
  OctoCc *ref = octo_cc_new_bbr (&bc, 0);
  const guint64 least = OCTO_BBR_MIN_PIPE_PACKETS * MSS;
  /* one packet acked, delivered at 8 Mbit/s */
  OctoRateSample rs = {.rtt = RTT,.newly_acked = MSS,.delivery_rate =
        8000000,.interval = MS (1),.delivered = MSS };

  cc->ops->on_ack (cc, &rs, MSS, 0, MS (100));
  ref->ops->on_ack (ref, &rs, MSS, 0, MS (100));
  g_assert_cmpuint (ref->ops->bandwidth (ref), ==, 8000000);
  /* one back-off per round: 0.5, 0.25, 0.125, then the floor */
  for (guint i = 0; i < 4; i++)
    octo_cc_on_nack (cc, 3, MS (110 + 110 * i));
  g_assert_cmpfloat_with_epsilon (octo_cc_trim_aware_factor (cc), 0.1, 1e-9);
  g_assert_cmpuint (ref->ops->cwnd (ref), >, least);
  g_assert_cmpuint (ref->ops->cwnd (ref) / 10, <, least);
  g_assert_cmpuint (cc->ops->cwnd (cc), ==, least);
  g_assert_cmpuint (cc->ops->pacing_rate (cc), ==,
      (guint64) (ref->ops->pacing_rate (ref) * 0.1));
  /* 4 packets a 100 ms round trip: 320 kbit/s, not 800 */
  g_assert_cmpuint (cc->ops->bandwidth (cc), ==, 320000);

  cc->ops->on_timeout (cc, MSS, MS (600));
  ref->ops->on_timeout (ref, MSS, MS (600));
  g_assert_cmpuint (ref->ops->cwnd (ref), ==, 2 * MSS);
  g_assert_cmpuint (cc->ops->cwnd (cc), ==, 2 * MSS);
  octo_cc_free (cc);
  octo_cc_free (ref);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/transport/cc-quco/algorithm-3-window-trajectory",
      test_algorithm_3_window_trajectory);
  g_test_add_func ("/transport/cc-quco/newreno-twin-ignores-nacks",
      test_newreno_twin_ignores_nacks_and_halves_on_loss);
  g_test_add_func ("/transport/cc-quco/every-nack-variant",
      test_every_nack_variant_backs_off_on_each);
  g_test_add_func ("/transport/cc-quco/timeout-ends-the-backoff-round",
      test_timeout_ends_the_backoff_round);
  g_test_add_func ("/transport/cc-quco/app-limited-window-does-not-grow",
      test_app_limited_window_does_not_grow);
  g_test_add_func ("/transport/cc-quco/one-round-before-the-first-rtt-sample",
      test_one_round_before_the_first_rtt_sample);
  g_test_add_func ("/transport/cc-quco/betas-by-trimmed-chunks",
      test_betas_by_trimmed_chunks);
  g_test_add_func ("/transport/cc-quco/trim-aware-bbr-scales-rate-and-window",
      test_trim_aware_bbr_scales_rate_and_window);
  g_test_add_func ("/transport/cc-quco/trim-aware-bbr-keeps-bbr-minimum-window",
      test_trim_aware_bbr_keeps_bbr_minimum_window);
  return g_test_run ();
}
