/* gst-octopus core: BBR congestion control and its Delay-BBR variant.
 *
 * BBR (Cardwell et al. 2016; draft-cardwell-iccrg-bbr-congestion-control-00):
 * a windowed max filter of delivery-rate samples over 10 round trips gives
 * the bottleneck bandwidth, a 10 s min filter of RTT samples the round-trip
 * propagation time; the state machine (STARTUP, DRAIN, PROBE_BW with its
 * 8-phase gain cycle, PROBE_RTT) sets the pacing gain and the window.
 *
 * Delay-BBR (paper 003 and the authors' code): the cycle is
 * {1.11, 0.9, 1, 1, 1, 1, 1, 1}; in PROBE_BW a smoothed RTT (new sample
 * weight 0.95) above 1.2 x the baseline RTT enters a PROBE_RTT that paces at
 * 0.75 until bytes in flight fall below the BDP (a delay backoff), instead
 * of shrinking the window.  An expired min RTT is probed as BBR does (half
 * the BDP for 200 ms and a round), not by that backoff as in the paper:
 * flows sharing a queue all backing off at 0.75 never empty it, so each
 * takes the queue's delay for its propagation time, or (keeping its old
 * minimum) starves against a newcomer that measured it so (design §8,
 * "Delay-BBR and the schedulers against their paper").
 *
 * Fed rate samples from octo-flight.h; all sizes are link bytes, rates bits/s. */
#pragma once

#include "octo-flight.h"

G_BEGIN_DECLS

typedef enum {
  OCTO_CC_BBR = 0,
  OCTO_CC_DELAY_BBR,
} OctoCcAlgorithm;

typedef enum {
  OCTO_BBR_STARTUP = 0,
  OCTO_BBR_DRAIN,
  OCTO_BBR_PROBE_BW,
  OCTO_BBR_PROBE_RTT,
} OctoBbrMode;

const gchar *octo_bbr_mode_to_string (OctoBbrMode mode);

#define OCTO_BBR_HIGH_GAIN 2.885        /* 2 / ln 2 */
#define OCTO_BBR_CWND_GAIN 2.0
#define OCTO_BBR_GAIN_CYCLE_LEN 8
#define OCTO_BBR_BW_WINDOW_ROUNDS 10
#define OCTO_BBR_MIN_RTT_WINDOW (10 * OCTO_SECOND)
#define OCTO_BBR_PROBE_RTT_TIME (200 * OCTO_MSECOND)
#define OCTO_BBR_MIN_PIPE_PACKETS 4
#define OCTO_BBR_PROBE_RTT_CWND_GAIN 0.5
#define OCTO_BBR_INITIAL_PACKETS 10
#define OCTO_BBR_FULL_BW_GROWTH 1.25
#define OCTO_BBR_FULL_BW_ROUNDS 3

/* Delay-BBR constants (papers/README.md). */
#define OCTO_DBBR_UP_GAIN 1.11
#define OCTO_DBBR_DOWN_GAIN 0.9
#define OCTO_DBBR_SRTT_WEIGHT 0.95
#define OCTO_DBBR_CONGESTED_RATIO 1.2
#define OCTO_DBBR_BACKOFF_GAIN 0.75
#define OCTO_DBBR_SIMILAR_MIN_RTT 1.125

typedef struct {
  OctoCcAlgorithm algorithm;
  guint32 mss;                  /* link bytes of a full packet */
  guint32 seed;                 /* picks the first PROBE_BW phase */
} OctoBbrConfig;

typedef struct _OctoBbr OctoBbr;

OctoBbr *octo_bbr_new (const OctoBbrConfig *config, OctoTime now);
void octo_bbr_free (OctoBbr *bbr);

/* Before each transmission: @inflight bytes and @app_limited as they stand
 * (restarting from idle resets the pacing gain). */
void octo_bbr_on_send (OctoBbr *bbr, guint64 seq, guint64 inflight,
    gboolean app_limited, OctoTime now);
/* After each ACK; @delivered is the connection's total delivered bytes and
 * @inflight the bytes still in flight. */
void octo_bbr_on_ack (OctoBbr *bbr, const OctoRateSample *rs,
    guint64 delivered, guint64 inflight, OctoTime now);

/* Packets sent before @now timed out with no ACK (the loss timer, as TCP's
 * RTO): the window falls to @inflight (what is still out) plus one packet,
 * as Linux's tcp_enter_loss does under BBR, and grows by what is delivered
 * until a packet sent after the timeout is acked; then the window before it
 * is restored.  A sender facing a link that stopped (a cellular outage)
 * stops feeding the network queue, and what it holds waits in its own
 * buffer, where the dropping rules keep only what is still worth sending. */
void octo_bbr_on_timeout (OctoBbr *bbr, guint64 inflight, OctoTime now);

guint64 octo_bbr_pacing_rate (const OctoBbr *bbr);
guint64 octo_bbr_cwnd (const OctoBbr *bbr);
/* The bottleneck-bandwidth estimate; OCTO_BW_UNKNOWN before any sample. */
guint64 octo_bbr_bandwidth (const OctoBbr *bbr);
/* 0 before any sample. */
OctoTime octo_bbr_min_rtt (const OctoBbr *bbr);
OctoBbrMode octo_bbr_mode (const OctoBbr *bbr);
gdouble octo_bbr_pacing_gain (const OctoBbr *bbr);

G_END_DECLS
