#include "octo-rate.h"

#include <stdlib.h>
#include <string.h>

struct _OctoRateMeter {
  /* ring of departures, one cache-friendly record each */
  struct {
    OctoTime time;
    guint64 cum_bytes;          /* bytes departed up to and with this one */
    OctoTime cum_busy;          /* busy time up to this departure */
  } dep[OCTO_RATE_HISTORY];
  guint32 head;                 /* next slot to write */
  guint32 count;
  guint64 n_departures;         /* ever; departure k sits in slot k % HISTORY */
  guint64 window_first;         /* departure that opened the last window */
  guint64 total_bytes;
  OctoTime busy_total;          /* busy time up to busy_since */
  OctoTime busy_since;
  gboolean busy;
  OctoTime window_start;
};

OctoRateMeter *
octo_rate_meter_new (void)
{
  return g_new0 (OctoRateMeter, 1);
}

void
octo_rate_meter_free (OctoRateMeter *meter)
{
  g_free (meter);
}


static OctoTime
busy_at (const OctoRateMeter *meter, OctoTime now)
{
  if (meter->busy && now > meter->busy_since)
    return meter->busy_total + (now - meter->busy_since);
  return meter->busy_total;
}

static void
advance (OctoRateMeter *meter, OctoTime now)
{
  meter->busy_total = busy_at (meter, now);
  if (now > meter->busy_since)
    meter->busy_since = now;
}

void
octo_rate_meter_set_busy (OctoRateMeter *meter, gboolean busy, OctoTime now)
{
  advance (meter, now);
  meter->busy = busy;
}

void
octo_rate_meter_departure (OctoRateMeter *meter, guint32 bytes, OctoTime now)
{
  guint32 slot = meter->head;

  advance (meter, now);
  meter->total_bytes += bytes;
  meter->dep[slot].time = now;
  meter->dep[slot].cum_bytes = meter->total_bytes;
  meter->dep[slot].cum_busy = meter->busy_total;
  meter->head = (slot + 1) % OCTO_RATE_HISTORY;
  if (meter->count < OCTO_RATE_HISTORY)
    meter->count++;
  meter->n_departures++;
}

/* Physical slot of the i-th oldest remembered departure. */
static guint32
slot_of (const OctoRateMeter *meter, guint32 i)
{
  return (meter->head + OCTO_RATE_HISTORY - meter->count + i) %
      OCTO_RATE_HISTORY;
}

guint64
octo_rate_meter_rate (OctoRateMeter *meter, OctoTime now)
{
  guint32 lo, first, last, intervals;
  guint64 oldest, seq;
  OctoTime cutoff, span, since_last, product;
  guint64 bytes;

  if (meter->count < OCTO_RATE_MIN_DEPARTURES)
    return OCTO_BW_UNKNOWN;
  last = slot_of (meter, meter->count - 1);
  if (now > meter->dep[last].time && now - meter->dep[last].time > OCTO_RATE_STALE)
    return OCTO_BW_UNKNOWN;

  /* oldest departure inside (now - window, now]: the window only moves
   * forward, so walk on from where the last query left it */
  cutoff = now > OCTO_RATE_WINDOW ? now - OCTO_RATE_WINDOW : 0;
  oldest = meter->n_departures - meter->count;
  seq = MAX (meter->window_first, oldest);
  while (seq > oldest && meter->dep[(seq - 1) % OCTO_RATE_HISTORY].time > cutoff)
    seq--;                      /* time went back: rare */
  while (seq < meter->n_departures
      && meter->dep[seq % OCTO_RATE_HISTORY].time <= cutoff)
    seq++;
  meter->window_first = seq;
  /* from the last departure before the window: the time the window's first
   * departure waited to be served counts, so a burst after an outage (a
   * cellular scheduler's) does not read as the link's rate */
  if (seq > oldest)
    seq--;
  if (meter->n_departures - seq < OCTO_RATE_MIN_DEPARTURES)
    seq = meter->n_departures - OCTO_RATE_MIN_DEPARTURES;
  lo = (guint32) (seq - oldest);
  first = slot_of (meter, lo);
  intervals = meter->count - 1 - lo;
  meter->window_start = meter->dep[first].time;

  bytes = meter->dep[last].cum_bytes - meter->dep[first].cum_bytes;
  span = meter->dep[last].cum_busy - meter->dep[first].cum_busy;
  /* a queue busy for longer than a usual service interval (span / intervals,
   * rounded down) without a departure is being served slower: count that
   * time too.  since_last > floor (span / intervals) is tested as
   * since_last * intervals > span, so the division is paid only then. */
  since_last = busy_at (meter, now) - meter->dep[last].cum_busy;
  if (__builtin_mul_overflow (since_last, intervals, &product)
      || product > span)
    span += since_last - span / intervals;
  if (span == 0)
    return OCTO_BW_UNLIMITED;
  return (guint64) ((gdouble) bytes * 8.0 * OCTO_SECOND / (gdouble) span);
}

OctoTime
octo_rate_meter_window_start (const OctoRateMeter *meter)
{
  return meter->window_start;
}

void
octo_arrival_meter_init (OctoArrivalMeter *meter)
{
  memset (meter, 0, sizeof (*meter));
}

void
octo_arrival_meter_add (OctoArrivalMeter *meter, guint32 bytes, OctoTime now)
{
  octo_arrival_history_add (&meter->counters, meter->entry,
      OCTO_ARRIVAL_HISTORY, 0, bytes, now);
}

guint64
octo_arrival_meter_rate (const OctoArrivalMeter *meter, OctoTime start,
    OctoTime now)
{
  return octo_arrival_history_rate (&meter->counters, meter->entry,
      OCTO_ARRIVAL_HISTORY, start, now);
}

/* How many of the history's samples, oldest first, are at or before @start.
 * Sorted by time, the answer is found from the newest end (a rate window
 * holds the newest few samples, so few cache lines are read); a history
 * holding a sample that went back in time is bisected from the middle,
 * whose answer there is its own. */
static guint32
samples_at_or_before (const OctoArrivalCounters *c,
    const OctoArrivalSample *samples, guint32 mask, guint32 oldest,
    OctoTime start)
{
  guint32 lo = 0, hi = c->count;

#define TIME_AT(i) (samples[(oldest + (i)) & mask].time)
  if (c->disorder == 0) {
    guint32 step = 1;
    /* gallop back from the newest until a sample is at or before start:
     * the answer then lies in (hi - step, hi]; a fast stream's history
     * often holds less than a window */
    if (TIME_AT (hi - 1) <= start)
      return hi;
    if (TIME_AT (0) > start)
      return 0;
    hi--;
    while (hi >= step && TIME_AT (hi - step) > start) {
      hi -= step;
      step *= 2;
    }
    lo = hi >= step ? hi - step + 1 : 0;
  }
  while (lo < hi) {
    guint32 mid = lo + (hi - lo) / 2;
    if (TIME_AT (mid) <= start)
      lo = mid + 1;
    else
      hi = mid;
  }
#undef TIME_AT
  return lo;
}

guint64
octo_arrival_history_rate (const OctoArrivalCounters *c,
    const OctoArrivalSample *samples, guint32 capacity, OctoTime start,
    OctoTime now)
{
  guint32 mask = capacity - 1;
  guint32 oldest = (c->head + capacity - c->count) & mask;
  guint64 before = 0;           /* nothing evicted yet: all bytes count */
  guint32 lo;

  if (c->count == 0 || now <= start)
    return 0;
  /* the newest arrival at or before start: bytes up to it are outside */
  lo = samples_at_or_before (c, samples, mask, oldest, start);
  if (lo > 0) {
    before = samples[(oldest + lo - 1) & mask].cum_bytes;
  } else if (c->count == capacity) {
    /* history does not reach back to start: use the span it covers */
    if (now <= samples[oldest].time)
      return 0;
    start = samples[oldest].time;
    before = samples[oldest].cum_bytes;
  }
  return (guint64) ((gdouble) (c->total_bytes - before) * 8.0 *
      OCTO_SECOND / (gdouble) (now - start));
}

static gint
compare_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* Water level when @n_free claimants are unbounded and @others (sorted
 * ascending) are capped by their demands. */
static guint64
water_level (const guint64 *sorted, guint n, guint n_free, guint64 capacity)
{
  guint64 remaining = capacity;
  guint claimants = n + n_free;

  for (guint i = 0; i < n; i++) {
    if (sorted[i] > remaining / claimants)
      return remaining / claimants;
    remaining -= sorted[i];
    claimants--;
  }
  return claimants > 0 ? remaining / claimants : G_MAXUINT64;
}

void
octo_fair_share (const guint64 *demands, guint n, guint64 capacity,
    guint64 *alloc)
{
  guint64 *sorted = g_memdup2 (demands, n * sizeof (guint64));
  guint64 level;

  qsort (sorted, n, sizeof (guint64), compare_u64);
  level = water_level (sorted, n, 0, capacity);
  for (guint i = 0; i < n; i++)
    alloc[i] = MIN (demands[i], level);
  g_free (sorted);
}

/* Insertion sort for the handful of demands a decision usually sees; qsort
 * beyond. */
static void
sort_demands (guint64 *v, guint n)
{
  if (n > 16) {
    qsort (v, n, sizeof (guint64), compare_u64);
    return;
  }
  for (guint i = 1; i < n; i++) {
    guint64 x = v[i];
    guint j = i;
    for (; j > 0 && v[j - 1] > x; j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

guint64
octo_fair_share_level (guint64 *others, guint n, guint64 capacity)
{
  sort_demands (others, n);
  return water_level (others, n, 1, capacity);
}

guint64
octo_fair_share_for (const guint64 *demands, guint n, guint64 capacity,
    guint index)
{
  guint64 *others = g_new (guint64, n);
  guint m = 0;
  guint64 level;

  for (guint i = 0; i < n; i++)
    if (i != index)
      others[m++] = demands[i];
  level = octo_fair_share_level (others, m, capacity);
  g_free (others);
  return level;
}

/* Claimant k of the sorted demands with one occurrence at @skip removed, and
 * the sum of the claimants before it. */
static inline guint64
other_at (const guint64 *sorted, guint skip, guint k)
{
  return sorted[k < skip ? k : k + 1];
}

static inline guint64
others_before (const guint64 *sorted, const guint64 *prefix, guint skip,
    guint k)
{
  return k <= skip ? prefix[k] : prefix[k + 1] - sorted[skip];
}

/* Whether water_level() stops at claimant @k (the first above the level it
 * would give): false below some rank, true from it on.  (If claimant k
 * stops, k·n > C − P_k for n = m − k + 1 claimants left; then claimant k+1,
 * no smaller, has (k+1)'s·(n−1) >= k's·n − k's > C − P_{k+1}: it stops too.) */
static inline gboolean
stops_at (const guint64 *sorted, const guint64 *prefix, guint skip, guint m,
    guint64 capacity, guint k)
{
  guint64 before = others_before (sorted, prefix, skip, k);

  return before >= capacity ||
      other_at (sorted, skip, k) > (capacity - before) / (m - k + 1);
}

guint64
octo_fair_share_level_sorted (const guint64 *sorted, const guint64 *prefix,
    guint n, guint skip, guint64 capacity, guint *rank_hint)
{
  guint m = skip < n ? n - 1 : n;
  guint lo = 0, hi = m;
  guint64 before;

#define STOPS(k) stops_at (sorted, prefix, skip, m, capacity, (k))
  /* the stopping rank is unique (monotone test): narrow [lo, hi] around
   * the hint by doubling steps, so a level near the last one reads a few
   * neighbouring claimants instead of log2(n) scattered ones */
  if (rank_hint) {
    guint h = MIN (*rank_hint, m), step = 1;
    if (h < m && !STOPS (h)) {
      lo = h + 1;
      for (;; step *= 2) {
        if (step >= m - h) {
          hi = m;
          break;
        }
        if (STOPS (h + step)) {
          hi = h + step;
          break;
        }
        lo = h + step + 1;
      }
    } else {
      hi = h;
      for (;; step *= 2) {
        if (step > h) {
          lo = 0;
          break;
        }
        if (!STOPS (h - step)) {
          lo = h - step + 1;
          break;
        }
        hi = h - step;
      }
    }
  }
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    if (STOPS (mid))
      hi = mid;
    else
      lo = mid + 1;
  }
#undef STOPS
  if (rank_hint)
    *rank_hint = lo;
  before = others_before (sorted, prefix, skip, lo);
  return before >= capacity ? 0 : (capacity - before) / (m - lo + 1);
}
