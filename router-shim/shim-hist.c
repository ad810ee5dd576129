#include "shim-hist.h"

#define SUB (1u << SHIM_HIST_SUB_BITS)

static guint
bucket_of (guint64 v)
{
  if (v >= ((guint64) 1 << SHIM_HIST_MAX_BITS))
    v = ((guint64) 1 << SHIM_HIST_MAX_BITS) - 1;
  if (v < 2 * SUB)
    return (guint) v;
  guint msb = 63 - __builtin_clzll (v);
  guint shift = msb - SHIM_HIST_SUB_BITS;
  return (shift + 1) * SUB + (guint) ((v >> shift) & (SUB - 1));
}

/* Midpoint of a bucket. */
static gdouble
value_of (guint idx)
{
  if (idx < 2 * SUB)
    return idx;
  guint shift = idx / SUB - 1;
  guint64 low = (guint64) (SUB + idx % SUB) << shift;
  return (gdouble) low + ((guint64) 1 << shift) / 2.0;
}

void
shim_hist_add (ShimHist *hist, guint64 value_us)
{
  guint idx = bucket_of (value_us);
  if (hist->buckets[idx] < G_MAXUINT32)
    hist->buckets[idx]++;
  hist->count++;
  hist->max = MAX (hist->max, value_us);
}

gdouble
shim_hist_quantile (const ShimHist *hist, gdouble q)
{
  guint64 rank, seen = 0;

  if (hist->count == 0)
    return 0;
  rank = (guint64) (q * (gdouble) (hist->count - 1)) + 1;
  for (guint i = 0; i < SHIM_HIST_BUCKETS; i++) {
    seen += hist->buckets[i];
    if (seen >= rank)
      return MIN (value_of (i), (gdouble) hist->max);
  }
  return hist->max;
}
