/* gst-octopus core: the AWStream baseline's runtime adaptation (Zhang et
 * al., SIGCOMM'18, §4): a ladder of configurations (frame rates or quality
 * levels) ordered by rate, and a state machine fed with the app's send
 * queue and the transport's bandwidth estimate.
 *
 *  - Degrade: once the queue holds more than the congestion delay's worth
 *    of the current configuration's rate, drop at once to the best
 *    configuration whose rate is at most the estimate (the lowest if none),
 *    and at least one step when the estimate cannot explain the queue;
 *    while that queue drains only a falling estimate degrades further.
 *  - Probe: only after the queue has stayed empty for the probe wait (2 s)
 *    does it send probing traffic at the next configuration's extra rate;
 *    if the queue stays empty for the probe duration, the path carried the
 *    next rate and it moves up one configuration, then waits again. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

typedef enum {
  OCTO_AWSTREAM_STEADY,
  OCTO_AWSTREAM_PROBE,
} OctoAwstreamState;

typedef struct {
  OctoTime probe_wait;          /* empty queue before probing: 2 s */
  OctoTime probe_duration;      /* a probe that long without queueing wins */
  OctoTime congestion_delay;    /* queued bytes / current rate above it: degrade */
} OctoAwstreamConfig;

void octo_awstream_config_init (OctoAwstreamConfig *config);

typedef struct _OctoAwstream OctoAwstream;

/* @rates: bits/s of each configuration, ascending (copied). */
OctoAwstream *octo_awstream_new (const OctoAwstreamConfig *config,
    const guint64 *rates, guint n, guint initial);
void octo_awstream_free (OctoAwstream *aw);

/* The app looks at its queue (@queued_bytes not yet sent) and the
 * transport's estimate (@estimate_bps, 0 unknown) at @now, before it sends
 * data; returns the configuration to use. */
guint octo_awstream_update (OctoAwstream *aw, OctoTime now,
    guint64 queued_bytes, guint64 estimate_bps);
/* Bits/s of probing traffic to send now (0 outside a probe). */
guint64 octo_awstream_probe_bps (const OctoAwstream *aw);
OctoAwstreamState octo_awstream_state (const OctoAwstream *aw);
guint octo_awstream_level (const OctoAwstream *aw);

G_END_DECLS
