/* gst-octopus core: the min-RTT scheduler, the default of multipath
 * transports (MPTCP, MPQUIC): each packet to the path of least sRTT among
 * those with room.  Their room is the congestion window's; our paths pace
 * instead, so a path has room while its pacer queue drains within one sRTT
 * (a window's worth of bytes).  When none has room, the path whose queue
 * drains first.  Ties go to the lower path index. */
#include "octo-sched.h"

static gboolean
has_room (const OctoSchedPath *p)
{
  OctoTime wait = octo_sched_drain_time (p->queued_bytes, p->pacing_rate);

  return wait != OCTO_TIME_NONE && wait < MAX (p->srtt, 1);
}

static void
min_rtt_assign (OctoSched *sched, OctoSchedPath *paths, guint n_paths,
    const guint32 *sizes, guint n_packets, OctoTime now, guint8 *out)
{
  (void) sched;
  (void) now;
  for (guint i = 0; i < n_packets; i++) {
    guint best = n_paths, first_drained = n_paths;
    OctoTime first_drain = OCTO_TIME_NONE;

    for (guint p = 0; p < n_paths; p++) {
      OctoTime wait;

      if (!paths[p].up)
        continue;
      if (has_room (&paths[p]) &&
          (best == n_paths || paths[p].srtt < paths[best].srtt))
        best = p;
      wait = octo_sched_drain_time (paths[p].queued_bytes,
          paths[p].pacing_rate);
      if (first_drained == n_paths || wait < first_drain) {
        first_drained = p;
        first_drain = wait;
      }
    }
    if (best == n_paths)
      best = first_drained;
    out[i] = best;
    paths[best].queued_bytes += sizes[i];
  }
}

const OctoSchedOps octo_sched_min_rtt_ops = {
  .name = "min-rtt",
  .state_size = sizeof (OctoSched),
  .assign = min_rtt_assign,
};
