/* gst-octopus core: the minimum-cost scheduler (paper 003, eq. 13-15,
 * Algorithm 6): each packet to the path of least one-way time + Q_p/c_p,
 * the time it would take to reach the receiver; its size then waits in
 * that path's pacer, which raises the path's cost for the next packet, so
 * a frame spreads over the paths by their rates and arrives close
 * together.  Ties go to the lower path index.
 *
 * The paper takes the one-way time as RTT_p/2.  Once a path has a minimum
 * RTT and a bandwidth estimate we take it as the propagation delay (min
 * RTT / 2) plus the standing queue its own bytes in flight beyond the BDP
 * make at the estimate (design.md §8, "Delay-BBR and the schedulers"): an
 * sRTT sample is a round trip old, and half of it counts only half of the
 * forward queue, so with RTT_p/2 the scheduler kept loading a path whose
 * queue had already grown (lowest mean frame delay in 2 of the sweep's 10
 * settings, against 7 of 10 with the bytes in flight, both with the
 * simulator's padding rule of the time; 4 of 10 with the sender's). */
#include "octo-sched.h"

static OctoTime
one_way_time (const OctoSchedPath *p)
{
  gdouble bdp, standing;

  if (!p->min_rtt || !p->bandwidth)
    return p->srtt / 2;
  bdp = (gdouble) p->bandwidth / 8 * p->min_rtt / OCTO_SECOND;
  standing = p->inflight_bytes > bdp ? p->inflight_bytes - bdp : 0;
  return p->min_rtt / 2 + octo_sched_drain_time ((guint64) standing,
      p->bandwidth);
}

static OctoTime
cost (const OctoSchedPath *p)
{
  OctoTime wait = octo_sched_drain_time (p->queued_bytes, p->pacing_rate);

  return wait == OCTO_TIME_NONE ? OCTO_TIME_NONE : one_way_time (p) + wait;
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
