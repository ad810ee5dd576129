/* gst-octopus core: the skeleton both senders share (octo-sender.h over
 * UDP, octo-rtp-sender.h over RTP): a send buffer and the path that
 * empties it.
 *
 * The send buffer is an OctoEngine whose bandwidth is the path's estimate,
 * so a source faster than the path fills the buffer and the dropping rules
 * decide what goes; packets leave when the path's window and pacer allow
 * (octo-send-path.h).  The adapters on top cut messages into packets (or
 * take RTP packets as they come) and turn the peer's feedback into ACKs;
 * the controller is whichever OctoCc the path was given.
 *
 * An outage (restart_after with tracked packets sent and none acked) asks
 * the application once for a restart, a key frame: its dropper lets the
 * send buffer and the network's queues drop every older message the outage
 * holds, so what arrives after it is the new picture, not a second of
 * frames late.  Nothing else can: a base layer without key frames has no
 * dropper, and the rules never drop its frames (design §5). */
#pragma once

#include "octo-engine.h"
#include "octo-send-path.h"

G_BEGIN_DECLS

typedef struct {
  guint64 buffer_bytes;         /* link bytes */
  gboolean rules;               /* FALSE: drop-tail */
  /* Releases a packet the buffer dropped, or still held when freed. */
  OctoDropFunc drop_func;
  gpointer user_data;
  /* an outage: this long with tracked packets sent and none acked
   * (octo_send_session_take_restart); 0: never asks */
  OctoTime restart_after;
} OctoSendSessionConfig;

/* The outage after which the shells and the simulator's Octopus endpoint
 * ask for a restart (octopusrtpsender and octopussink outage-restart). */
#define OCTO_SEND_DEFAULT_RESTART_AFTER (500 * OCTO_MSECOND)

/* What every sender reports. */
typedef struct {
  guint64 pacing_rate;          /* bits/s */
  guint64 bandwidth;            /* bits/s; 0 unknown */
  guint64 app_rate;             /* bits/s the app should aim at; 0 unknown */
  OctoTime min_rtt, srtt;       /* 0 unknown */
  guint64 cwnd, inflight;       /* link bytes; cwnd 0: no window */
  OctoTime feedback_hold_back;  /* largest recent hold-back of feedback */
  guint64 restarts;             /* outages that asked for a restart */
  guint64 queued_bytes;
  guint32 queued_packets;
  const gchar *state;           /* the controller's: "startup", "fixed", ... */
  const OctoFlightStats *flight;
  const OctoEngineStats *buffer;
} OctoSendStats;

/* Relative change of the estimate worth telling the app (an encoder
 * re-chooses its rate on it). */
#define OCTO_SEND_NOTIFY_CHANGE 0.05

/* Whether @bandwidth differs enough from @notified, the value the app last
 * heard, to tell it: by more than OCTO_SEND_NOTIFY_CHANGE of @notified, or
 * to or from 0 (unknown). */
gboolean octo_send_bandwidth_changed_enough (guint64 notified,
    guint64 bandwidth);

typedef struct _OctoSendSession OctoSendSession;

/* Takes @path. */
OctoSendSession *octo_send_session_new (const OctoSendSessionConfig *config,
    OctoSendPath *path);
/* Releases the packets still queued through config->drop_func. */
void octo_send_session_free (OctoSendSession *session);

OctoSendPath *octo_send_session_path (const OctoSendSession *session);

/* Queues @packet; FALSE if the buffer discarded it at once (drop_func has
 * released it). */
gboolean octo_send_session_enqueue (OctoSendSession *session,
    OctoPacket *packet, OctoTime now);
typedef enum {
  OCTO_SEND_PACKET,             /* a packet may leave now: here it is */
  OCTO_SEND_HELD,               /* the path holds packets back until @wake */
  OCTO_SEND_EMPTY,              /* the path would let one leave; none queued */
} OctoSendNext;

/* What may leave at @now.  On OCTO_SEND_EMPTY the caller sends something
 * else through octo_send_session_on_sent() or calls
 * octo_send_session_idle(). */
OctoSendNext octo_send_session_dequeue (OctoSendSession *session,
    OctoTime now, OctoPacket *out, OctoTime *wake);
/* Nothing to send: see octo_send_path_idle(). */
void octo_send_session_idle (OctoSendSession *session, OctoTime *wake);
/* TRUE once per outage, when the first tracked packet sent since the last
 * ACK is restart_after old at @now: the application should send a key
 * frame.  octo_send_session_dequeue()'s and _idle()'s @wake include that
 * moment. */
gboolean octo_send_session_take_restart (OctoSendSession *session,
    OctoTime now);
/* See octo_send_path_on_sent(). */
guint64 octo_send_session_on_sent (OctoSendSession *session, guint32 size,
    gboolean tracked, OctoTime now);

/* After the path's estimate may have changed (feedback, losses, new fixed
 * rates): the pacer takes the pacing rate and the buffer the estimate. */
void octo_send_session_update (OctoSendSession *session);

/* Whether the send buffer's rules would drop a message with @header
 * arriving at @now (octo_engine_would_drop_arrival). */
gboolean octo_send_session_would_drop (OctoSendSession *session,
    const OctoHeader *header, OctoTime now);

/* The path's estimate, capped; what the dropping rules see. */
guint64 octo_send_session_bandwidth (const OctoSendSession *session);
/* The path's application rate (octo_send_path_app_rate). */
guint64 octo_send_session_app_rate (const OctoSendSession *session);
guint32 octo_send_session_queued_packets (const OctoSendSession *session);
void octo_send_session_get_stats (const OctoSendSession *session,
    OctoSendStats *stats);

G_END_DECLS
