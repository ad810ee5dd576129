/* A deterministic world on a virtual clock: Octopus connections (OctoSender
 * -> downlink -> OctoReceiver, ACKs back over the uplink) and reliable TCP
 * CUBIC streams (adapt/octo-tcp.h), every piece the core's own code: the
 * links are OctoLink with Mahimahi traces, the network queues any OctoQdisc.
 *
 * Flow 0 is the app's stream; more flows (a second stream, a backlogged
 * bulk transfer) share the same path.  The downlink is the bottleneck link
 * and its queue, optionally behind a legacy hop (a drop-tail queue on a
 * link of its own trace): two bottlenecks in series.  Used by the simulator
 * and the tests. */
#pragma once

#include "baselines/octo-tcp.h"
#include "link/octo-link.h"
#include "transport/octo-receiver.h"
#include "transport/octo-sender.h"

G_BEGIN_DECLS

#define SIM_MAX_FLOWS 4

typedef struct _SimWorld SimWorld;

/* The application: runs at the times it asks for; returns the next one
 * (OCTO_TIME_NONE: never again). */
typedef OctoTime (*SimAppFunc) (SimWorld *world, OctoTime now,
    gpointer user_data);

typedef enum {
  SIM_TRANSPORT_OCTO,           /* OctoSender/OctoReceiver */
  SIM_TRANSPORT_TCP,            /* reliable, in order, CUBIC */
} SimTransport;

typedef struct {
  SimTransport transport;
  OctoSenderConfig sender;      /* OCTO */
  gboolean backlogged;          /* a bulk transfer: always has data to send */
} SimFlowConfig;

typedef struct {
  OctoSenderConfig sender;      /* flow 0, when its transport is OCTO */
  SimTransport transport;       /* flow 0's */
  OctoReceiverConfig receiver;
  const OctoTrace *down_trace;  /* borrowed; NULL: unconstrained */
  const OctoTrace *up_trace;    /* borrowed; NULL: unconstrained */
  OctoTime one_way_delay;       /* each direction */
  const gchar *down_queue;      /* qdisc spec of the bottleneck queue */
  guint64 link_buffer_bytes;
  /* constant-rate cross traffic through the bottleneck queue: plain (not
   * Octopus) 1500-byte datagrams from another sender; 0 = none */
  guint64 cross_bps;
  /* flows 1.. */
  guint n_more_flows;
  SimFlowConfig more_flows[SIM_MAX_FLOWS - 1];
  /* a legacy drop-tail hop before the bottleneck (no propagation delay of
   * its own, the same buffer size); NULL: none */
  const OctoTrace *legacy_trace;
} SimWorldConfig;

void sim_world_config_init (SimWorldConfig *config);

/* A constant link of k x 12 Mbit/s (k opportunities every ms); NULL for 0,
 * an unconstrained link.  Free with octo_trace_free(). */
OctoTrace *sim_constant_trace (guint packets_per_ms);

typedef struct {
  guint64 capacity_bytes;       /* offered by the downlink's opportunities */
  guint64 delivered_bytes;      /* flow 0's link bytes that crossed it */
  guint64 sent_packets, sent_bytes;     /* link bytes flow 0 emitted */
  guint64 max_queued_bytes;     /* at the bottleneck queue */
  guint64 cross_sent_bytes, cross_delivered_bytes;      /* link bytes */
} SimLinkStats;

typedef struct {
  guint64 sent_bytes, delivered_bytes;  /* link bytes of the flow's data */
  guint64 padding_delivered_bytes;      /* ... of it bandwidth probes */
  /* ... of it in messages delivered whole (TCP: every byte, its stream is
   * reliable) */
  guint64 whole_message_bytes;
} SimFlowStats;

SimWorld *sim_world_new (const SimWorldConfig *config,
    OctoMessageFunc on_message, gpointer message_data, GError **error);
void sim_world_free (SimWorld *world);

void sim_world_set_app (SimWorld *world, SimAppFunc func, gpointer user_data,
    OctoTime first);
/* Observers of every data packet a flow transmits and of every one that
 * reaches its receiver (pacing measurements, per-packet feedback).  For TCP
 * flows @data is the segment's bytes as the world carries them. */
typedef void (*SimPacketFunc) (const guint8 *data, gsize len, OctoTime now,
    gpointer user_data);
void sim_world_set_sent_func (SimWorld *world, SimPacketFunc func,
    gpointer user_data);
void sim_world_set_delivered_func (SimWorld *world, SimPacketFunc func,
    gpointer user_data);

/* A SimPacketFunc that measures the link rate a flow sends at: link bytes
 * after its first packet over the time from that packet to the last. */
typedef struct {
  OctoTime first, last;
  guint64 bytes;
} SimSendMeter;

#define SIM_SEND_METER_INIT { OCTO_TIME_NONE, OCTO_TIME_NONE, 0 }

void sim_send_meter_sent (const guint8 *data, gsize len, OctoTime now,
    gpointer meter);
/* Bits/s; 0 before two packets. */
gdouble sim_send_meter_rate (const SimSendMeter *meter);
void sim_world_set_flow_sent_func (SimWorld *world, guint flow,
    SimPacketFunc func, gpointer user_data);
void sim_world_set_flow_delivered_func (SimWorld *world, guint flow,
    SimPacketFunc func, gpointer user_data);
/* Where a flow's complete messages go (flow 0: sim_world_new's callback;
 * others: dropped until set).  TCP messages come in order, whole, with
 * data NULL. */
void sim_world_set_flow_message_func (SimWorld *world, guint flow,
    OctoMessageFunc func, gpointer user_data);

void sim_world_run_until (SimWorld *world, OctoTime end);

/* Flow 0's sender (NULL if it runs over TCP). */
OctoSender *sim_world_sender (SimWorld *world);
OctoSender *sim_world_flow_sender (SimWorld *world, guint flow);
OctoTcpSender *sim_world_flow_tcp (SimWorld *world, guint flow);
OctoQdisc *sim_world_down_queue (SimWorld *world);
const SimLinkStats *sim_world_link_stats (const SimWorld *world);
const SimFlowStats *sim_world_flow_stats (const SimWorld *world, guint flow);

/* Submits a message of @len zero bytes to flow 0 at the world's current
 * time; FALSE if the sender refused it. */
gboolean sim_world_submit (SimWorld *world, const OctoHeader *params,
    const OctoMsgInfo *info, gsize len);
gboolean sim_world_submit_flow (SimWorld *world, guint flow,
    const OctoHeader *params, const OctoMsgInfo *info, gsize len);

G_END_DECLS
