/* gst-octopus core: the ViVo baseline's rate estimate (Han et al.,
 * MobiCom'20, with the throughput rule of FESTIVE, Jiang et al. 2012, as the
 * Octopus papers ran it): the harmonic mean of the download rates of the
 * last 20 frames.  The client picks each frame's density level from it by
 * the apps' level rule (octo_trace_source_pick_level); the harmonic mean
 * keeps one fast frame from inflating the estimate. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_VIVO_WINDOW 20

typedef struct {
  gdouble rates[OCTO_VIVO_WINDOW];
  guint n, next;
} OctoVivoEstimator;

void octo_vivo_init (OctoVivoEstimator *vivo);
/* A frame of @bytes downloaded between @start and @end (the rate is bits/s
 * over that time; a zero duration counts as one nanosecond). */
void octo_vivo_on_frame (OctoVivoEstimator *vivo, guint64 bytes,
    OctoTime start, OctoTime end);
/* Harmonic mean of the last OCTO_VIVO_WINDOW rates, bits/s; 0 before the
 * first frame. */
guint64 octo_vivo_estimate (const OctoVivoEstimator *vivo);

G_END_DECLS
