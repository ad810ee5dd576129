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

/* One packet per 10 ms, then 120 ms with the queue busy and nothing served,
 * then 10 packets within 1 ms (a cellular scheduler's burst): the rate is
 * those bytes over the time since the last departure before them, about
 * 1 Mbit/s, not the burst's 120 Mbit/s. */
static void
test_burst_after_an_outage_is_not_the_rate (void)
{
  OctoRateMeter *m = octo_rate_meter_new ();
  OctoTime t = 0;

  octo_rate_meter_set_busy (m, TRUE, 0);
  for (guint i = 0; i < 20; i++) {
    t += 10 * MS;
    octo_rate_meter_departure (m, 1500, t);
  }
  assert_within (octo_rate_meter_rate (m, t), 1.2e6, 0.001);
  t += 120 * MS;
  for (guint i = 0; i < 10; i++)
    octo_rate_meter_departure (m, 1500, t + i * MS / 10);
  t += 9 * MS / 10;
  assert_within (octo_rate_meter_rate (m, t), 10 * 1500 * 8.0 * OCTO_SECOND /
      (120 * MS + 9 * MS / 10), 0.001);
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

/* A history sampled per bucket (the engine's: 64 samples of 2^20 ns): one
 * sample per bucket holding its newest arrival, so 64 samples reach back 64
 * buckets however dense the arrivals, and a rate over a window is off by at
 * most the bucket that straddles its start. */
#define BUCKET_SHIFT 20
#define BUCKET_SAMPLES 64

static void
test_arrival_buckets_share_samples (void)
{
  OctoArrivalCounters c = { 0 };
  OctoArrivalSample samples[BUCKET_SAMPLES];
  const OctoTime bucket = (OctoTime) 1 << BUCKET_SHIFT;
  OctoTime now = 0;
  guint32 newest;

  /* 125 bytes every µs = 1 Gbit/s, for 200 ms */
  for (now = 1; now <= 200 * MS; now += OCTO_USECOND)
    octo_arrival_history_add (&c, samples, BUCKET_SAMPLES, BUCKET_SHIFT, 125,
        now);
  now -= OCTO_USECOND;
  g_assert_cmpuint (c.count, ==, BUCKET_SAMPLES);
  newest = (c.head + BUCKET_SAMPLES - 1) % BUCKET_SAMPLES;
  /* each sample is its bucket's newest arrival, with every byte up to it */
  g_assert_cmpuint (samples[newest].time, ==, now);
  g_assert_cmpuint (samples[newest].cum_bytes, ==, c.total_bytes);
  /* the oldest: the last arrival (at 1 + k µs) of the 64th newest bucket */
  g_assert_cmpuint (samples[c.head].time, ==,
      ((now / bucket - BUCKET_SAMPLES + 2) * bucket - 2) / OCTO_USECOND *
      OCTO_USECOND + 1);
  g_assert_cmpuint (samples[c.head].cum_bytes, ==,
      (samples[c.head].time / OCTO_USECOND + 1) * 125);
  /* the 50 ms window lies inside the history: within one bucket's bytes */
  assert_within (octo_arrival_history_rate (&c, samples, BUCKET_SAMPLES,
          now - 50 * MS, now), 1e9, (gdouble) bucket / (50 * MS));
  /* a window starting on a bucket's last arrival is exact */
  assert_within (octo_arrival_history_rate (&c, samples, BUCKET_SAMPLES,
          samples[c.head].time, now), 1e9, 1e-9);

  /* a late arrival within the newest bucket joins it; its time stays */
  octo_arrival_history_add (&c, samples, BUCKET_SAMPLES, BUCKET_SHIFT, 1000,
      now - 2 * OCTO_USECOND);
  g_assert_cmpuint (samples[newest].time, ==, now);
  g_assert_cmpuint (samples[newest].cum_bytes, ==, c.total_bytes);
  g_assert_cmpuint (c.disorder, ==, 0);
  /* one in the next bucket takes a new sample */
  octo_arrival_history_add (&c, samples, BUCKET_SAMPLES, BUCKET_SHIFT, 1,
      (now / bucket + 1) * bucket);
  g_assert_cmpuint (samples[newest].time, ==, now);
  g_assert_cmpuint (samples[(newest + 1) % BUCKET_SAMPLES].time, ==,
      (now / bucket + 1) * bucket);
  /* one back in an earlier bucket takes a sample of its own and marks the
   * history unsorted for the next 64 samples */
  octo_arrival_history_add (&c, samples, BUCKET_SAMPLES, BUCKET_SHIFT, 1,
      now - bucket);
  g_assert_cmpuint (samples[(newest + 2) % BUCKET_SAMPLES].time, ==,
      now - bucket);
  g_assert_cmpuint (c.disorder, ==, BUCKET_SAMPLES);
  g_assert_cmpuint (c.count, ==, BUCKET_SAMPLES);
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
  g_test_add_func ("/rate/burst-after-an-outage-is-not-the-rate",
      test_burst_after_an_outage_is_not_the_rate);
  g_test_add_func ("/rate/unknown-states",
      test_unknown_until_five_departures_and_after_a_second);
  g_test_add_func ("/rate/never-busy-is-unlimited",
      test_never_busy_queue_is_unlimited);
  g_test_add_func ("/rate/arrival-rate", test_arrival_rate_over_window);
  g_test_add_func ("/rate/arrival-search-matches-bisection",
      test_arrival_rate_search_matches_bisection);
  g_test_add_func ("/rate/arrival-buckets-share-samples",
      test_arrival_buckets_share_samples);
  g_test_add_func ("/rate/max-min-two-streams", test_max_min_share_two_streams);
  g_test_add_func ("/rate/max-min-three-streams",
      test_max_min_share_three_streams);
  return g_test_run ();
}
