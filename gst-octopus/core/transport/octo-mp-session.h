/* gst-octopus core: a send session over several paths (paper 003's
 * multipath framework with the Octopus send buffer).
 *
 * One send buffer, an OctoEngine whose bandwidth is the sum of the live
 * paths' estimates, decides once per message (the rules of
 * octo-send-session.h, docs/design.md §3): a message leaves it whole,
 * when some live path's pacer queue is empty (or drains within
 * commit_ahead), or not at all.  The scheduler (octo-sched.h) then assigns its packets to paths; each path
 * (octo-send-path.h) has its own flight, controller and pacer, and its
 * pacer queue never drops.
 *
 * Committed packets stay with the session until ACKed or their deadline
 * (capture + OCTO_MP_DEADLINE) passes, so a path that falls silent can be
 * replaced: a path is down after its flight's loss timeout
 * (octo_flight_loss_timeout(): max(3 x sRTT, 100 ms), 1 s before its first
 * RTT sample) without an ACK while it had packets out; its queued and
 * unACKed packets
 * whose deadline has not passed are scheduled again on the live paths,
 * except, with in_order_receiver, those of a message older than one of its
 * stream that left on live paths: the receiver has that one first and
 * discards the older as late (see OctoMpSessionConfig.in_order_receiver).  A
 * down path is probed (the caller sends padding on it) once per that
 * silence, and is up again at its next ACK.  An up path the scheduler
 * passes over is probed the same way once per silence limit in which it
 * sent nothing while data went to the others: it still ACKs, so it never
 * goes down, and without samples its sRTT and its controller's estimate
 * (advanced by ACKs) would stay where a passing dip left them, and the
 * scheduler would never choose it again.  A probe's RTT sample replaces
 * the stale sRTT; its rate sample is app-limited.  Lost packets are not
 * retransmitted, except, with config.resend, those of the messages queued
 * for it (key frames, paper 003's 500 ms sender buffer): a packet its path's
 * flight declared lost (octo-flight.h) whose message had a packet on that
 * path ACKed goes again, on the live path of least sRTT ahead of what waits
 * there, while its deadline has not passed.  A message the path's queue
 * dropped by its rules had no packet through that queue, so it stays
 * dropped.
 *
 * The caller owns each packet's payload (OctoPacket.data): it reads it
 * when the packet leaves (octo_mp_session_dequeue(), perhaps more than
 * once if rescheduled) and frees it when @release says the session is
 * done with it. */
#pragma once

#include "octo-engine.h"
#include "octo-sched.h"
#include "octo-send-session.h"

G_BEGIN_DECLS

#define OCTO_MP_DEADLINE (500 * OCTO_MSECOND)

typedef enum {
  OCTO_MP_DROPPED,              /* the send buffer's rules; @reason says which */
  OCTO_MP_ACKED,
  OCTO_MP_EXPIRED,              /* deadline passed before an ACK */
  OCTO_MP_SUPERSEDED,           /* not rescheduled: a newer message went first */
  OCTO_MP_CLOSED,               /* still held when the session was freed */
} OctoMpFate;

typedef void (*OctoMpReleaseFunc) (const OctoPacket *packet, OctoMpFate fate,
    OctoDropReason reason, gpointer user_data);

typedef struct {
  guint64 buffer_bytes;         /* link bytes */
  gboolean rules;               /* FALSE: drop-tail */
  const gchar *scheduler;       /* octo_sched_names(); NULL: "min-cost" */
  /* The next message is committed while some live path's pacer drains
   * within this; 0: only when one has nothing waiting (the longer, the
   * less the buffer's rules decide and the more the scheduler does). */
  OctoTime commit_ahead;
  /* The receiver delivers each stream's messages in msg_id order and
   * discards one older than a message it delivered (octopussrc; its
   * reorder wait holds a newer message only briefly, and only for an older
   * one of which it has a part).  A path going down then reschedules only
   * what can still be delivered: a message older than a newer one of its
   * stream that left on live paths (none of its packets still waiting or
   * unACKed on a down path) would arrive after it, so its packets are
   * released as OCTO_MP_SUPERSEDED instead of taking the live path's rate
   * from the messages after it.  Assumed, not checked: the moved message
   * cannot overtake the newer one (so with two paths, where it queues
   * behind it; with more, it may take a faster path and would have made
   * it), and the newer one is not lost on the way.
   * FALSE: a receiver that takes messages in any order. */
  gboolean in_order_receiver;
  /* Resend the lost packets of messages enqueued with resend (see above). */
  gboolean resend;
  OctoMpReleaseFunc release;
  gpointer user_data;
} OctoMpSessionConfig;

typedef struct {
  gboolean up;
  guint64 packets_sent, bytes_sent;     /* data packets, link bytes */
  guint64 packets_acked;
  guint64 packets_rescheduled;          /* moved away when it went down */
  guint64 queued_bytes;                 /* in its pacer */
  guint64 downs;                        /* times it went down */
} OctoMpPathStats;

typedef struct {
  guint64 messages_committed;
  guint64 packets_expired;              /* committed, deadline passed unACKed */
  guint64 packets_superseded;           /* not rescheduled (in_order_receiver) */
  guint64 packets_resent;               /* lost, sent again (resend) */
} OctoMpStats;

typedef struct _OctoMpSession OctoMpSession;

/* Takes the @n_paths @paths (at most OCTO_SCHED_MAX_PATHS); NULL if the
 * scheduler is unknown or there are no or too many paths. */
OctoMpSession *octo_mp_session_new (const OctoMpSessionConfig *config,
    OctoSendPath **paths, guint n_paths);
/* Releases what it holds with OCTO_MP_CLOSED. */
void octo_mp_session_free (OctoMpSession *session);

guint octo_mp_session_n_paths (const OctoMpSession *session);
/* The scheduler's name. */
const gchar *octo_mp_session_scheduler (const OctoMpSession *session);
OctoSendPath *octo_mp_session_path (const OctoMpSession *session, guint i);

/* Queues @packet of a message captured at @capture (OCTO_TIME_NONE:
 * unknown, the deadline runs from its commit); with @resend (and
 * config.resend) it is resent if lost.  Every packet of a message gives the
 * same @resend.  FALSE if the buffer discarded it at once (released as
 * OCTO_MP_DROPPED). */
gboolean octo_mp_session_enqueue (OctoMpSession *session,
    const OctoPacket *packet, OctoTime capture, gboolean resend,
    OctoTime now);

/* What may leave at @now:
 * - OCTO_SEND_PACKET: @out leaves on path @path; tell the session with
 *   octo_mp_session_on_sent();
 * - OCTO_SEND_EMPTY: path @path may send but has nothing (or is due a
 *   probe, octo_mp_session_probe_due()): send padding on it through
 *   octo_mp_session_on_sent(), or call octo_mp_session_idle();
 * - OCTO_SEND_HELD: nothing before @wake (OCTO_TIME_NONE: new data or
 *   feedback). */
OctoSendNext octo_mp_session_dequeue (OctoMpSession *session, OctoTime now,
    OctoPacket *out, guint *path, OctoTime *wake);
/* Whether path @path is due a probe (one full-size padding packet) at
 * @now: it is down, or it is up, has nothing waiting and has sent nothing
 * for its silence limit while data went to other paths (a probe declined
 * with octo_mp_session_idle() counts as sent). */
gboolean octo_mp_session_probe_due (const OctoMpSession *session,
    guint path, OctoTime now);
/* Whether path @path, which octo_mp_session_dequeue() found with nothing
 * to send, sends one padding packet now: its probe is due
 * (octo_mp_session_probe_due()), or it is probing for bandwidth below
 * @ceiling (octo_send_path_wants_padding(): its own estimate, so that each
 * path is measured) and its queue does not stand, since padding in a dip
 * only holds up what the scheduler puts on the path next (design §5
 * Multipath).  @ceiling: octo_sender_probe_ceiling(), 0 for a stream that
 * does not probe.  If not, the caller says so with octo_mp_session_idle().
 * One rule for the sender and the multipath simulator. */
gboolean octo_mp_session_pads (const OctoMpSession *session, guint path,
    guint64 ceiling, OctoTime now);
/* Path @path sends nothing now (see octo_send_path_idle()). */
void octo_mp_session_idle (OctoMpSession *session, guint path,
    OctoTime now);
/* A packet of @size link bytes leaves on @path at @now: the one
 * octo_mp_session_dequeue() just gave for it, or padding.  Returns its
 * flight sequence number. */
guint64 octo_mp_session_on_sent (OctoMpSession *session, guint path,
    guint32 size, OctoTime now);
/* An ACK came back on @path (ranges in flight sequence numbers). */
void octo_mp_session_on_ack (OctoMpSession *session, guint path,
    const OctoAck *ack, OctoTime now);

/* The send buffer's bandwidth: the sum of the live paths' estimates. */
guint64 octo_mp_session_bandwidth (const OctoMpSession *session);
/* A message's bitrate threshold @threshold (bits/s, of the whole stream) as
 * the queue of path @path should apply it: that path's share of it, in
 * proportion to its estimate among the live paths' (the send buffer's
 * bandwidth, which the unscaled threshold is compared with).  A queue on
 * one path measures that path's rate only, so the whole stream's threshold
 * there would drop the message whenever the path carries less than the
 * stream.  0 stays 0; without estimates the threshold is kept. */
guint64 octo_mp_session_path_threshold (const OctoMpSession *session,
    guint path, guint64 threshold);
/* After a path's estimate may have changed other than by an ACK (a QUCO
 * NACK): the pacers and the send buffer take the new rates. */
void octo_mp_session_update (OctoMpSession *session);
/* Whether the session's send buffer would drop a message with @header
 * arriving at @now (octo_engine_would_drop_arrival: its drain time counts
 * the send buffer only, not the paths' pacers). */
gboolean octo_mp_session_would_drop (OctoMpSession *session,
    const OctoHeader *header, OctoTime now);
/* In the send buffer and the paths' pacers. */
guint64 octo_mp_session_queued_bytes (const OctoMpSession *session);
guint32 octo_mp_session_queued_packets (const OctoMpSession *session);
void octo_mp_session_path_stats (const OctoMpSession *session, guint path,
    OctoMpPathStats *stats);
void octo_mp_session_get_stats (const OctoMpSession *session,
    OctoMpStats *stats);
const OctoEngineStats *octo_mp_session_buffer_stats (const OctoMpSession
    *session);

G_END_DECLS
