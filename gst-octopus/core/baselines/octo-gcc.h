/* gst-octopus core: Google Congestion Control, the WebRTC baseline
 * (draft-ietf-rmcat-gcc-02; Carlucci et al., "Analysis and design of the
 * Google congestion control for WebRTC", 2016; constants as in libwebrtc's
 * trendline estimator, over-use detector and AIMD rate control).
 *
 * Sans-IO: the caller reports, per packet, its send time, size and arrival
 * time at the receiver (OCTO_TIME_NONE if lost) when the feedback carrying
 * them arrives, then asks for the target rate.
 *
 *  - delay-based: packets are grouped by 5 ms of send time, and a packet
 *    arriving in a burst with its group (within 5 ms of its last arrival,
 *    sooner than it was sent after it) joins it, up to 100 ms of arrivals
 *    (the pre-filter, §5.2); the one-way delay variation between groups
 *    feeds a trendline (least squares over the last 20 smoothed accumulated
 *    delays); its slope, scaled, is compared with an adaptive threshold
 *    (12.5 ms initially, k_up 0.0087, k_down 0.039) to detect over-use (for
 *    > 10 ms and rising) or under-use;
 *  - AIMD: over-use -> rate = 0.85 x the received rate, then hold; normal ->
 *    increase (x1.08 per second far from the last congestion point, about
 *    one packet per response time near it); under-use -> hold;
 *  - loss-based: > 10 % loss -> rate x (1 - loss / 2); < 2 % -> x 1.05;
 *  - target = min (delay-based, loss-based), within [min, max];
 *  - probe clusters (sent by the shell above the target, as libwebrtc's
 *    ProbeController does at start and while application-limited) raise
 *    both rates to what the path delivered. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

typedef enum {
  OCTO_GCC_NORMAL,
  OCTO_GCC_OVERUSE,
  OCTO_GCC_UNDERUSE,
} OctoGccUsage;

typedef enum {
  OCTO_GCC_HOLD,
  OCTO_GCC_INCREASE,
  OCTO_GCC_DECREASE,
} OctoGccRateState;

typedef struct {
  guint64 initial_bps, min_bps, max_bps;
} OctoGccConfig;

void octo_gcc_config_init (OctoGccConfig *config);

typedef struct _OctoGcc OctoGcc;

OctoGcc *octo_gcc_new (const OctoGccConfig *config);
void octo_gcc_free (OctoGcc *gcc);

/* One packet's fate, reported in send order within a feedback batch. */
void octo_gcc_on_packet (OctoGcc *gcc, OctoTime send_time, guint32 bytes,
    OctoTime arrival_time);
/* A feedback batch is complete (its packets were all reported): runs the
 * detector, the rate controllers and the loss controller at @now. */
void octo_gcc_on_feedback (OctoGcc *gcc, OctoTime now, OctoTime rtt);

/* A probe cluster's result (libwebrtc's ProbeBitrateEstimator): the lower
 * of its send and receive rates, 0.95 x the receive rate if that fell below
 * 90 % of the send rate; 0 if fewer than 4 of its packets arrived.  Arrays
 * of @n packets in send order; lost ones have arrival OCTO_TIME_NONE. */
guint64 octo_gcc_probe_rate (const OctoTime *send, const OctoTime *arrival,
    const guint32 *bytes, guint n);
/* A probe showed @bps: the delay- and loss-based rates rise to it (never
 * fall); the increase starts afresh from there. */
void octo_gcc_on_probe (OctoGcc *gcc, guint64 bps);

guint64 octo_gcc_target_bps (const OctoGcc *gcc);

/* WebRTC's pacer (libwebrtc PacingController): it paces at the target x
 * OCTO_GCC_PACING_FACTOR, and faster when its queue of @queued_bytes would
 * take longer than OCTO_GCC_PACER_QUEUE_LIMIT to drain (its
 * "drain_large_queues": the encoder may overshoot a target, or be unable
 * to go as low, and the pacer does not hold video for seconds). */
#define OCTO_GCC_PACING_FACTOR 2.5
#define OCTO_GCC_PACER_QUEUE_LIMIT (2 * OCTO_SECOND)
guint64 octo_gcc_pacing_bps (guint64 target_bps, guint64 queued_bytes);

OctoGccUsage octo_gcc_usage (const OctoGcc *gcc);
OctoGccRateState octo_gcc_rate_state (const OctoGcc *gcc);
/* The scaled trendline slope the detector last compared (ms), and its
 * threshold. */
gdouble octo_gcc_trend (const OctoGcc *gcc);
gdouble octo_gcc_threshold (const OctoGcc *gcc);

G_END_DECLS
