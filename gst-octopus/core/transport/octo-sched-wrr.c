/* gst-octopus core: weighted round robin by available bandwidth (paper 003,
 * eq. 16): path i's weight is ABW_i / sum ABW.  The rounds are smooth
 * (nginx's): each packet adds every up path's weight to its credit and
 * goes to the path of most credit, which pays the total back, so the
 * weights are met packet by packet without bursts, and the credit carries
 * over from message to message.  Ties go to the lower path index. */
#include "octo-sched.h"

typedef struct {
  OctoSched sched;
  gint64 credit[OCTO_SCHED_MAX_PATHS];  /* in units of ABW, bits/s */
} Wrr;

static void
wrr_assign (OctoSched *sched, OctoSchedPath *paths, guint n_paths,
    const guint32 *sizes, guint n_packets, OctoTime now, guint8 *out)
{
  Wrr *w = (Wrr *) sched;
  gint64 weight[OCTO_SCHED_MAX_PATHS] = { 0 };
  gint64 total = 0;

  (void) now;

  for (guint p = 0; p < n_paths; p++) {
    if (!paths[p].up) {
      w->credit[p] = 0;
      continue;
    }
    /* a path with no rate yet still gets a turn now and then */
    weight[p] = MAX (octo_sched_path_bandwidth (&paths[p]), 1);
    total += weight[p];
  }
  for (guint i = 0; i < n_packets; i++) {
    guint best = n_paths;

    for (guint p = 0; p < n_paths; p++) {
      if (!paths[p].up)
        continue;
      w->credit[p] += weight[p];
      if (best == n_paths || w->credit[p] > w->credit[best])
        best = p;
    }
    w->credit[best] -= total;
    out[i] = best;
    paths[best].queued_bytes += sizes[i];
  }
}

const OctoSchedOps octo_sched_wrr_ops = {
  .name = "wrr",
  .state_size = sizeof (Wrr),
  .assign = wrr_assign,
};
