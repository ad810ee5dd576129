/* gst-octopus core: one path of a sender: its flight, its congestion
 * controller and its pacer.
 *
 * The path decides when a packet may leave (the controller's window, the
 * pacer's rate) and learns from feedback; it holds no packets (the send
 * session's buffer does, octo-send-session.h), so several paths can serve
 * one session.
 *
 * Two allowances serve feedback that comes in batches (transport-wide
 * congestion control, octo-rtp-sender.h) rather than per packet:
 * - hold-back: the largest recent time a batch's first report waited.  The
 *   window is extended by the estimate times it (BBR's allowance for ACK
 *   aggregation) and the flight's loss clock runs that much behind, so a
 *   packet merely unreported is not taken for lost;
 * - initial rate: until the first feedback there is no RTT and no window to
 *   speak of, so the path paces at initial_rate with no window and no loss
 *   timer, like GCC at its start estimate.
 * Per-packet feedback (Octopus ACKs) records no hold-back and sets no
 * initial rate, and neither allowance changes anything. */
#pragma once

#include "octo-cc.h"
#include "octo-pacer.h"

G_BEGIN_DECLS

/* How many recent feedbacks' hold-backs the largest is taken of. */
#define OCTO_SEND_PATH_HOLD_BACKS 16

typedef struct {
  guint64 max_rate;             /* cap on pacing and estimate, bits/s; 0: none */
  guint64 initial_rate;         /* pacing before any feedback; 0: the cc's */
} OctoSendPathConfig;

typedef struct _OctoSendPath OctoSendPath;

/* Takes @cc. */
OctoSendPath *octo_send_path_new (const OctoSendPathConfig *config,
    OctoCc *cc);
/* A path with the controller @kind names: BBR and Delay-BBR with @mss (link
 * bytes of a full packet) and @seed; QUCO and NewReno-like windows of @mss
 * packets from 1 (octo_cc_new_quco); trim-aware BBR; OCTO_SENDER_FIXED paces
 * at config->max_rate from the start. */
OctoSendPath *octo_send_path_new_for (const OctoSendPathConfig *config,
    OctoSenderCc kind, guint32 mss, guint32 seed, OctoTime now);
void octo_send_path_free (OctoSendPath *path);

OctoCc *octo_send_path_cc (const OctoSendPath *path);
/* OCTO_SENDER_FIXED only: pace at @pacing_rate and report @bandwidth (0:
 * the pacing rate), both bits/s of link bytes. */
void octo_send_path_set_fixed_rates (OctoSendPath *path, guint64 pacing_rate,
    guint64 bandwidth);
OctoFlight *octo_send_path_flight (const OctoSendPath *path);

/* The pacing rate and the controller's estimate, both capped by max_rate. */
guint64 octo_send_path_pacing_rate (const OctoSendPath *path);
guint64 octo_send_path_bandwidth (const OctoSendPath *path);
/* The controller's own estimate, uncapped. */
guint64 octo_send_path_estimate (const OctoSendPath *path);
/* The controller's window plus the hold-back allowance; OCTO_CC_NO_WINDOW
 * if it has none. */
guint64 octo_send_path_cwnd (const OctoSendPath *path);
OctoTime octo_send_path_hold_back (const OctoSendPath *path);
OctoTime octo_send_path_min_rtt (const OctoSendPath *path);
const gchar *octo_send_path_state (const OctoSendPath *path);
gboolean octo_send_path_probing (const OctoSendPath *path);

/* Applies the pacing rate (after the estimate may have changed). */
void octo_send_path_update_pacer (OctoSendPath *path);

/* Declares packets lost whose time ran out by @now; TRUE if any was. */
gboolean octo_send_path_on_timer (OctoSendPath *path, OctoTime now);
/* Whether the window and the pacer let a packet leave at @now; if not,
 * @wake is when to ask again (OCTO_TIME_NONE: after the next feedback). */
gboolean octo_send_path_may_send (OctoSendPath *path, OctoTime now,
    OctoTime *wake);
/* The sender has nothing to send: later rate samples are app-limited.
 * @wake: when the flight next times out. */
void octo_send_path_idle (OctoSendPath *path, OctoTime *wake);
/* A packet of @size link bytes leaves at @now.  @tracked: feedback will
 * speak of it, so it enters the flight and the controller; returns its
 * flight sequence number (0 if untracked). */
guint64 octo_send_path_on_sent (OctoSendPath *path, guint32 size,
    gboolean tracked, OctoTime now);

/* A feedback message arrived.  @hold_back: how long its first report
 * waited to be sent (OCTO_TIME_NONE: the feedback speaks of no arrival, or
 * comes per packet). */
void octo_send_path_on_feedback (OctoSendPath *path, OctoTime hold_back);
/* One ACK of that feedback, for arrivals up to @ack_time. */
void octo_send_path_on_ack (OctoSendPath *path, const OctoAck *ack,
    OctoTime ack_time);

G_END_DECLS
