/* gst-octopus core: the congestion-controller interface of a send path.
 *
 * A controller hears of every tracked transmission and every rate sample
 * (octo-flight.h) and answers a pacing rate, a window and a bottleneck
 * estimate.  One controller is one state struct behind a small table of
 * operations, as the queue disciplines (octo-qdisc.h): BBR and Delay-BBR
 * (octo-bbr.h), a fixed rate the owner sets (the Oracle, GCC's target in
 * the simulator, a known-rate test), and QUCO's window, its NewReno-like
 * twin and trim-aware BBR (octo-cc-quco.c), which also hear QUCO NACKs;
 * other controllers plug in the same way.  Sizes are link bytes, rates
 * bits/s. */
#pragma once

#include "octo-bbr.h"

G_BEGIN_DECLS

/* The controllers a sender is configured with. */
typedef enum {
  OCTO_SENDER_BBR = 0,
  OCTO_SENDER_DELAY_BBR,
  /* Pace at max_rate with no window: a known-rate sender (tests, oracle). */
  OCTO_SENDER_FIXED,
  /* QUCO (paper 004 Algorithm 3): a TCP-like window that also backs off by
   * the number of chunks the network trimmed (octo_cc_new_quco). */
  OCTO_SENDER_QUCO,
  /* The same window deaf to NACKs: a loss-based NewReno-like sender. */
  OCTO_SENDER_NEWRENO,
  /* BBR whose rate and window also back off by trim level. */
  OCTO_SENDER_BBR_QUCO,
} OctoSenderCc;

typedef struct _OctoCc OctoCc;

typedef struct {
  void (*free) (OctoCc *cc);
  /* Before each tracked transmission, as octo_bbr_on_send(); NULL: not
   * needed. */
  void (*on_send) (OctoCc *cc, guint64 seq, guint64 inflight,
      gboolean app_limited, OctoTime now);
  /* For each rate sample that acked or lost bytes, as octo_bbr_on_ack();
   * NULL: not needed. */
  void (*on_ack) (OctoCc *cc, const OctoRateSample *rs, guint64 delivered,
      guint64 inflight, OctoTime now);
  /* Packets timed out with no ACK (octo_flight_on_timer), @inflight
   * bytes still out; NULL: not needed. */
  void (*on_timeout) (OctoCc *cc, guint64 inflight, OctoTime now);
  guint64 (*pacing_rate) (const OctoCc *cc);
  /* OCTO_BW_UNKNOWN before the first estimate. */
  guint64 (*bandwidth) (const OctoCc *cc);
  /* OCTO_CC_NO_WINDOW: only the pacer limits. */
  guint64 (*cwnd) (const OctoCc *cc);
  /* NULL: the path takes the flight's minimum RTT. */
  OctoTime (*min_rtt) (const OctoCc *cc);
  /* Whether it is probing for more bandwidth now (STARTUP, or a PROBE_BW
   * phase with gain > 1): an app-limited sender may pad then.  NULL: it
   * never probes. */
  gboolean (*probing) (const OctoCc *cc);
  /* Whether it paces below its estimate on purpose now, to drain the path's
   * queue (BBR's DRAIN and PROBE_RTT, a PROBE_BW phase with gain < 1): the
   * send path's backlog drain then keeps to its rate.  NULL: never. */
  gboolean (*draining) (const OctoCc *cc);
  /* Whether it is still searching for the path's rate (BBR's STARTUP: the
   * delivery rate has not yet stopped growing), so that its estimate is
   * only a lower bound.  NULL: never. */
  gboolean (*searching) (const OctoCc *cc);
  /* Its state for stats: "startup", "probe-bw", "fixed", ... */
  const gchar *(*state) (const OctoCc *cc);
  /* A QUCO NACK: the network trimmed @trimmed chunks of one packet.  NULL:
   * ignored. */
  void (*on_nack) (OctoCc *cc, guint trimmed, OctoTime now);
} OctoCcOps;

struct _OctoCc {
  const OctoCcOps *ops;
};

#define OCTO_CC_NO_WINDOW 0

OctoCc *octo_cc_new_bbr (const OctoBbrConfig *config, OctoTime now);
/* Paces at @pacing_rate (0: unpaced) and reports @bandwidth (0: the pacing
 * rate) until octo_cc_fixed_set_rates() changes them; no window. */
OctoCc *octo_cc_new_fixed (guint64 pacing_rate, guint64 bandwidth);
void octo_cc_fixed_set_rates (OctoCc *cc, guint64 pacing_rate,
    guint64 bandwidth);
void octo_cc_free (OctoCc *cc);
void octo_cc_on_nack (OctoCc *cc, guint trimmed, OctoTime now);

/* QUCO (octo-cc-quco.c), paper 004 Algorithm 3 in packets of @mss link
 * bytes, window read as CWND <- max((1 - beta) * CWND, 1) with beta 0.10,
 * 0.25, 0.50 for 1, 2, >= 3 trimmed chunks, and beta 0.50 for a whole
 * packet lost.  At most one back-off per round trip: a later signal in the
 * same round (within one smoothed RTT of the back-off) only deepens it to
 * its own beta applied to the window the round started with.  Growth per
 * acked packet as Algorithm 3: +1 while CWND <= ssthresh, else +1/CWND.
 * Unpaced, ACK-clocked, as TCP without fq. */
typedef struct {
  guint32 mss;
  gdouble initial_cwnd;         /* packets; Algorithm 3 starts at 1 */
  gboolean trim_aware;          /* FALSE: NACKs ignored (NewReno-like) */
  /* Algorithm 3 as printed: back off on every NACK, not once per round
   * (for comparison; losses still halve once per round). */
  gboolean every_nack;
} OctoQucoConfig;

#define OCTO_QUCO_BETA_LIGHT 0.10
#define OCTO_QUCO_BETA_MEDIUM 0.25
#define OCTO_QUCO_BETA_HIGH 0.50
/* The back-off for @trimmed chunks (0: none). */
gdouble octo_quco_beta (guint trimmed);

OctoCc *octo_cc_new_quco (const OctoQucoConfig *config);
/* The window in packets and ssthresh (G_MAXDOUBLE: infinite). */
gdouble octo_cc_quco_cwnd_packets (const OctoCc *cc);
gdouble octo_cc_quco_ssthresh (const OctoCc *cc);

/* Wraps @inner (BBR or Delay-BBR; taken) so that NACKs scale its pacing
 * rate, window and estimate by a factor: factor <- factor * (1 - beta) at
 * most once per round as above, and +OCTO_QUCO_TRIM_RECOVERY (up to 1)
 * for each round trip without a NACK.  The window is never scaled below
 * BBR's own least (OCTO_BBR_MIN_PIPE_PACKETS of @mss): a tenth of that is
 * less than one packet, which lets one out per round trip and leaves the
 * send buffer to grow.  The estimate is at most what the window sends in
 * a smoothed round trip. */
#define OCTO_QUCO_TRIM_RECOVERY 0.05
OctoCc *octo_cc_new_trim_aware (OctoCc *inner, guint32 mss);
gdouble octo_cc_trim_aware_factor (const OctoCc *cc);

G_END_DECLS
