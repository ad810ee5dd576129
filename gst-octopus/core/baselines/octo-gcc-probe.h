/* gst-octopus core: when GCC probes, and how hard (libwebrtc's
 * ProbeController).  Sans-IO: the caller sends the clusters it is told to
 * (padding at the cluster's rate), measures each with octo_gcc_probe_rate()
 * and reports the result here.
 *
 * Clusters last 15 ms and hold at least 5 packets.  The first one goes at
 * 3x the start rate, then 2x each result while results keep up (>= 70 % of
 * the cluster's rate); after that, every 5 s at 2x the target while the app
 * sends less than 80 % of it (application-limited). */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

typedef struct {
  guint64 cluster_bps;          /* the cluster out or measured; 0 = none */
  gboolean started;             /* the start-up cluster was asked for */
  gboolean exponential;         /* the start-up probing continues */
  OctoTime next_alr_probe;
  guint64 app_bytes;            /* submitted in the current window */
  OctoTime app_window_start;
  gdouble app_rate;             /* bits/s over the last full window */
} OctoGccProbe;

void octo_gcc_probe_init (OctoGccProbe *probe);

/* The bytes of a cluster at @bps. */
guint32 octo_gcc_probe_cluster_bytes (guint64 bps);

/* The app submitted a frame of @bytes at @now (application-limited
 * detection). */
void octo_gcc_probe_on_app_bytes (OctoGccProbe *probe, guint32 bytes,
    OctoTime now);

/* Called at every step, after the step's feedback reached GCC: the rate of
 * a cluster to start now, 0 for none. */
guint64 octo_gcc_probe_poll (OctoGccProbe *probe, OctoTime now,
    guint64 target_bps);

/* The current cluster measured @result_bps: the rate of the next cluster
 * to start now, 0 for none. */
guint64 octo_gcc_probe_on_result (OctoGccProbe *probe, guint64 result_bps,
    OctoTime now);

/* When an application-limited cluster may next be due, if after @now;
 * OCTO_TIME_NONE otherwise. */
OctoTime octo_gcc_probe_next_poll (const OctoGccProbe *probe, OctoTime now);

G_END_DECLS
