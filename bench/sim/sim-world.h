/* A deterministic world on a virtual clock: one Octopus connection
 * (OctoSender -> downlink -> OctoReceiver, ACKs back over the uplink), every
 * piece the core's own code: the links are OctoLink with Mahimahi traces,
 * the network queue any OctoQdisc.  Used by the simulator and the tests. */
#pragma once

#include "link/octo-link.h"
#include "transport/octo-receiver.h"
#include "transport/octo-sender.h"

G_BEGIN_DECLS

typedef struct _SimWorld SimWorld;

/* The application: runs at the times it asks for; returns the next one
 * (OCTO_TIME_NONE: never again). */
typedef OctoTime (*SimAppFunc) (SimWorld *world, OctoTime now,
    gpointer user_data);

typedef struct {
  OctoSenderConfig sender;
  OctoReceiverConfig receiver;
  const OctoTrace *down_trace;  /* borrowed; NULL: unconstrained */
  const OctoTrace *up_trace;    /* borrowed; NULL: unconstrained */
  OctoTime one_way_delay;       /* each direction */
  const gchar *down_queue;      /* qdisc spec of the bottleneck queue */
  guint64 link_buffer_bytes;
  /* constant-rate cross traffic through the bottleneck queue: plain (not
   * Octopus) 1500-byte datagrams from another sender; 0 = none */
  guint64 cross_bps;
} SimWorldConfig;

void sim_world_config_init (SimWorldConfig *config);

/* A constant link of k x 12 Mbit/s (k opportunities every ms); NULL for 0,
 * an unconstrained link.  Free with octo_trace_free(). */
OctoTrace *sim_constant_trace (guint packets_per_ms);

typedef struct {
  guint64 capacity_bytes;       /* offered by the downlink's opportunities */
  guint64 delivered_bytes;      /* link bytes that crossed the downlink */
  guint64 sent_packets, sent_bytes;     /* link bytes the sender emitted */
  guint64 max_queued_bytes;     /* at the bottleneck queue */
  guint64 cross_sent_bytes, cross_delivered_bytes;      /* link bytes */
} SimLinkStats;

SimWorld *sim_world_new (const SimWorldConfig *config,
    OctoMessageFunc on_message, gpointer message_data, GError **error);
void sim_world_free (SimWorld *world);

void sim_world_set_app (SimWorld *world, SimAppFunc func, gpointer user_data,
    OctoTime first);
/* Observers of every data packet the sender transmits and of every one
 * that reaches the receiver (pacing measurements, per-packet feedback). */
typedef void (*SimPacketFunc) (const guint8 *data, gsize len, OctoTime now,
    gpointer user_data);
void sim_world_set_sent_func (SimWorld *world, SimPacketFunc func,
    gpointer user_data);
void sim_world_set_delivered_func (SimWorld *world, SimPacketFunc func,
    gpointer user_data);

void sim_world_run_until (SimWorld *world, OctoTime end);

OctoSender *sim_world_sender (SimWorld *world);
OctoQdisc *sim_world_down_queue (SimWorld *world);
const SimLinkStats *sim_world_link_stats (const SimWorld *world);

/* Submits a message of @len zero bytes at the world's current time; FALSE
 * if the sender refused it. */
gboolean sim_world_submit (SimWorld *world, const OctoHeader *params,
    const OctoMsgInfo *info, gsize len);

G_END_DECLS
