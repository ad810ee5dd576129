/* Salsify's estimate and per-frame choice (octo-salsify.h). */
#include "octo-salsify.h"

void
octo_salsify_estimator_init (OctoSalsifyEstimator *est)
{
  est->last_arrival = OCTO_TIME_NONE;
  est->mean_interval_ns = 0;
}

void
octo_salsify_estimator_on_arrival (OctoSalsifyEstimator *est,
    OctoTime arrival, OctoTime grace)
{
  OctoTime gap;

  if (est->last_arrival != OCTO_TIME_NONE && arrival >= est->last_arrival) {
    gap = arrival - est->last_arrival;
    gap -= MIN (gap, grace);
    est->mean_interval_ns = est->mean_interval_ns == 0 ? (gdouble) gap :
        OCTO_SALSIFY_EWMA_GAIN * gap +
        (1 - OCTO_SALSIFY_EWMA_GAIN) * est->mean_interval_ns;
  }
  est->last_arrival = arrival;
}

guint64
octo_salsify_budget (gdouble mean_interval_ns, guint32 in_flight,
    guint32 payload)
{
  gdouble packets;

  if (mean_interval_ns <= 0)
    return (guint64) OCTO_SALSIFY_INITIAL_RATE / 8 * OCTO_SALSIFY_TARGET_DELAY
        / OCTO_SECOND;
  /* a zero gap (two packets in one delivery opportunity) still counts as
   * a nanosecond, so the window stays finite */
  packets = OCTO_SALSIFY_TARGET_DELAY / MAX (mean_interval_ns, 1.0) - in_flight;
  return packets > 0 ? (guint64) (packets * payload) : 0;
}

gint
octo_salsify_choose (guint64 budget, const guint32 *sizes, guint n,
    gboolean idle)
{
  gint best = -1, smallest = -1;

  for (guint i = 0; i < n; i++) {
    if (sizes[i] <= budget && (best < 0 || sizes[i] > sizes[best]))
      best = (gint) i;
    if (smallest < 0 || sizes[i] < sizes[smallest])
      smallest = (gint) i;
  }
  return best >= 0 || !idle ? best : smallest;
}
