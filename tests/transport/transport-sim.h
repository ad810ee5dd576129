/* A deterministic simulation of one Octopus connection on a virtual clock:
 * OctoSender -> droptail bottleneck (OctoLink, Mahimahi trace) -> OctoReceiver,
 * ACKs back over a fixed delay.  Shared by the transport tests and benches. */
#pragma once

#include "link/octo-link.h"
#include "transport/octo-receiver.h"
#include "transport/octo-sender.h"

G_BEGIN_DECLS

typedef struct _TransportSim TransportSim;

/* The application: called at each time it asked for; returns the next time
 * it wants to run (OCTO_TIME_NONE: never again). */
typedef OctoTime (*TransportSimAppFunc) (TransportSim *sim, OctoTime now,
    gpointer user_data);

typedef struct {
  OctoSenderConfig sender;
  OctoReceiverConfig receiver;
  guint link_packets_per_ms;    /* k x 12 Mbps; 0 = unconstrained */
  OctoTime one_way_delay;
  guint64 link_buffer_bytes;
} TransportSimConfig;

void transport_sim_config_init (TransportSimConfig *config);

TransportSim *transport_sim_new (const TransportSimConfig *config,
    OctoMessageFunc on_message, gpointer message_data);
void transport_sim_free (TransportSim *sim);

void transport_sim_set_app (TransportSim *sim, TransportSimAppFunc func,
    gpointer user_data, OctoTime first);
/* Called after every transmission (pacing measurements). */
void transport_sim_set_sent_func (TransportSim *sim,
    void (*func) (gsize len, OctoTime now, gpointer user_data),
    gpointer user_data);

void transport_sim_run_until (TransportSim *sim, OctoTime end);

OctoSender *transport_sim_sender (TransportSim *sim);
OctoReceiver *transport_sim_receiver (TransportSim *sim);
/* Submits a message at the simulator's current time. */
void transport_sim_submit (TransportSim *sim, const OctoHeader *params,
    const OctoMsgInfo *info, gsize len);

G_END_DECLS
