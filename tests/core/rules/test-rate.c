/* The delivery-rate estimator and max-min shares on known schedules. */
#include "octo-rate.h"

#define MS OCTO_MSECOND

static void
assert_within (guint64 value, gdouble expected, gdouble tolerance)
{
  g_assert_cmpfloat (ABS ((gdouble) value - expected) / expected, <=,
      tolerance);
}

static void
test_constant_rate_is_exact (void)
{
  OctoRateMeter *m = octo_rate_meter_new ();

  octo_rate_meter_set_busy (m, TRUE, 0);
  for (guint i = 1; i <= 200; i++)
    octo_rate_meter_departure (m, 1500, i * MS);
  assert_within (octo_rate_meter_rate (m, 200 * MS), 12e6, 0.001);
  /* between departures, within one service interval: unchanged */
  assert_within (octo_rate_meter_rate (m, 200 * MS + MS / 2), 12e6, 0.001);
  /* 7.2 Mbit/s: 900 bytes every ms */
  for (guint i = 201; i <= 300; i++)
    octo_rate_meter_departure (m, 900, i * MS);
  assert_within (octo_rate_meter_rate (m, 300 * MS), 7.2e6, 0.02);
  octo_rate_meter_free (m);
}

/* Bursts of 10 packets at 1 ms spacing, then 20 ms with the queue empty:
 * idle time is not held against the link. */
static void
test_idle_gaps_are_discounted (void)
{
  OctoRateMeter *m = octo_rate_meter_new ();
  OctoTime t = 0;

  for (guint burst = 0; burst < 10; burst++) {
    octo_rate_meter_set_busy (m, TRUE, t);
    for (guint i = 1; i <= 10; i++)
      octo_rate_meter_departure (m, 1500, t + i * MS);
    t += 10 * MS;
    octo_rate_meter_set_busy (m, FALSE, t);
    t += 20 * MS;
  }
  assert_within (octo_rate_meter_rate (m, t), 12e6, 0.02);
  octo_rate_meter_free (m);
}

static void
test_step_change_is_followed_within_one_window (void)
{
  OctoRateMeter *m = octo_rate_meter_new ();
  OctoTime t = 0;

  octo_rate_meter_set_busy (m, TRUE, 0);
  for (guint i = 0; i < 200; i++) {
    t += MS;
    octo_rate_meter_departure (m, 1500, t);
  }
  assert_within (octo_rate_meter_rate (m, t), 12e6, 0.02);
  /* half the rate: one packet every 2 ms */
  for (guint i = 0; i < 30; i++) {
    t += 2 * MS;
    octo_rate_meter_departure (m, 1500, t);
  }
  assert_within (octo_rate_meter_rate (m, t), 6e6, 0.02);
  /* an outage: still busy, nothing leaves for 40 ms; the estimate falls */
  t += 40 * MS;
  g_assert_cmpuint (octo_rate_meter_rate (m, t), <, 3000000);
  octo_rate_meter_free (m);
}

static void
test_unknown_until_five_departures_and_after_a_second (void)
{
  OctoRateMeter *m = octo_rate_meter_new ();

  octo_rate_meter_set_busy (m, TRUE, 0);
  for (guint i = 1; i <= 4; i++) {
    octo_rate_meter_departure (m, 1500, i * MS);
    g_assert_cmpuint (octo_rate_meter_rate (m, i * MS), ==, OCTO_BW_UNKNOWN);
  }
  octo_rate_meter_departure (m, 1500, 5 * MS);
  assert_within (octo_rate_meter_rate (m, 5 * MS), 12e6, 0.001);
  octo_rate_meter_set_busy (m, FALSE, 5 * MS);
  /* sparse departures still give a rate from the last 5 */
  g_assert_cmpuint (octo_rate_meter_rate (m, 5 * MS + OCTO_SECOND), !=,
      OCTO_BW_UNKNOWN);
  g_assert_cmpuint (octo_rate_meter_rate (m, 5 * MS + OCTO_SECOND + 1), ==,
      OCTO_BW_UNKNOWN);
  octo_rate_meter_free (m);
}

static void
test_never_busy_queue_is_unlimited (void)
{
  OctoRateMeter *m = octo_rate_meter_new ();

  /* every packet left the instant it arrived */
  for (guint i = 1; i <= 10; i++) {
    octo_rate_meter_set_busy (m, TRUE, i * MS);
    octo_rate_meter_departure (m, 1500, i * MS);
    octo_rate_meter_set_busy (m, FALSE, i * MS);
  }
  g_assert_cmpuint (octo_rate_meter_rate (m, 10 * MS), ==, OCTO_BW_UNLIMITED);
  octo_rate_meter_free (m);
}

static void
test_arrival_rate_over_window (void)
{
  OctoArrivalMeter a;

  octo_arrival_meter_init (&a);
  /* 1250 bytes every 2 ms = 5 Mbit/s */
  for (guint i = 1; i <= 100; i++)
    octo_arrival_meter_add (&a, 1250, 2 * i * MS);
  assert_within (octo_arrival_meter_rate (&a, 150 * MS, 200 * MS), 5e6, 0.001);
  /* history of 256 slots: 1000 arrivals, the rate over what it covers */
  for (guint i = 101; i <= 1000; i++)
    octo_arrival_meter_add (&a, 1250, 2 * i * MS);
  assert_within (octo_arrival_meter_rate (&a, 0, 2000 * MS), 5e6, 0.01);
  g_assert_cmpuint (octo_arrival_meter_rate (&a, 2000 * MS, 2000 * MS), ==, 0);
}

/* The rate as the history's first version computed it: a plain bisection
 * over all its samples for the newest one at or before @start. */
static guint64
reference_arrival_rate (const OctoArrivalSample *samples, guint32 count,
    guint32 oldest, guint64 total, OctoTime start, OctoTime now)
{
  guint32 lo = 0, hi = count;
  guint64 before = 0;

  if (count == 0 || now <= start)
    return 0;
  while (lo < hi) {
    guint32 mid = lo + (hi - lo) / 2;
    if (samples[(oldest + mid) % OCTO_ARRIVAL_HISTORY].time <= start)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo > 0) {
    before = samples[(oldest + lo - 1) % OCTO_ARRIVAL_HISTORY].cum_bytes;
  } else if (count == OCTO_ARRIVAL_HISTORY) {
    if (now <= samples[oldest].time)
      return 0;
    start = samples[oldest].time;
    before = samples[oldest].cum_bytes;
  }
  return (guint64) ((gdouble) (total - before) * 8.0 * OCTO_SECOND /
      (gdouble) (now - start));
}

/* The search from the newest end answers as the bisection did, for every
 * window start, also while a sample that went back in time is held. */
static void
test_arrival_rate_search_matches_bisection (void)
{
  OctoArrivalMeter a;
  GRand *rand = g_rand_new_with_seed (16);
  OctoTime now = 0;

  octo_arrival_meter_init (&a);
  for (guint i = 0; i < 3000; i++) {
    guint32 oldest;

    /* mostly forward in steps of 0..3 ms, same instants included; now and
     * then back by up to 5 ms */
    if (g_rand_int_range (rand, 0, 500) == 0)
      now -= MIN (now, (OctoTime) g_rand_int_range (rand, 1, 6) * MS);
    else
      now += (OctoTime) g_rand_int_range (rand, 0, 4) * MS;
    octo_arrival_meter_add (&a, g_rand_int_range (rand, 1, 1500), now);
    oldest = (a.counters.head + OCTO_ARRIVAL_HISTORY - a.counters.count) %
        OCTO_ARRIVAL_HISTORY;
    for (OctoTime back = 0; back <= 800 * MS; back += 7 * MS) {
      OctoTime start = now > back ? now - back : 0;
      g_assert_cmpuint (octo_arrival_meter_rate (&a, start, now + MS), ==,
          reference_arrival_rate (a.entry, a.counters.count, oldest,
              a.counters.total_bytes, start, now + MS));
    }
  }
  g_rand_free (rand);
}

static void
test_max_min_share_two_streams (void)
{
  const guint64 demands[] = { 2, 8 };
  guint64 alloc[2];

  octo_fair_share (demands, 2, 6, alloc);
  g_assert_cmpuint (alloc[0], ==, 2);
  g_assert_cmpuint (alloc[1], ==, 4);
  g_assert_cmpuint (octo_fair_share_for (demands, 2, 6, 1), ==, 4);
  g_assert_cmpuint (octo_fair_share_for (demands, 2, 6, 0), ==, 3);
  /* plenty for both: demands met, the level is above both */
  octo_fair_share (demands, 2, 100, alloc);
  g_assert_cmpuint (alloc[0], ==, 2);
  g_assert_cmpuint (alloc[1], ==, 8);
  g_assert_cmpuint (octo_fair_share_for (demands, 2, 100, 1), ==, 98);
}

static void
test_max_min_share_three_streams (void)
{
  const guint64 demands[] = { 10, 1, 3 };
  guint64 alloc[3];

  octo_fair_share (demands, 3, 9, alloc);
  g_assert_cmpuint (alloc[0], ==, 5);
  g_assert_cmpuint (alloc[1], ==, 1);
  g_assert_cmpuint (alloc[2], ==, 3);
  octo_fair_share (demands, 3, 6, alloc);
  g_assert_cmpuint (alloc[0], ==, 2);   /* level 2.5 floors to 2 */
  g_assert_cmpuint (alloc[1], ==, 1);
  g_assert_cmpuint (alloc[2], ==, 2);
  g_assert_cmpuint (octo_fair_share_for (demands, 3, 9, 2), ==, 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rate/constant", test_constant_rate_is_exact);
  g_test_add_func ("/rate/idle-gaps-discounted", test_idle_gaps_are_discounted);
  g_test_add_func ("/rate/step-change", test_step_change_is_followed_within_one_window);
  g_test_add_func ("/rate/unknown-states",
      test_unknown_until_five_departures_and_after_a_second);
  g_test_add_func ("/rate/never-busy-is-unlimited",
      test_never_busy_queue_is_unlimited);
  g_test_add_func ("/rate/arrival-rate", test_arrival_rate_over_window);
  g_test_add_func ("/rate/arrival-search-matches-bisection",
      test_arrival_rate_search_matches_bisection);
  g_test_add_func ("/rate/max-min-two-streams", test_max_min_share_two_streams);
  g_test_add_func ("/rate/max-min-three-streams",
      test_max_min_share_three_streams);
  return g_test_run ();
}
