/* Multipath scheduling cost per packet (octo-sched.h), for 2 and 4 paths,
 * next to a baseline measured in the same run: the same loop whose
 * "scheduler" puts every packet on path 0 (building the path states,
 * draining the pacer queues and counting the assignment are in both).
 *
 * Workload: messages of 1 to 16 packets of 1200 bytes (a frame's worth),
 * path states that change between messages (sRTT 20-150 ms, rates 1-20
 * Mbit/s, queues drained by the time passed, 10 ms per message).  Each
 * figure is the best of 5 runs of PACKETS_PER_RUN packets. */
#include "transport/octo-sched.h"

#include <stdio.h>

#define PACKETS_PER_RUN 2000000
#define RUNS 5
#define MAX_MSG 16
#define PACKET 1200

static guint64 sink;

/* ns per packet of one run; @sched NULL: the baseline */
static gdouble
run (OctoSched *sched, guint n_paths)
{
  OctoSchedPath paths[OCTO_SCHED_MAX_PATHS];
  guint32 sizes[MAX_MSG];
  guint8 out[MAX_MSG];
  guint64 done = 0, msg = 0;
  gint64 start;

  for (guint i = 0; i < MAX_MSG; i++)
    sizes[i] = PACKET;
  for (guint p = 0; p < n_paths; p++) {
    paths[p].srtt = (20 + 130 * p / MAX (n_paths - 1, 1)) * OCTO_MSECOND;
    paths[p].min_rtt = paths[p].srtt;
    paths[p].pacing_rate = paths[p].bandwidth = (1 + 19 * p % 20) * 1000000;
    paths[p].queued_bytes = 0;
    paths[p].inflight_bytes = 0;
    paths[p].up = TRUE;
  }
  start = g_get_monotonic_time ();
  while (done < PACKETS_PER_RUN) {
    guint n = 1 + (msg * 7) % MAX_MSG;

    /* 10 ms pass: the pacers drain, the estimates move a little */
    for (guint p = 0; p < n_paths; p++) {
      guint64 drained = paths[p].pacing_rate / 800;

      paths[p].queued_bytes = paths[p].queued_bytes > drained ?
          paths[p].queued_bytes - drained : 0;
      paths[p].srtt += ((msg + p) & 3) * OCTO_MSECOND / 4;
      paths[p].srtt -= ((msg + p + 2) & 3) * OCTO_MSECOND / 4;
      paths[p].inflight_bytes = (msg + p) % 64 * PACKET;
    }
    if (sched) {
      octo_sched_assign (sched, paths, n_paths, sizes, n, msg * 10 *
          OCTO_MSECOND, out);
    } else {
      for (guint i = 0; i < n; i++) {
        out[i] = 0;
        paths[0].queued_bytes += sizes[i];
      }
    }
    for (guint i = 0; i < n; i++)
      sink += out[i];
    done += n;
    msg++;
  }
  return (gdouble) (g_get_monotonic_time () - start) * 1000 / done;
}

int
main (void)
{
  const guint path_counts[] = { 2, 4 };

  printf ("%-10s %6s %12s %12s %12s\n", "scheduler", "paths",
      "ns/packet", "baseline", "difference");
  for (guint c = 0; c < G_N_ELEMENTS (path_counts); c++) {
    guint n_paths = path_counts[c];

    for (const gchar *const *name = octo_sched_names (); *name; name++) {
      gdouble best = G_MAXDOUBLE, best_base = G_MAXDOUBLE;

      /* baseline and scheduler alternate, so load hits both alike */
      for (guint r = 0; r < RUNS; r++) {
        OctoSched *sched = octo_sched_new (*name);

        best_base = MIN (best_base, run (NULL, n_paths));
        best = MIN (best, run (sched, n_paths));
        octo_sched_free (sched);
      }
      printf ("%-10s %6u %12.1f %12.1f %12.1f\n", *name, n_paths, best,
          best_base, best - best_base);
    }
  }
  printf ("(checksum %" G_GUINT64_FORMAT ")\n", sink);
  return 0;
}
