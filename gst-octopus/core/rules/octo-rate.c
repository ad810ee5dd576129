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
  OctoTime cutoff, span, since_last, mean;
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
  if (meter->n_departures - seq < OCTO_RATE_MIN_DEPARTURES)
    seq = meter->n_departures - OCTO_RATE_MIN_DEPARTURES;
  lo = (guint32) (seq - oldest);
  first = slot_of (meter, lo);
  intervals = meter->count - 1 - lo;
  meter->window_start = meter->dep[first].time;

  bytes = meter->dep[last].cum_bytes - meter->dep[first].cum_bytes;
  span = meter->dep[last].cum_busy - meter->dep[first].cum_busy;
  /* a queue busy for longer than a usual service interval without a
   * departure is being served slower: count that time too */
  mean = span / intervals;
  since_last = busy_at (meter, now) - meter->dep[last].cum_busy;
  if (since_last > mean)
    span += since_last - mean;
  if (span == 0)
    return OCTO_BW_UNLIMITED;
  return (guint64) ((gdouble) bytes * 8.0 * OCTO_SECOND / (gdouble) span);
}

OctoTime
octo_rate_meter_window_start (OctoRateMeter *meter, OctoTime now)
{
  if (octo_rate_meter_rate (meter, now) == OCTO_BW_UNKNOWN)
    return now > OCTO_RATE_WINDOW ? now - OCTO_RATE_WINDOW : 0;
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
  guint32 prev = (meter->head + OCTO_ARRIVAL_HISTORY - 1) % OCTO_ARRIVAL_HISTORY;

  meter->total_bytes += bytes;
  /* arrivals in the same instant share one slot */
  if (meter->count > 0 && meter->entry[prev].time == now) {
    meter->entry[prev].cum_bytes = meter->total_bytes;
    return;
  }
  meter->entry[meter->head].time = now;
  meter->entry[meter->head].cum_bytes = meter->total_bytes;
  meter->head = (meter->head + 1) % OCTO_ARRIVAL_HISTORY;
  if (meter->count < OCTO_ARRIVAL_HISTORY)
    meter->count++;
}

guint64
octo_arrival_meter_rate (const OctoArrivalMeter *meter, OctoTime start,
    OctoTime now)
{
  guint32 oldest = (meter->head + OCTO_ARRIVAL_HISTORY - meter->count) %
      OCTO_ARRIVAL_HISTORY;
  guint64 before = 0;           /* nothing evicted yet: all bytes count */
  gboolean found = FALSE;

  if (meter->count == 0 || now <= start)
    return 0;
  /* newest arrival at or before start (bytes up to it are outside), by
   * binary search over the time-ordered history */
  {
    guint32 lo = 0, hi = meter->count;
    while (lo < hi) {
      guint32 mid = lo + (hi - lo) / 2;
      if (meter->entry[(oldest + mid) % OCTO_ARRIVAL_HISTORY].time <= start)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo > 0) {
      before = meter->entry[(oldest + lo - 1) % OCTO_ARRIVAL_HISTORY].cum_bytes;
      found = TRUE;
    }
  }
  if (!found && meter->count == OCTO_ARRIVAL_HISTORY) {
    /* history does not reach back to start: use the span it covers */
    if (now <= meter->entry[oldest].time)
      return 0;
    start = meter->entry[oldest].time;
    before = meter->entry[oldest].cum_bytes;
  }
  return (guint64) ((gdouble) (meter->total_bytes - before) * 8.0 *
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

guint64
octo_fair_share_level_sorted (const guint64 *sorted, const guint64 *prefix,
    guint n, guint skip, guint64 capacity)
{
  guint m = skip < n ? n - 1 : n;
  guint lo = 0, hi = m;
  guint64 before;

  /* water_level() stops at the first claimant above the level it would
   * give; that test is monotone in the claimant's rank, so bisect for it */
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    before = others_before (sorted, prefix, skip, mid);
    if (before >= capacity ||
        other_at (sorted, skip, mid) > (capacity - before) / (m - mid + 1))
      hi = mid;
    else
      lo = mid + 1;
  }
  before = others_before (sorted, prefix, skip, lo);
  return before >= capacity ? 0 : (capacity - before) / (m - lo + 1);
}
