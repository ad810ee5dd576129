/* gst-octopus core: EDCLD's cost (paper 003, eq. 17): each packet of L
 * bytes to the path of least
 *   C_p = D_p + (1 - w) L / (mu_p - lambda_p) + w (q_p + L) / mu_p,
 * D_p the fixed propagation delay (the paper's words; the minimum RTT / 2,
 * sRTT / 2 until there is one), mu_p the available bandwidth, lambda_p
 * the rate this scheduler puts on the path, q_p its pacer queue; the
 * M/M/1 term (Poisson traffic) and the queue term (unknown traffic) mixed
 * with w = 0.8 as in the paper.  EDCLD moves the splitting ratio towards
 * equal cost; choosing the least cost per packet with lambda_p measured
 * (an exponential average of the bytes sent its way, time constant
 * EDCLD_RATE_WINDOW) moves it there packet by packet.  A path loaded to or
 * beyond mu_p costs EDCLD_OVERLOAD per unit of load instead of the M/M/1
 * term.  Ties go to the lower path index. */
#include "octo-sched.h"

#include <math.h>

#define EDCLD_W 0.8
#define EDCLD_RATE_WINDOW (200 * OCTO_MSECOND)
#define EDCLD_OVERLOAD 1000.0   /* seconds */

typedef struct {
  OctoSched sched;
  gdouble load[OCTO_SCHED_MAX_PATHS];   /* decayed bytes assigned */
  OctoTime last;                        /* when load was decayed */
} Edcld;

static gdouble
cost (const OctoSchedPath *p, gdouble load, guint32 size)
{
  gdouble mu = octo_sched_path_bandwidth (p) / 8.0;     /* bytes/s */
  gdouble lambda = load / ((gdouble) EDCLD_RATE_WINDOW / OCTO_SECOND);
  OctoTime rtt = p->min_rtt ? p->min_rtt : p->srtt;
  gdouble d = (gdouble) rtt / 2 / OCTO_SECOND, mm1;

  if (mu <= 0)
    return G_MAXDOUBLE;
  mm1 = mu > lambda ? size / (mu - lambda) : EDCLD_OVERLOAD * lambda / mu;
  return d + (1 - EDCLD_W) * mm1 + EDCLD_W * (p->queued_bytes + size) / mu;
}

static void
edcld_assign (OctoSched *sched, OctoSchedPath *paths, guint n_paths,
    const guint32 *sizes, guint n_packets, OctoTime now, guint8 *out)
{
  Edcld *e = (Edcld *) sched;
  gdouble decay = now > e->last ?
      exp (-(gdouble) (now - e->last) / EDCLD_RATE_WINDOW) : 1.0;

  e->last = MAX (e->last, now);
  for (guint p = 0; p < n_paths; p++)
    e->load[p] = paths[p].up ? e->load[p] * decay : 0;
  for (guint i = 0; i < n_packets; i++) {
    guint best = n_paths;
    gdouble best_cost = G_MAXDOUBLE;

    for (guint p = 0; p < n_paths; p++) {
      gdouble c;

      if (!paths[p].up)
        continue;
      c = cost (&paths[p], e->load[p], sizes[i]);
      if (best == n_paths || c < best_cost) {
        best = p;
        best_cost = c;
      }
    }
    out[i] = best;
    e->load[best] += sizes[i];
    paths[best].queued_bytes += sizes[i];
  }
}

const OctoSchedOps octo_sched_edcld_ops = {
  .name = "edcld",
  .state_size = sizeof (Edcld),
  .assign = edcld_assign,
};
