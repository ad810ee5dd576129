/* octopus-shim: a log-linear histogram of microsecond values (32 buckets
 * per octave: percentiles within 3 %), fixed size, O(1) insert. */
#pragma once

#include <glib.h>

#define SHIM_HIST_SUB_BITS 5
#define SHIM_HIST_MAX_BITS 40   /* values up to 2^40 us (12 days) */
#define SHIM_HIST_BUCKETS ((SHIM_HIST_MAX_BITS - SHIM_HIST_SUB_BITS + 1) << \
    SHIM_HIST_SUB_BITS)

typedef struct {
  guint64 count;
  guint64 max;
  guint32 buckets[SHIM_HIST_BUCKETS];
} ShimHist;

void shim_hist_add (ShimHist *hist, guint64 value_us);
/* The @q quantile (0..1) in microseconds: the value of rank
 * floor (q (count - 1)) + 1, at its bucket's midpoint; 0 if empty. */
gdouble shim_hist_quantile (const ShimHist *hist, gdouble q);
