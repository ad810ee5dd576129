/* gst-octopus core: the Salsify baseline's transport and frame choice
 * (Fouladi et al., NSDI'18, after Sprout-EWMA).
 *
 * The receiver keeps an exponentially weighted moving average of packet
 * inter-arrival times, less each packet's grace period (the time the sender
 * sat idle between frames, which says nothing about the link), and returns
 * it on every ACK.  For each frame the sender works out what the link can
 * absorb now without the frame waiting more than the target delay: (target
 * / mean inter-arrival - packets in flight) packets.  The codec offers a few
 * versions of the frame; the sender sends the largest one that fits and
 * skips the frame if none does.  Frames leave at once, unpaced. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_SALSIFY_TARGET_DELAY (100 * OCTO_MSECOND)
#define OCTO_SALSIFY_EWMA_GAIN 0.1
/* before the first measurement: Salsify's initial 500 kbit/s */
#define OCTO_SALSIFY_INITIAL_RATE 500000

/* The receiver's estimator. */
typedef struct {
  OctoTime last_arrival;        /* OCTO_TIME_NONE: no packet yet */
  gdouble mean_interval_ns;     /* 0: no interval measured yet */
} OctoSalsifyEstimator;

void octo_salsify_estimator_init (OctoSalsifyEstimator *est);
/* A packet arrived at @arrival; @grace is how long its sender waited after
 * the previous packet for the app (0 within a frame). */
void octo_salsify_estimator_on_arrival (OctoSalsifyEstimator *est,
    OctoTime arrival, OctoTime grace);

/* Bytes of payload the link can absorb now: (target / @mean_interval_ns -
 * @in_flight) packets of @payload bytes, 0 if negative; before the first
 * measurement (@mean_interval_ns 0), the initial rate's target-delay
 * worth. */
guint64 octo_salsify_budget (gdouble mean_interval_ns, guint32 in_flight,
    guint32 payload);

/* Which of the @n versions of a frame (@sizes in bytes, any order) to send:
 * the index of the largest within @budget, or -1 to skip the frame.  With
 * nothing in flight (@idle) the smallest goes even over budget: an idle
 * path cannot be congested by it, and without packets no estimate would
 * ever come back. */
gint octo_salsify_choose (guint64 budget, const guint32 *sizes, guint n,
    gboolean idle);

G_END_DECLS
