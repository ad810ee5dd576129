/* gst-octopus core: the congestion-controller interface of a send path.
 *
 * A controller hears of every tracked transmission and every rate sample
 * (octo-flight.h) and answers a pacing rate, a window and a bottleneck
 * estimate.  One controller is one state struct behind a small table of
 * operations, as the queue disciplines (octo-qdisc.h): BBR and Delay-BBR
 * (octo-bbr.h), and a fixed rate the owner sets (the Oracle, GCC's target
 * in the simulator, a known-rate test); other controllers plug in the same
 * way.  Sizes are link bytes, rates bits/s. */
#pragma once

#include "octo-bbr.h"

G_BEGIN_DECLS

/* The controllers a sender is configured with. */
typedef enum {
  OCTO_SENDER_BBR = 0,
  OCTO_SENDER_DELAY_BBR,
  /* Pace at max_rate with no window: a known-rate sender (tests, oracle). */
  OCTO_SENDER_FIXED,
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
  /* Its state for stats: "startup", "probe-bw", "fixed", ... */
  const gchar *(*state) (const OctoCc *cc);
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

G_END_DECLS
