/* gst-octopus core: the receiving side of Octopus transport connections.
 *
 * Reassembles messages from data packets and hands every complete message
 * over at once, in increasing msg_id order per stream: a message older than
 * (or equal to) one already delivered on its stream is late and discarded,
 * and partial messages it overtook are given up.  With @reorder_wait > 0 a
 * complete message that overtook an older partial of its stream waits up
 * to that long for it (a multipath stream's messages are split over paths
 * of different delays, so an older message often completes just after a
 * newer one); it goes at once when no older partial is pending any more.
 * For an older partial whose sender resends lost packets (a multipath key
 * frame, OCTO_DATA_FLAG_RESENDS) it waits up to @resend_wait instead, if
 * that is longer.  Waiting messages count towards the memory caps below.
 *
 * Memory is bounded: at most @max_partial_messages partial messages holding
 * at most @max_partial_bytes (each allocated at its full announced length);
 * making room evicts the oldest partial.  Receivers serving different
 * senders in one element may also share an OctoPartialBudget, a cap on the
 * bytes they hold together: a receiver makes room within it by evicting its
 * own oldest partials, and refuses a new partial when the others hold the
 * budget.  Partials older than @timeout are given up.  Each give-up has its
 * own counter.
 *
 * One receiver serves one sender address.  Its packets name their
 * connection (conn_id): a packet with a new id is a restarted sender, so
 * the receiver forgets the old connection at once (its partials, each
 * stream's delivery order, its received seqs) and delivers the new
 * connection's messages from its first; late packets of the last
 * OCTO_RECEIVER_RETIRED_CONNS replaced connections are discarded, so they
 * cannot turn it back.
 *
 * Also records received sequence numbers for ACKs (octo-acker.h), which
 * echo the connection id.  A multipath sender numbers each path's packets
 * on their own and names the path in path_id (below
 * OCTO_RECEIVER_MAX_PATHS), so the receiver keeps one record and ACK
 * schedule per path_id, while a message reassembles from fragments of any
 * path (docs/design.md §5, multipath).
 *
 * Qualitative (chunked, QUCO) messages (octo-qpacket.h) are reassembled
 * from trimmed and whole fragments alike and handed over once every
 * fragment arrived, with the leading layers whose bytes all did (none: the
 * message is given up); every trimmed packet queues a NACK (Algorithm 2)
 * besides its ACK. */
#pragma once

#include "octo-acker.h"
#include "octo-qpacket.h"

G_BEGIN_DECLS

/* Bytes of partial messages all receivers sharing it may hold together.  A
 * partial counts at its announced length, which is what it allocates. */
typedef struct {
  guint64 limit;
  guint64 held;
} OctoPartialBudget;

#define OCTO_RECEIVER_DEFAULT_PARTIAL_BUDGET (32 * 1024 * 1024)

typedef struct {
  guint32 max_partial_messages;
  guint64 max_partial_bytes;    /* also the largest message accepted */
  OctoTime timeout;
  /* the longest a complete message waits for an older partial of its
   * stream; 0: never waits */
  OctoTime reorder_wait;
  /* ... for an older partial whose sender resends its lost packets
   * (OCTO_DATA_FLAG_RESENDS), if longer */
  OctoTime resend_wait;
  guint32 ack_every;
  OctoTime ack_delay;
  /* ACKs carry the newest packet's arrival time (OCTO_ACK_FLAG_TIMESTAMPS);
   * FALSE for a sender that predates the flag */
  gboolean ack_timestamps;
  OctoPartialBudget *budget;    /* nullable; shared, outlives the receiver */
} OctoReceiverConfig;

#define OCTO_RECEIVER_DEFAULT_MAX_PARTIAL_MESSAGES 256
#define OCTO_RECEIVER_DEFAULT_MAX_PARTIAL_BYTES (64 * 1024 * 1024)
#define OCTO_RECEIVER_DEFAULT_TIMEOUT (1 * OCTO_SECOND)
/* A lost packet is resent a round trip of its path and a reordering
 * threshold after it left, and takes a one-way trip of the fastest path:
 * a few hundred ms on a cellular path with a queue, under the sender's
 * 500 ms deadline (OCTO_MP_DEADLINE). */
#define OCTO_RECEIVER_DEFAULT_RESEND_WAIT (250 * OCTO_MSECOND)
/* Replaced connections whose late packets are recognised and discarded. */
#define OCTO_RECEIVER_RETIRED_CONNS 4
/* path_ids a receiver acknowledges (a multipath sender's paths). */
#define OCTO_RECEIVER_MAX_PATHS 8

void octo_receiver_config_init (OctoReceiverConfig *config);

typedef struct {
  OctoHeader header;            /* first and last set */
  OctoMsgInfo info;
  guint8 *data;                 /* g_malloc'd; owned by the callback */
  gsize len;
  OctoTime first_arrival;       /* its first packet arrived */
  OctoTime complete_time;       /* its last missing packet arrived */
  /* Layered qualitative messages: layers sent, the leading ones in data
   * and their lengths (the rest of layer_len 0); layers 0 for ordinary and
   * all-bits-equal messages, which arrive whole. */
  guint layers_sent, layers_delivered;
  guint32 layer_len[OCTO_CHUNKS_MAX];
} OctoMessage;

/* Takes ownership of @msg->data. */
typedef void (*OctoMessageFunc) (OctoMessage *msg, gpointer user_data);

typedef struct {
  guint64 packets_received, bytes_received;
  guint64 padding_packets;      /* probes, acknowledged and discarded */
  guint64 packets_qualitative;  /* chunked (QUCO) */
  guint64 packets_qualitative_invalid;  /* chunked, inconsistent layout */
  guint64 packets_trimmed, chunks_trimmed;      /* by the network */
  guint64 nacks_sent;           /* polled by the shell */
  guint64 nacks_not_sent;       /* too many pending */
  guint64 messages_lower_layers;        /* delivered without their top layers */
  guint64 messages_unusable;    /* every fragment came, no layer whole */
  guint64 packets_invalid[OCTO_DATA_N_RESULTS];
  guint64 packets_duplicate;
  guint64 packets_late;         /* of a message older than one delivered */
  guint64 messages_delivered, bytes_delivered;
  guint64 messages_late;        /* given up: a newer message was delivered */
  guint64 messages_reordered;   /* delivered after waiting for an older one */
  guint64 messages_timed_out;
  guint64 messages_evicted;     /* given up to stay within the memory caps */
  guint64 messages_too_large;   /* announced length above max_partial_bytes
                                 * or the budget's limit */
  guint64 messages_refused;     /* other receivers hold the shared budget */
  guint64 messages_inconsistent;        /* fragments disagree */
  guint64 messages_abandoned;   /* partials of a replaced connection */
  /* given up (any reason above) with fragments from several paths: the
   * paths' queues decided differently */
  guint64 messages_lost_across_paths;
  guint64 packets_bad_path;     /* path_id >= OCTO_RECEIVER_MAX_PATHS */
  guint64 connections_replaced; /* a new conn_id: the sender restarted */
  guint64 packets_stale;        /* of a replaced connection */
  guint64 keyframe_requests;    /* octo_receiver_request_keyframe() calls */
  guint32 partial_messages;     /* now */
  guint64 partial_bytes;        /* now */
  guint32 waiting_messages;     /* now: complete, in their reorder wait */
  guint64 waiting_bytes;        /* now; within the caps with partial_bytes */
} OctoReceiverStats;

/* How long a key-frame request rides on the ACKs: a few ACKs' worth, under
 * the sender's OCTO_SENDER_KEYFRAME_REQUEST_INTERVAL, so one request asks for
 * one key frame. */
#define OCTO_RECEIVER_KEYFRAME_REQUEST_SPAN (200 * OCTO_MSECOND)

typedef struct _OctoReceiver OctoReceiver;

OctoReceiver *octo_receiver_new (const OctoReceiverConfig *config,
    OctoMessageFunc func, gpointer user_data);
/* Frees its partials and returns their bytes to the budget. */
void octo_receiver_free (OctoReceiver *receiver);

/* Feeds one datagram.  Complete messages are delivered from inside this call. */
OctoDataParseResult octo_receiver_on_packet (OctoReceiver *receiver,
    const guint8 *data, gsize len, OctoTime now);
/* The same; @path_id (nullable) is set to the path_id of a packet the
 * current connection took (a duplicate too), else to -1. */
OctoDataParseResult octo_receiver_on_path_packet (OctoReceiver *receiver,
    const guint8 *data, gsize len, OctoTime now, gint *path_id);
/* The current connection's id; FALSE before the first packet. */
gboolean octo_receiver_connection (const OctoReceiver *receiver,
    guint32 *conn_id);

/* The application's decoder needs a key frame: the ACKs of the next
 * OCTO_RECEIVER_KEYFRAME_REQUEST_SPAN carry OCTO_ACK_FLAG_KEYFRAME_REQUEST. */
void octo_receiver_request_keyframe (OctoReceiver *receiver, OctoTime now);

/* Gives up timed-out partial messages and delivers complete ones whose
 * reorder wait ended. */
void octo_receiver_on_timer (OctoReceiver *receiver, OctoTime now);
/* The next time on_timer or an ACK is due; OCTO_TIME_NONE if neither. */
OctoTime octo_receiver_next_deadline (const OctoReceiver *receiver);

/* If an ACK of some path is due at @now writes it into @out
 * (OCTO_ACK_MAX_LEN bytes), its path in @path_id (nullable), and returns
 * its length, else 0.  Poll until 0. */
gsize octo_receiver_poll_ack (OctoReceiver *receiver, OctoTime now,
    guint8 *out, guint8 *path_id);

/* If a NACK is pending writes it into @out (OCTO_NACK_LEN bytes), the path
 * of the packet it names in @path_id (nullable), and returns its length,
 * else 0.  Poll until 0 after each packet. */
gsize octo_receiver_poll_nack (OctoReceiver *receiver, guint8 *out,
    guint8 *path_id);

const OctoReceiverStats *octo_receiver_get_stats (const OctoReceiver *receiver);

G_END_DECLS
