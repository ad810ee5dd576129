/* gst-octopus core: the schedulers by name (see octo-sched.h). */
#include "octo-sched.h"

#include <string.h>

static const OctoSchedOps *const all_ops[] = {
  &octo_sched_min_cost_ops,
  &octo_sched_wrr_ops,
  &octo_sched_edcld_ops,
  &octo_sched_sfl_ops,
  &octo_sched_min_rtt_ops,
};

static const gchar *const names[] = {
  "min-cost", "wrr", "edcld", "sfl", "min-rtt", NULL,
};

G_STATIC_ASSERT (G_N_ELEMENTS (names) == G_N_ELEMENTS (all_ops) + 1);

OctoSched *
octo_sched_new (const gchar *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (all_ops); i++) {
    if (name && strcmp (name, all_ops[i]->name) == 0) {
      OctoSched *sched = g_malloc0 (all_ops[i]->state_size);

      sched->ops = all_ops[i];
      return sched;
    }
  }
  return NULL;
}

void
octo_sched_free (OctoSched *sched)
{
  g_free (sched);
}

const gchar *
octo_sched_name (const OctoSched *sched)
{
  return sched->ops->name;
}

const gchar *const *
octo_sched_names (void)
{
  return names;
}

gboolean
octo_sched_assign (OctoSched *sched, OctoSchedPath *paths, guint n_paths,
    const guint32 *sizes, guint n_packets, OctoTime now, guint8 *out)
{
  gboolean any_up = FALSE;

  if (n_paths > OCTO_SCHED_MAX_PATHS)
    return FALSE;
  for (guint p = 0; p < n_paths; p++)
    any_up |= paths[p].up;
  if (!any_up)
    return FALSE;
  sched->ops->assign (sched, paths, n_paths, sizes, n_packets, now, out);
  return TRUE;
}

OctoTime
octo_sched_drain_time (guint64 bytes, guint64 rate)
{
  if (bytes == 0)
    return 0;
  if (rate == 0)
    return OCTO_TIME_NONE;
  return (OctoTime) ((gdouble) bytes * 8 * OCTO_SECOND / rate);
}

guint64
octo_sched_path_bandwidth (const OctoSchedPath *path)
{
  return path->bandwidth ? path->bandwidth : path->pacing_rate;
}
