#include "octo-gcc-probe.h"

#define PROBE_DURATION (15 * OCTO_MSECOND)
#define PROBE_MIN_PACKETS 5
#define PROBE_PACKET 1200
#define ALR_PROBE_INTERVAL (5 * OCTO_SECOND)
#define APP_RATE_WINDOW (1 * OCTO_SECOND)

void
octo_gcc_probe_init (OctoGccProbe *probe)
{
  *probe = (OctoGccProbe) { .exponential = TRUE };
}

guint32
octo_gcc_probe_cluster_bytes (guint64 bps)
{
  return MAX (bps * PROBE_DURATION / 8 / OCTO_SECOND,
      (guint64) PROBE_MIN_PACKETS * PROBE_PACKET);
}

void
octo_gcc_probe_on_app_bytes (OctoGccProbe *p, guint32 bytes, OctoTime now)
{
  if (now >= p->app_window_start + APP_RATE_WINDOW) {
    p->app_rate = p->app_bytes * 8.0 * OCTO_SECOND / APP_RATE_WINDOW;
    p->app_bytes = 0;
    p->app_window_start = now;
  }
  p->app_bytes += bytes;
}

guint64
octo_gcc_probe_poll (OctoGccProbe *p, OctoTime now, guint64 target_bps)
{
  if (!p->started) {
    p->started = TRUE;
    p->cluster_bps = 3 * target_bps;
    return p->cluster_bps;
  }
  /* application-limited: the app sends well below the target */
  if (!p->exponential && p->cluster_bps == 0 && now >= p->next_alr_probe
      && p->next_alr_probe > 0 && p->app_rate < 0.8 * target_bps) {
    p->cluster_bps = 2 * target_bps;
    return p->cluster_bps;
  }
  return 0;
}

guint64
octo_gcc_probe_on_result (OctoGccProbe *p, guint64 result_bps, OctoTime now)
{
  p->exponential = p->exponential && result_bps >= 0.7 * p->cluster_bps;
  p->cluster_bps = 0;
  if (p->exponential) {
    p->cluster_bps = 2 * result_bps;
    return p->cluster_bps;
  }
  p->next_alr_probe = now + ALR_PROBE_INTERVAL;
  return 0;
}

OctoTime
octo_gcc_probe_next_poll (const OctoGccProbe *p, OctoTime now)
{
  if (!p->exponential && p->cluster_bps == 0 && p->next_alr_probe > now)
    return p->next_alr_probe;
  return OCTO_TIME_NONE;
}
