/* gst-octopus core: the minimum-cost scheduler (paper 003, eq. 13-15,
 * Algorithm 6): each packet to the path of least RTT_p/2 + Q_p/c_p, the
 * time it would take to reach the receiver; its size then waits in that
 * path's pacer, which raises the path's cost for the next packet, so a
 * frame spreads over the paths by their rates and arrives close
 * together.  Ties go to the lower path index. */
#include "octo-sched.h"

static OctoTime
cost (const OctoSchedPath *p)
{
  OctoTime wait = octo_sched_drain_time (p->queued_bytes, p->pacing_rate);

  return wait == OCTO_TIME_NONE ? OCTO_TIME_NONE : p->srtt / 2 + wait;
}

static void
min_cost_assign (OctoSched *sched, OctoSchedPath *paths, guint n_paths,
    const guint32 *sizes, guint n_packets, OctoTime now, guint8 *out)
{
  (void) sched;
  (void) now;
  for (guint i = 0; i < n_packets; i++) {
    guint best = n_paths;
    OctoTime best_cost = OCTO_TIME_NONE;

    for (guint p = 0; p < n_paths; p++) {
      OctoTime c;

      if (!paths[p].up)
        continue;
      c = cost (&paths[p]);
      if (best == n_paths || c < best_cost) {
        best = p;
        best_cost = c;
      }
    }
    out[i] = best;
    paths[best].queued_bytes += sizes[i];
  }
}

const OctoSchedOps octo_sched_min_cost_ops = {
  .name = "min-cost",
  .state_size = sizeof (OctoSched),
  .assign = min_cost_assign,
};
