/* GCC on scripted feedback: steady delay lets the rate grow; a rising delay
 * gradient trips the over-use detector and the rate drops to 0.85 x the
 * received rate; a link that delivers in grants is no over-use; heavy loss
 * cuts the loss-based rate. */
#include "octo-gcc.h"

#define MS OCTO_MSECOND

/* 1200-byte packets every 5 ms (1.92 Mbit/s) for @n packets from @t0; the
 * one-way delay grows by @ramp_us per packet.  Feedback every 20 packets. */
static OctoTime
feed (OctoGcc *g, OctoTime t0, guint n, gint64 ramp_us)
{
  OctoTime t = t0;

  for (guint i = 0; i < n; i++) {
    OctoTime send = t0 + i * 5 * MS;
    OctoTime arrival = send + 30 * MS + (OctoTime) (i * ramp_us) * OCTO_USECOND;
    octo_gcc_on_packet (g, send, 1200, arrival);
    t = arrival;
    if (i % 20 == 19)
      octo_gcc_on_feedback (g, t + 30 * MS, 60 * MS);
  }
  return t;
}

static void
test_steady_delay_lets_the_rate_grow (void)
{
  OctoGccConfig config;
  OctoGcc *g;

  octo_gcc_config_init (&config);
  config.initial_bps = 1000000;
  g = octo_gcc_new (&config);
  feed (g, 0, 400, 0);    /* 2 s */
  g_assert_cmpint (octo_gcc_usage (g), ==, OCTO_GCC_NORMAL);
  /* multiplicative increase, capped at 1.5 x the 1.92 Mbit/s received */
  g_assert_cmpuint (octo_gcc_target_bps (g), >, 1100000);
  g_assert_cmpuint (octo_gcc_target_bps (g), <=, 1.5 * 1920000 + 10000);
  octo_gcc_free (g);
}

static void
test_rising_delay_gradient_trips_overuse_and_cuts_the_rate (void)
{
  OctoGccConfig config;
  OctoGcc *g;
  OctoTime t;
  guint64 before;
  gboolean saw_overuse = FALSE;

  octo_gcc_config_init (&config);
  config.initial_bps = 2500000;
  g = octo_gcc_new (&config);
  t = feed (g, 0, 200, 0);
  before = octo_gcc_target_bps (g);
  /* a queue builds: each packet waits 1 ms more than the one before */
  for (guint i = 0; i < 100 && !saw_overuse; i++) {
    OctoTime send = t + i * 5 * MS;
    octo_gcc_on_packet (g, send, 1200, send + 30 * MS + i * MS);
    saw_overuse = octo_gcc_usage (g) == OCTO_GCC_OVERUSE;
  }
  g_assert_true (saw_overuse);
  g_assert_cmpfloat (octo_gcc_trend (g), >, octo_gcc_threshold (g));
  octo_gcc_on_feedback (g, t + OCTO_SECOND, 60 * MS);
  /* multiplicative decrease to 0.85 x the received rate, which the queue
   * has slowed from 1.92 to 1.6 Mbit/s (one packet per 6 ms) */
  g_assert_cmpint (octo_gcc_rate_state (g), ==, OCTO_GCC_HOLD);
  g_assert_cmpuint (before, >, 2000000);
  g_assert_cmpfloat (octo_gcc_target_bps (g), <=, 0.85 * 1920000);
  g_assert_cmpfloat (octo_gcc_target_bps (g), >=, 0.85 * 1600000);
  octo_gcc_free (g);
}

/* A cellular link serves in grants at irregular intervals (GRANT_GAPS):
 * what was sent at least 30 ms before a grant arrives then, back to back
 * (1 ms apart), at the rate it was sent (1200 bytes every 5 ms, 1.92
 * Mbit/s).  No queue builds; the pre-filter makes each grant's packets one
 * group, whose delay depends on the grant's gap and comes back to the same
 * values every cycle: no trend.  Without it each packet is a group whose
 * delay falls 4 ms from the one before within a grant and jumps back up by
 * about the gap at the next grant, and the detector reads over-use. */
static const guint GRANT_GAPS[] = { 20, 100, 20, 20, 60, 20 };

static void
test_grant_bursts_are_not_overuse (void)
{
  OctoGccConfig config;
  OctoGcc *g;
  OctoTime grant = 30 * MS;
  guint gap = 0, in_grant = 0;
  gboolean saw_overuse = FALSE;

  octo_gcc_config_init (&config);
  config.initial_bps = 1000000;
  g = octo_gcc_new (&config);
  for (guint i = 0; i < 1200; i++) {
    OctoTime send = i * 5 * MS;
    while (grant < send + 30 * MS) {
      grant += GRANT_GAPS[gap++ % G_N_ELEMENTS (GRANT_GAPS)] * MS;
      in_grant = 0;
      octo_gcc_on_feedback (g, grant, 60 * MS);
    }
    octo_gcc_on_packet (g, send, 1200, grant + in_grant++ * MS);
    saw_overuse |= octo_gcc_usage (g) == OCTO_GCC_OVERUSE;
  }
  g_assert_false (saw_overuse);
  g_assert_cmpuint (octo_gcc_target_bps (g), >, 1100000);
  octo_gcc_free (g);
}

static void
test_heavy_loss_cuts_the_loss_based_rate (void)
{
  OctoGccConfig config;
  OctoGcc *g;
  guint64 before;

  octo_gcc_config_init (&config);
  config.initial_bps = 1000000;
  g = octo_gcc_new (&config);
  feed (g, 0, 20, 0);
  before = octo_gcc_target_bps (g);
  /* 30 % of a batch lost: x (1 - 0.15) */
  for (guint i = 0; i < 20; i++)
    octo_gcc_on_packet (g, (100 + i * 5) * MS, 1200,
        i % 10 < 3 ? OCTO_TIME_NONE : (130 + i * 5) * MS);
  octo_gcc_on_feedback (g, 300 * MS, 60 * MS);
  g_assert_cmpuint (octo_gcc_target_bps (g), <, before * 0.9);
  octo_gcc_free (g);
}

/* The pacer runs at 2.5x the target, and faster once its queue would take
 * more than 2 s to drain at that pace. */
static void
test_pacer_drains_a_large_queue_within_two_seconds (void)
{
  g_assert_cmpuint (octo_gcc_pacing_bps (1000000, 0), ==, 2500000);
  g_assert_cmpuint (octo_gcc_pacing_bps (1000000, 625000), ==, 2500000);
  g_assert_cmpuint (octo_gcc_pacing_bps (1000000, 1000000), ==, 4000000);
  g_assert_cmpuint (octo_gcc_pacing_bps (200000, 375000), ==, 1500000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gcc/steady-delay-grows", test_steady_delay_lets_the_rate_grow);
  g_test_add_func ("/gcc/rising-gradient-overuse",
      test_rising_delay_gradient_trips_overuse_and_cuts_the_rate);
  g_test_add_func ("/gcc/grant-bursts", test_grant_bursts_are_not_overuse);
  g_test_add_func ("/gcc/heavy-loss", test_heavy_loss_cuts_the_loss_based_rate);
  g_test_add_func ("/gcc/pacer-queue-limit",
      test_pacer_drains_a_large_queue_within_two_seconds);
  return g_test_run ();
}
