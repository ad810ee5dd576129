/* gst-octopus core: the ViVo baseline's rate estimate (Han et al.,
 * MobiCom'20, with the throughput rule of FESTIVE, Jiang et al. 2012, as the
 * Octopus papers ran it): the harmonic mean of the download rates of the
 * last 20 frames.  The client picks each frame's density level from it by
 * the apps' level rule (octo_trace_source_pick_level); the harmonic mean
 * keeps one fast frame from inflating the estimate.
 *
 * ViVo is a client that fetches (DASH-like): a frame leaves the server
 * when the client asks for it, and the client asks for the newest frame
 * once fewer than OCTO_VIVO_MAX_OUTSTANDING of its requests are
 * unanswered (one downloading, one asked for ahead).  So frames the link
 * cannot carry are never fetched, rather than queued behind each other in
 * the server's socket: the latency stays within a frame's download and a
 * round trip on any link that carries the lowest level (what ViVo's
 * paper shows; the Octopus papers' ViVo tail is ~6x Octopus's, not
 * seconds), and grows only while the link carries less. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_VIVO_WINDOW 20
#define OCTO_VIVO_MAX_OUTSTANDING 2

typedef struct {
  gdouble rates[OCTO_VIVO_WINDOW];
  guint n, next;
  guint outstanding;            /* frames sent, not yet known downloaded */
} OctoVivoEstimator;

void octo_vivo_init (OctoVivoEstimator *vivo);
/* Whether the client asks for the next frame now. */
gboolean octo_vivo_may_send (const OctoVivoEstimator *vivo);
/* The server sends a frame (answers a request). */
void octo_vivo_on_send (OctoVivoEstimator *vivo);
/* A frame of @bytes downloaded between @start and @end, as the server
 * learns it with the client's next request (the rate is bits/s over that
 * time; a zero duration counts as one nanosecond); it answers a request. */
void octo_vivo_on_frame (OctoVivoEstimator *vivo, guint64 bytes,
    OctoTime start, OctoTime end);
/* Harmonic mean of the last OCTO_VIVO_WINDOW rates, bits/s; 0 before the
 * first frame. */
guint64 octo_vivo_estimate (const OctoVivoEstimator *vivo);

G_END_DECLS
