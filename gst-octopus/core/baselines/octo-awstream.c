/* AWStream's adaptation state machine (octo-awstream.h). */
#include "octo-awstream.h"

struct _OctoAwstream {
  OctoAwstreamConfig config;
  guint64 *rates;
  guint n, level;
  OctoAwstreamState state;
  gboolean draining;            /* degraded; the queue is still above it */
  OctoTime empty_since;         /* OCTO_TIME_NONE: the queue is not empty */
  OctoTime probe_start;
};

void
octo_awstream_config_init (OctoAwstreamConfig *config)
{
  config->probe_wait = 2 * OCTO_SECOND;
  config->probe_duration = 1 * OCTO_SECOND;
  config->congestion_delay = 50 * OCTO_MSECOND;
}

OctoAwstream *
octo_awstream_new (const OctoAwstreamConfig *config, const guint64 *rates,
    guint n, guint initial)
{
  OctoAwstream *aw = g_new0 (OctoAwstream, 1);

  g_return_val_if_fail (n > 0 && initial < n, NULL);
  aw->config = *config;
  aw->rates = g_memdup2 (rates, n * sizeof (guint64));
  aw->n = n;
  aw->level = initial;
  aw->state = OCTO_AWSTREAM_STEADY;
  aw->empty_since = OCTO_TIME_NONE;
  return aw;
}

void
octo_awstream_free (OctoAwstream *aw)
{
  if (!aw)
    return;
  g_free (aw->rates);
  g_free (aw);
}

static guint
best_under (const OctoAwstream *aw, guint64 bps)
{
  guint level = 0;

  for (guint i = 0; i < aw->n; i++)
    if (aw->rates[i] <= bps)
      level = i;
  return level;
}

guint
octo_awstream_update (OctoAwstream *aw, OctoTime now, guint64 queued_bytes,
    guint64 estimate_bps)
{
  gboolean congested = queued_bytes * 8 * OCTO_SECOND >
      aw->rates[aw->level] * aw->config.congestion_delay;
  guint target;

  if (congested) {
    target = best_under (aw, estimate_bps);
    if (!aw->draining && target >= aw->level && aw->level > 0)
      target = aw->level - 1;
    aw->level = MIN (aw->level, target);
    aw->draining = TRUE;
    aw->state = OCTO_AWSTREAM_STEADY;
    aw->empty_since = OCTO_TIME_NONE;
    return aw->level;
  }
  aw->draining = FALSE;
  if (queued_bytes > 0) {
    /* neither congested nor idle: a probe in progress has failed to keep
     * the queue empty */
    aw->state = OCTO_AWSTREAM_STEADY;
    aw->empty_since = OCTO_TIME_NONE;
    return aw->level;
  }
  if (aw->empty_since == OCTO_TIME_NONE)
    aw->empty_since = now;
  if (aw->state == OCTO_AWSTREAM_STEADY && aw->level + 1 < aw->n
      && now - aw->empty_since >= aw->config.probe_wait) {
    aw->state = OCTO_AWSTREAM_PROBE;
    aw->probe_start = now;
  } else if (aw->state == OCTO_AWSTREAM_PROBE
      && now - aw->probe_start >= aw->config.probe_duration) {
    aw->state = OCTO_AWSTREAM_STEADY;
    aw->level++;
    aw->empty_since = now;
  }
  return aw->level;
}

guint64
octo_awstream_probe_bps (const OctoAwstream *aw)
{
  if (aw->state != OCTO_AWSTREAM_PROBE)
    return 0;
  return aw->rates[aw->level + 1] - aw->rates[aw->level];
}

OctoAwstreamState
octo_awstream_state (const OctoAwstream *aw)
{
  return aw->state;
}

guint
octo_awstream_level (const OctoAwstream *aw)
{
  return aw->level;
}
