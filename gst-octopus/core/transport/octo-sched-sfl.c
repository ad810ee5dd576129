/* gst-octopus core: SFL's water filling (paper 003, Algorithm 7).  A
 * message of s bytes is cut into one sub-frame per path so that every
 * path's one-way delay d_i (sRTT/2) plus its water depth D_i, the time its
 * sub-frame takes at its available bandwidth ABW_i, is one level D:
 * sub-frame_i = (D - d_i) ABW_i, D the smallest level of the form
 * max d + k L / sum ABW (L the first packet's size, k = 0, 1, ...) at which
 * the sub-frames hold more than s.  Packets then fill the paths in order
 * of one-way delay, each path up to its sub-frame, the last path taking
 * what remains.  SFL weighs neither the pacer queues nor the packet sizes
 * beyond the first, as the paper's.  Ties in delay keep path order. */
#include "octo-sched.h"

static void
sfl_assign (OctoSched *sched, OctoSchedPath *paths, guint n_paths,
    const guint32 *sizes, guint n_packets, OctoTime now, guint8 *out)
{
  guint order[OCTO_SCHED_MAX_PATHS], n = 0;
  gdouble owd[OCTO_SCHED_MAX_PATHS], abw[OCTO_SCHED_MAX_PATHS];
  gdouble bytes[OCTO_SCHED_MAX_PATHS];
  gdouble total_abw = 0, water = 0, level, step, s = 0, len;
  guint i;

  (void) sched;
  (void) now;
  if (n_packets == 0)
    return;
  for (guint p = 0; p < n_paths; p++) {
    guint j;

    if (!paths[p].up)
      continue;
    /* insertion by one-way delay, stable */
    for (j = n; j > 0 && paths[order[j - 1]].srtt > paths[p].srtt; j--)
      order[j] = order[j - 1];
    order[j] = p;
    n++;
  }
  for (i = 0; i < n; i++) {
    owd[i] = (gdouble) paths[order[i]].srtt / 2 / OCTO_SECOND;
    abw[i] = octo_sched_path_bandwidth (&paths[order[i]]) / 8.0;
    total_abw += abw[i];
  }
  for (i = 0; i < n_packets; i++)
    s += sizes[i];
  len = sizes[0];
  /* The water held rises by exactly L per step, so the step count is
   * computed rather than walked. */
  level = owd[n - 1];
  for (i = 0; i < n; i++)
    water += (level - owd[i]) * abw[i];
  step = total_abw > 0 ? len / total_abw : 0;
  if (water <= s && step > 0)
    level += step * (guint64) ((s - water) / len + 1);
  for (i = 0; i < n; i++)
    bytes[i] = (level - owd[i]) * abw[i];

  i = 0;
  for (guint k = 0; k < n_packets; k++) {
    while (i != n - 1 && bytes[i] <= 0)
      i++;
    out[k] = order[i];
    bytes[i] -= sizes[k];
    paths[order[i]].queued_bytes += sizes[k];
  }
}

const OctoSchedOps octo_sched_sfl_ops = {
  .name = "sfl",
  .state_size = sizeof (OctoSched),
  .assign = sfl_assign,
};
