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
 *   speak of, so the path paces at OCTO_SEND_PATH_PACING_HEADROOM times
 *   initial_rate with no window and no loss timer, as libwebrtc's pacer
 *   runs at 2.5 times GCC's start estimate: the encoder's first key frame,
 *   several times a frame's share of that rate, leaves in a few frame
 *   intervals rather than ten (design §5).
 * Per-packet feedback (Octopus ACKs) records no hold-back and sets no
 * initial rate, and neither allowance changes anything.
 *
 * max_rate caps the estimate the application follows; a controller with a
 * window may pace at up to OCTO_SEND_PATH_PACING_HEADROOM times it, so a
 * frame larger than its share (a key frame, a spatial sync) is not held in
 * the send buffer by the application's own cap while the window still
 * bounds what is in flight.  A controller without one (the Oracle's fixed
 * rate) paces at its rate, capped.
 *
 * Backlog drain: an application-limited sender's estimate trails the path
 * (its samples measure the application's rate), so a frame larger than a
 * round trip's worth at the pacing rate (a key frame, a spatial sync) would
 * wait in the send buffer for several frame intervals on a path that could
 * carry it at once.  While the send buffer holds more than the pacing rate
 * sends in a minimum RTT, the pacer sends the backlog within one, at up to
 * the headroom times the estimate; the window still bounds the flight
 * (octo_send_path_set_backlog, design §5).  Not while the controller paces
 * below its estimate on purpose (BBR's DRAIN, PROBE_RTT, a 0.75 phase):
 * a backlogged bulk sender would otherwise never drain the path's queue.
 *
 * The application's rate (octo_send_path_app_rate), what its encoder should
 * aim at: the estimate, except while the path holds a standing queue (the
 * flight's smoothed RTT at least OCTO_SEND_PATH_QUEUED_RTT_RATIO times the
 * minimum); then at most OCTO_SEND_PATH_ACKED_FACTOR times the rate acked
 * over the last OCTO_SEND_PATH_ACKED_WINDOW, plus 10 kbit/s (libwebrtc's
 * AimdRateControl bounds its target by the acknowledged throughput the same
 * way).  BBR's estimate is a maximum over ten round trips, so after a
 * capacity drop it stays above what the path delivers for as long as the
 * queue stretches those rounds; an encoder that follows it fills the queues
 * with layers their rules then drop, and with base layers they may not
 * (design §5).  The send buffer's rules keep the estimate.  A controller
 * without a window (a fixed rate: the Oracle's) is followed as it is.  The
 * acked rate is taken at each ACK: through an outage (no ACK) it keeps its
 * last value (design §5). */
#pragma once

#include "octo-cc.h"
#include "octo-pacer.h"
#include "octo-rate.h"

G_BEGIN_DECLS

/* How many recent feedbacks' hold-backs the largest is taken of. */
#define OCTO_SEND_PATH_HOLD_BACKS 16
/* Qualitative packets whose chunk sizes a path remembers for their NACKs:
 * the newest this many (a NACK for an older one changes only the
 * controller). */
#define OCTO_SEND_PATH_CHUNK_TAILS 4096

/* The application's rate (header): a queue of half a minimum RTT (a
 * smoothed RTT of 1.5 times the minimum) is a standing one; then the rate
 * acked in the last 250 ms, with 50 % more (libwebrtc's factor; both chosen
 * in the simulator, design §5). */
#define OCTO_SEND_PATH_QUEUED_RTT_RATIO 1.5
#define OCTO_SEND_PATH_ACKED_FACTOR 1.5
#define OCTO_SEND_PATH_ACKED_EXTRA 10000
#define OCTO_SEND_PATH_ACKED_WINDOW (250 * OCTO_MSECOND)
/* Acked bytes, one sample per aligned 2^23 ns (8.4 ms): 64 reach back more
 * than 62 buckets (520 ms) whatever the ACK rate. */
#define OCTO_SEND_PATH_ACKED_SAMPLES 64
#define OCTO_SEND_PATH_ACKED_BUCKET_SHIFT 23

/* libwebrtc's pacing factor (its PacingController's 2.5). */
#define OCTO_SEND_PATH_PACING_HEADROOM 2.5

typedef struct {
  guint64 max_rate;             /* cap on the estimate, bits/s; 0: none */
  guint64 initial_rate;         /* estimate before any feedback; 0: the cc's */
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

/* The pacing rate (see max_rate and initial_rate above) and the
 * controller's estimate capped by max_rate. */
guint64 octo_send_path_pacing_rate (const OctoSendPath *path);
guint64 octo_send_path_bandwidth (const OctoSendPath *path);
/* The rate the send buffer's bitrate rule compares thresholds with: the
 * estimate, but the pacing rate while the controller still searches for
 * the path's rate (BBR's STARTUP).  A startup estimate is a lower bound;
 * dropping by it would remove the very messages whose delivery lets it
 * grow, and an application-limited sender would keep the startup estimate
 * (design §5). */
guint64 octo_send_path_rule_bandwidth (const OctoSendPath *path);
/* Whether the path holds a standing queue: its smoothed RTT is
 * OCTO_SEND_PATH_QUEUED_RTT_RATIO times its minimum or more. */
gboolean octo_send_path_queue_standing (const OctoSendPath *path);
/* The rate the application should aim at (header); OCTO_BW_UNKNOWN before
 * the first estimate. */
guint64 octo_send_path_app_rate (const OctoSendPath *path);
/* The controller's own estimate, uncapped. */
guint64 octo_send_path_estimate (const OctoSendPath *path);
/* The controller's window plus the hold-back allowance; OCTO_CC_NO_WINDOW
 * if it has none. */
guint64 octo_send_path_cwnd (const OctoSendPath *path);
OctoTime octo_send_path_hold_back (const OctoSendPath *path);
OctoTime octo_send_path_min_rtt (const OctoSendPath *path);
const gchar *octo_send_path_state (const OctoSendPath *path);
/* Whether padding on this path now would probe for bandwidth the stream
 * could use: its controller is probing and its estimate is below @ceiling
 * (bits/s of link bytes, the whole stream's; octo_sender_probe_ceiling();
 * 0: never).  The path's own estimate, not the stream's, so that each path
 * of a multipath stream is measured up to what the stream could use. */
gboolean octo_send_path_wants_padding (const OctoSendPath *path,
    guint64 ceiling);
/* When the first tracked packet sent since the last ACK left;
 * OCTO_TIME_NONE if none did, or before the first ACK (a GStreamer 1.22
 * receiver may send its first feedback seconds into a call). */
OctoTime octo_send_path_unacked_since (const OctoSendPath *path);

/* The send buffer holds @backlog bytes: a backlog the pacing rate would
 * need more than the minimum RTT for leaves at up to
 * OCTO_SEND_PATH_PACING_HEADROOM times the estimate (windowed controllers
 * only; header).  Applies the pacer's rate. */
void octo_send_path_set_backlog (OctoSendPath *path, guint64 backlog);
/* Applies the pacer's rate (after the estimate may have changed). */
void octo_send_path_update_pacer (OctoSendPath *path);

/* Declares packets lost whose time ran out by @now; TRUE if any was. */
gboolean octo_send_path_on_timer (OctoSendPath *path, OctoTime now);
/* Whether the window and the pacer let a packet leave at @now; if not,
 * @wake is when to ask again (OCTO_TIME_NONE: after the next feedback).
 * @continues_message: the packet finishes a message already part-sent,
 * which only the pacer holds if the path is paced (design §5: the window
 * would otherwise keep the rest of a message whose start the receiver has,
 * and a receiver that acknowledges per message end, as GStreamer's
 * transport-cc does per RTP marker, then acknowledges nothing until the
 * loss timer lets it out). */
gboolean octo_send_path_may_send (OctoSendPath *path, OctoTime now,
    gboolean continues_message, OctoTime *wake);
/* The sender has nothing to send: later rate samples are app-limited.
 * @wake: when the flight next times out. */
void octo_send_path_idle (OctoSendPath *path, OctoTime *wake);
/* A packet of @size link bytes leaves at @now.  @tracked: feedback will
 * speak of it, so it enters the flight and the controller; returns its
 * flight sequence number (0 if untracked). */
guint64 octo_send_path_on_sent (OctoSendPath *path, guint32 size,
    gboolean tracked, OctoTime now);

/* Packet @seq (as octo_send_path_on_sent returned it) left as the @len
 * bytes at @data: if it is qualitative, the path remembers what a queue
 * trimming its last chunks cuts off, for its NACK. */
void octo_send_path_on_sent_bytes (OctoSendPath *path, guint64 seq,
    const guint8 *data, gsize len);
/* A QUCO NACK: a queue trimmed @trimmed chunks of packet @seq32 (the
 * low 32 bits of its seq).  The flight counts only what was left of it
 * (octo_flight_on_trimmed), the controller eases off. */
void octo_send_path_on_nack (OctoSendPath *path, guint32 seq32,
    guint trimmed, OctoTime now);

/* A feedback message arrived.  @hold_back: how long its first report
 * waited to be sent (OCTO_TIME_NONE: the feedback speaks of no arrival, or
 * comes per packet). */
void octo_send_path_on_feedback (OctoSendPath *path, OctoTime hold_back);
/* One ACK of that feedback, for arrivals up to @ack_time. */
void octo_send_path_on_ack (OctoSendPath *path, const OctoAck *ack,
    OctoTime ack_time);

G_END_DECLS
