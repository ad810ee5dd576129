/* The Salsify baseline's transport in the simulator: frames leave unpaced
 * (a fixed-rate sender far faster than any link); every packet carries its
 * grace period; the receiver's Sprout-EWMA estimator (adapt/octo-salsify.h)
 * sees each arrival and its ACK returns the mean inter-arrival time and the
 * packet's sequence number one propagation delay later.  The sender counts
 * in flight what it sent beyond the newest ACKed sequence number. */
#pragma once

#include "baselines/octo-salsify.h"
#include "sim-world.h"

G_BEGIN_DECLS

/* bits/s: "unpaced" */
#define SIM_SALSIFY_SEND_RATE 1000000000ull

typedef struct _SimSalsify SimSalsify;

/* Hooks itself into flow @flow's packet observers; the flow must be an
 * OctoSender of FIXED rate. */
SimSalsify *sim_salsify_new (SimWorld *world, guint flow,
    OctoTime one_way_delay, guint32 payload);
void sim_salsify_free (SimSalsify *salsify);

/* What the link can absorb now, from the ACKs that reached the sender by
 * @now: bytes of payload; @idle: nothing is in flight. */
guint64 sim_salsify_budget (SimSalsify *salsify, OctoTime now,
    gboolean *idle);

G_END_DECLS
