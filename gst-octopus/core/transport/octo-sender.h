/* gst-octopus core: the sending side of one Octopus transport connection.
 *
 * Sans-IO: the shell submits messages and ACK datagrams with the current
 * time and polls for the next datagram to transmit.  Messages are cut into
 * packets (octo-packet.h) and queued in the send session's buffer
 * (octo-send-session.h), whose bandwidth is the congestion controller's
 * bottleneck estimate, so a source faster than the path fills the buffer
 * and the dropping rules decide what goes.  Packets leave when the pacer
 * and the congestion window allow; nothing is retransmitted, except
 * multipath key frames with resend_keyframes.
 *
 * With n_paths > 1 the messages go over that many paths instead, through a
 * multipath session (octo-mp-session.h: one send buffer deciding once per
 * message, a scheduler, per path a flight, controller and pacer): each
 * packet says its path (path_id) and that path's own seq, ACKs name the
 * path they acknowledge, and the shell sends each datagram on the path
 * octo_sender_poll_path() names and feeds each path's ACKs with
 * octo_sender_on_path_control().  A message's deadline (for moving its
 * packets off a path that went down) runs from its submission. */
#pragma once

#include "octo-mp-session.h"
#include "octo-preset.h"
#include "octo-qpacket.h"
#include "octo-rate.h"
#include "octo-send-session.h"

G_BEGIN_DECLS

typedef struct {
  guint32 mtu;                  /* bytes of UDP payload per packet */
  OctoSenderCc cc;
  guint64 max_rate;             /* bits/s of link bytes: cap (FIXED: the rate); 0 = none */
  guint64 buffer_bytes;         /* send buffer, link bytes */
  gboolean rules;               /* FALSE: the send buffer is drop-tail */
  /* BBR: while probing for more bandwidth (STARTUP, or a PROBE_BW phase
   * with gain > 1) and out of data, send padding at the pacing rate, so
   * that an app-limited sender still measures what the path could carry.
   * A padding message (OCTO_MSG_FLAG_PADDING) belongs to the stream last
   * submitted, with priority 7, the pacing rate as bitrate threshold and
   * OCTO_SENDER_PADDING_SLACK_MS of slack: an Octopus queue whose link
   * cannot carry the probe drops it once it waited that long instead of
   * delaying the stream.  Stops once the estimate reaches probe_ceiling
   * (bits/s of link bytes), or by default (0) OCTO_SENDER_PROBE_HEADROOM
   * times the rate the app submitted over the last second: probing is for
   * headroom the app could use next, not for the path's full capacity. */
  gboolean probe;
  guint64 probe_ceiling;
  guint32 seed;
  guint32 conn_id;              /* unpredictable, new for each connection */
  guint32 isn;                  /* wire seq of the first packet; unpredictable */
  guint n_paths;                /* 0 or 1: one path; else multipath */
  const gchar *scheduler;       /* multipath: octo_sched_names(); NULL: min-cost */
  /* Multipath: resend the lost packets of key frames (OctoMsgInfo
   * OCTO_MSG_FLAG_KEYFRAME) on the fastest live path until their deadline
   * (octo-mp-session.h); their packets carry OCTO_DATA_FLAG_RESENDS. */
  gboolean resend_keyframes;
  /* One path: an outage (this long with tracked packets sent and none
   * acked) asks the app for a restart once (octo_sender_take_restart);
   * 0: never.  Multipath moves a silent path's packets instead. */
  OctoTime restart_after;
} OctoSenderConfig;

#define OCTO_SENDER_DEFAULT_MTU 1400
/* The default probe ceiling in multiples of the rate the app submitted over
 * the last OCTO_SENDER_SUBMITTED_WINDOW. */
#define OCTO_SENDER_PROBE_HEADROOM 4
/* A padding message is droppable only after waiting this long in a queue
 * (its slack): its bitrate threshold, the pacing rate, is above what an
 * Octopus queue measures for a user whose queue stays short, since it
 * only sees what the user sends, so without slack a queue that is not
 * congested drops every probe and the estimate never finds headroom.  The
 * quality preset's slack, for its reason: a message that waited less did
 * not make the queue long. */
#define OCTO_SENDER_PADDING_SLACK_MS OCTO_PRESET_QUALITY_SLACK_MS
#define OCTO_SENDER_SUBMITTED_WINDOW (1 * OCTO_SECOND)

/* The rate up to which an idle sender pads to probe (OctoSenderConfig's
 * probe_ceiling): @configured, or by default (0)
 * OCTO_SENDER_PROBE_HEADROOM times the rate @submitted measured over the
 * last OCTO_SENDER_SUBMITTED_WINDOW (link bytes the app submitted), so 0
 * (no padding) before the app submitted anything.  A sender with probing
 * off (OctoSenderConfig's probe) does not ask.  One rule for every sender
 * shell and the multipath simulator. */
guint64 octo_sender_probe_ceiling (guint64 configured,
    const OctoArrivalMeter *submitted, OctoTime now);
/* ACKs asking for a key frame within this of the last request taken are
 * the same request (the receiver repeats it for
 * OCTO_RECEIVER_KEYFRAME_REQUEST_SPAN). */
#define OCTO_SENDER_KEYFRAME_REQUEST_INTERVAL (300 * OCTO_MSECOND)

void octo_sender_config_init (OctoSenderConfig *config);
/* Derives conn_id and isn from @seed, for simulations that must repeat;
 * a real connection draws them from the system's random source. */
void octo_sender_config_ids_from_seed (OctoSenderConfig *config, guint64 seed);

typedef struct {
  OctoSendStats session;
  guint64 messages_submitted, messages_rejected;
  guint64 acks_received, acks_invalid;
  guint64 acks_foreign;         /* valid, but another connection's id (or
                                 * a NACK naming a packet never sent) */
  guint64 nacks_received;       /* QUCO NACKs, handed to the controller */
  guint64 layers_cut;           /* QUCO frames' layers cut before packing */
  guint64 acks_unsent;          /* newest range names a packet never sent */
  guint64 keyframe_requests;    /* taken from ACKs (one per interval) */
  guint64 padding_packets, padding_bytes;       /* link bytes */
  /* multipath: the sums over the paths (session.flight points here) and
   * the session's own counters */
  OctoFlightStats flight_sum;
  OctoMpStats mp;
  const gchar *scheduler;       /* multipath: its name; else NULL */
} OctoSenderStats;

/* One path's view (multipath). */
typedef struct {
  OctoMpPathStats mp;
  guint64 pacing_rate, bandwidth;       /* bits/s */
  OctoTime srtt, min_rtt;
  guint64 cwnd, inflight;
  const gchar *state;
  const OctoFlightStats *flight;
} OctoSenderPathStats;

typedef struct _OctoSender OctoSender;

/* NULL if multipath and the scheduler is unknown or n_paths above
 * OCTO_SCHED_MAX_PATHS. */
OctoSender *octo_sender_new (const OctoSenderConfig *config, OctoTime now);
void octo_sender_free (OctoSender *sender);

/* Queues one message.  @params supplies stream and dropping fields (msg_id is
 * assigned per stream here, first/last ignored).  Returns the msg_id used,
 * or FALSE in @accepted if the message is too large for the MTU or a field
 * is out of range. */
guint32 octo_sender_submit (OctoSender *sender, const OctoHeader *params,
    const OctoMsgInfo *info, const guint8 *data, gsize len, OctoTime now,
    gboolean *accepted);
/* The same for a message sent as qualitative packets (QUCO,
 * octo-qpacket.h): @data holds @layout's segments back to back. */
guint32 octo_sender_submit_qualitative (OctoSender *sender,
    const OctoHeader *params, const OctoMsgInfo *info,
    const OctoQLayout *layout, const guint8 *data, OctoTime now,
    gboolean *accepted);

/* Queues the layered frame @frame (octo-qpacket.h) as one qualitative
 * message, less the layers the send buffer's rules would drop on arrival
 * by their own fields (octo_engine_would_drop_arrival): the first such
 * layer above the base and every layer above it, which need it, are cut
 * before packing (counted in layers_cut).  The buffer sees only the
 * base's fields, so a frame's upper layers could otherwise only leave
 * whole with it, however far the path's share fell below their
 * thresholds.  What is judged is the frame's arrival, not its head
 * reaching the front: a frame already queued stays whole. */
guint32 octo_sender_submit_qframe (OctoSender *sender,
    const OctoQFrame *frame, OctoTime now, gboolean *accepted);

/* If a packet may leave at @now, writes it to @out (>= mtu bytes) and returns
 * its length.  Otherwise returns 0 and sets @wake to when to poll again
 * (OCTO_TIME_NONE: not before the next submit or ACK). */
gsize octo_sender_poll (OctoSender *sender, OctoTime now, guint8 *out,
    OctoTime *wake);
/* The same for any number of paths: @path is the path to send it on. */
gsize octo_sender_poll_path (OctoSender *sender, OctoTime now, guint8 *out,
    guint *path, OctoTime *wake);

/* Feeds a datagram received from the peer; FALSE if it was not a valid ACK
 * or NACK (QUCO: handed to the controller) of this connection. */
gboolean octo_sender_on_control (OctoSender *sender, const guint8 *data,
    gsize len, OctoTime now);
/* The same for a datagram that came back on @path; it must name @path. */
gboolean octo_sender_on_path_control (OctoSender *sender, guint path,
    const guint8 *data, gsize len, OctoTime now);

/* TRUE once after an ACK asked for a key frame (the receiver's decoder
 * lost a reference): the application should encode one. */
gboolean octo_sender_take_keyframe_request (OctoSender *sender);
/* TRUE once per outage of the one path, once it is restart_after old
 * (octo_send_session_take_restart): the application should encode a key
 * frame, whose dropper lets the queues drop what the outage holds.
 * octo_sender_poll()'s @wake includes when it is due.  Always FALSE over
 * several paths. */
gboolean octo_sender_take_restart (OctoSender *sender, OctoTime now);

/* The rate the dropping rules see, bits/s. */
guint64 octo_sender_bandwidth (const OctoSender *sender);
/* The rate upstream encoders should aim at (octo_send_path_app_rate); over
 * several paths, the estimates' sum (octo_mp_session_bandwidth). */
guint64 octo_sender_app_rate (const OctoSender *sender);
/* OCTO_SENDER_FIXED only: pace at @pacing_rate and report @bandwidth (0:
 * the pacing rate) to the dropping rules and the app, both bits/s of link
 * bytes.  The Oracle follows the capacity trace with it. */
void octo_sender_set_fixed_rates (OctoSender *sender, guint64 pacing_rate,
    guint64 bandwidth);
/* Packets waiting in the send buffer. */
guint32 octo_sender_queued_packets (const OctoSender *sender);
void octo_sender_get_stats (const OctoSender *sender, OctoSenderStats *stats);
/* 1 unless multipath. */
guint octo_sender_n_paths (const OctoSender *sender);
/* Multipath only. */
void octo_sender_path_stats (const OctoSender *sender, guint path,
    OctoSenderPathStats *stats);

G_END_DECLS
