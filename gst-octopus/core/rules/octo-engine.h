/* gst-octopus core: the Octopus dropping engine (paper 000 §4.3, docs/design.md).
 *
 * One OctoEngine is one queue: a base-station queue of one user in the shim,
 * the send buffer of one transport connection, or either in the simulator.
 * It stores packet descriptors in FIFO order and applies the rules:
 *
 *  1. a dropper's tail packet raises dropper[stream][threshold];
 *  2. when a message's head reaches the front (and has queued >= slack) it is
 *     dropped if a dropper newer than it covers its priority, else if its
 *     bitrate threshold exceeds the stream's share of the known bandwidth;
 *  3. once dropped, every later packet of it is discarded;
 *  4. a packet that does not fit discards its whole message (overflow);
 *  5. streams are isolated by (source, stream_id); an emptied stream forgets
 *     its droppers; decisions on messages expire OCTO_ENGINE_RECORD_AGE
 *     after their last packet arrived or left (of its messages with nothing
 *     queued, a stream keeps the decisions on the 32 whose records it made
 *     last), and an epoch change (octo_engine_reset_stream) forgets them at
 *     once;
 *  6. bandwidth is measured from departures (octo-rate.h) or set from outside
 *     (the transport's BBR estimate).
 *
 * With rules disabled the same storage is a plain drop-tail FIFO.
 *
 * Packets carry an opaque payload pointer owned by the caller; the engine
 * hands it back through dequeue or through the drop callback, exactly once.
 * The drop callback must not call back into the engine. */
#pragma once

#include "octo-types.h"
#include "octo-wire.h"

G_BEGIN_DECLS

typedef struct _OctoEngine OctoEngine;

typedef struct {
  gpointer data;        /* caller's payload, returned untouched */
  guint64 source;       /* sender identity in this queue: addr:port, SSRC... */
  guint32 size;         /* bytes counted against the buffer and the rate */
  gboolean tagged;      /* FALSE: not an Octopus packet, plain FIFO traffic */
  OctoHeader header;    /* valid when tagged */
  /* The sender's connection id where the queue can see it (transport data
   * packets), else 0.  A stream whose packets change connection id was
   * restarted: it forgets its records at once (octo_engine_reset_stream),
   * and late packets of the connections it replaced pass as plain FIFO
   * traffic, so they can neither switch it back nor be judged by the new
   * connection's decisions. */
  guint32 connection;
} OctoPacket;

typedef enum {
  /* Bandwidth = the engine's own measured dequeue rate (router queue). */
  OCTO_BW_MEASURED = 0,
  /* Bandwidth = octo_engine_set_bandwidth() (transport: BBR's estimate). */
  OCTO_BW_EXTERNAL,
} OctoBwSource;

typedef struct {
  guint64 limit_bytes;      /* buffer size; default 375000 */
  guint32 limit_packets;    /* descriptor bound; 0 = limit_bytes / 64 */
  gboolean rules;           /* FALSE: drop-tail only */
  OctoBwSource bw_source;
  guint32 max_streams;      /* 0 = 1024; beyond it packets are plain FIFO */
} OctoEngineConfig;

#define OCTO_ENGINE_DEFAULT_LIMIT_BYTES 375000

void octo_engine_config_init (OctoEngineConfig *config);

typedef void (*OctoDropFunc) (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data);

typedef struct {
  guint64 packets_in, bytes_in;
  guint64 packets_out, bytes_out;
  guint64 packets_dropped[OCTO_DROP_N_REASONS];
  guint64 bytes_dropped[OCTO_DROP_N_REASONS];
  /* Whole messages dropped, by reason and by the message's priority. */
  guint64 messages_dropped[OCTO_DROP_N_REASONS][OCTO_N_PRIORITIES];
  guint64 untagged_packets;     /* passed as plain FIFO traffic */
  guint64 streams_overflowed;   /* tagged packets treated as FIFO: too many streams */
  guint64 stale_connection_packets;     /* ... of a connection its stream replaced */
} OctoEngineStats;

OctoEngine *octo_engine_new (const OctoEngineConfig *config,
    OctoDropFunc drop_func, gpointer user_data);
void octo_engine_free (OctoEngine *engine);

/* Returns TRUE if the packet was queued; FALSE if it was discarded on arrival
 * (the drop callback has then been called for it).  Either way the engine
 * may also have discarded queued packets of the same message (overflow). */
gboolean octo_engine_enqueue (OctoEngine *engine, const OctoPacket *packet,
    OctoTime now);

/* Whether the next packet to leave belongs to a message some of whose
 * packets already left: one the queue is part-way through sending. */
gboolean octo_engine_front_continues_message (const OctoEngine *engine);

/* The packet that would be sent next, deciding (and discarding) messages whose
 * head reaches the front on the way.  NULL if the queue is empty.  The pointer
 * stays valid until the next call on the engine. */
const OctoPacket *octo_engine_peek (OctoEngine *engine, OctoTime now);

/* Removes and returns the next packet to send in @out; FALSE if empty. */
gboolean octo_engine_dequeue (OctoEngine *engine, OctoTime now,
    OctoPacket *out);

/* How long a message's decision outlives its last packet (arrived or left
 * the queue): a late packet within it meets the decision (rule 3), one after
 * it is a new head, judged afresh.  A stream empty and silent for as long
 * forgets all its decisions, so a restarted sender starts clean. */
#define OCTO_ENGINE_RECORD_AGE (2 * OCTO_SECOND)

/* A new epoch of (source, stream_id), e.g. a restarted sender: its decided
 * records and droppers are forgotten, so its next packets are new heads;
 * packets of the old epoch still queued keep their decisions. */
void octo_engine_reset_stream (OctoEngine *engine, guint64 source,
    guint16 stream_id);

guint64 octo_engine_queued_bytes (const OctoEngine *engine);
guint32 octo_engine_queued_packets (const OctoEngine *engine);

/* OCTO_BW_EXTERNAL only: the bandwidth the rules compare against. */
void octo_engine_set_bandwidth (OctoEngine *engine, guint64 bps);
/* The bandwidth in force at @now (OCTO_BW_UNKNOWN, OCTO_BW_UNLIMITED or bits/s). */
guint64 octo_engine_bandwidth (OctoEngine *engine, OctoTime now);
/* The max-min fair share of that bandwidth for one stream at @now: exact
 * while at most 8 other streams had arrivals in the rate window; beyond
 * that, from their arrival rates as of a snapshot at most one window
 * (OCTO_RATE_WINDOW) old, against the current bandwidth. */
guint64 octo_engine_stream_share (OctoEngine *engine, guint64 source,
    guint16 stream_id, OctoTime now);

/* How long the bytes queued at @now take to leave at the bandwidth in
 * force; 0 if it is unknown or unlimited. */
OctoTime octo_engine_drain_time (OctoEngine *engine, OctoTime now);
/* Rule 2 for a message with @header of @source arriving at @now, judged as
 * if its head reached the front once the queue ahead of it drained
 * (octo_engine_drain_time) at the share in force: TRUE if the bitrate rule
 * would drop it then.  No dropper can be newer than a message not yet
 * queued, so only the slack and the threshold count.  A sender that packs
 * several messages into one (a QUCO layered frame, octo-qpacket.h) asks
 * this of each before packing, since the queue sees only the first's
 * fields.  Always FALSE with the rules disabled. */
gboolean octo_engine_would_drop_arrival (OctoEngine *engine, guint64 source,
    const OctoHeader *header, OctoTime now);

const OctoEngineStats *octo_engine_get_stats (const OctoEngine *engine);

G_END_DECLS
