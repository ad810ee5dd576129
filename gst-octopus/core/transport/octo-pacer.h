/* gst-octopus core: the pacer.
 *
 * Spaces transmissions at the pacing rate: each packet of b bytes pushes the
 * next allowed send time b*8/rate later, at the rate in force when the next
 * send time is asked (a rate change applies to the gap being waited out).  A sender that wakes up late may
 * catch up by at most @burst of credit, so timer jitter does not cost rate
 * yet an idle period does not turn into a line-rate burst. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_PACER_DEFAULT_BURST (1 * OCTO_MSECOND)

typedef struct {
  guint64 rate;                 /* bits/s; 0 = unpaced */
  OctoTime burst;
  OctoTime last_start;          /* when the last packet's slot began */
  guint32 last_bytes;           /* its size; 0 before the first */
} OctoPacer;

void octo_pacer_init (OctoPacer *pacer, OctoTime burst);
void octo_pacer_set_rate (OctoPacer *pacer, guint64 rate);
/* The earliest time the next packet may leave (<= @now: at once). */
OctoTime octo_pacer_next_send_time (const OctoPacer *pacer, OctoTime now);
void octo_pacer_on_sent (OctoPacer *pacer, guint32 bytes, OctoTime now);

G_END_DECLS
