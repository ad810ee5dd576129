/* gst-octopus core: one direction of an emulated cellular link, with
 * Mahimahi's semantics (mm-link + mm-delay) and a cell scheduler in front.
 *
 * - Each trace line is a delivery opportunity for 1500 bytes (link bytes:
 *   the IP datagram).  Unused bytes of an opportunity serve the next queued
 *   packets at the same instant; a packet larger than what is left is
 *   served over the following opportunities.  The trace loops.
 * - Several queues (one per user, each its own discipline) share the link;
 *   whenever the link needs a packet it picks one by deficit round robin
 *   over bytes (quantum 1500).
 * - A departed packet is handed on after the one-way propagation delay.
 *
 * Pure model: the caller injects time.  The intended loop is
 *   octo_link_advance (now); enqueue arrivals of @now into the queues;
 *   while (octo_link_pop_delivery (now)) send it;
 *   sleep until octo_link_next_wakeup ().
 * Opportunities at or before @now are used before arrivals at @now queue,
 * as in Mahimahi. */
#pragma once

#include "octo-trace.h"
#include "qdisc/octo-qdisc.h"

G_BEGIN_DECLS

#define OCTO_LINK_OPPORTUNITY_BYTES 1500
#define OCTO_LINK_QUANTUM 1500

typedef struct _OctoLink OctoLink;

typedef struct {
  OctoPacket packet;
  guint queue;          /* index returned by octo_link_add_queue() */
  OctoTime departure;   /* the opportunity that finished sending it */
  OctoTime delivery;    /* departure + propagation delay */
} OctoLinkDelivery;

/* Called once per opportunity with the bytes it offered (capacity logging). */
typedef void (*OctoLinkOpportunityFunc) (OctoTime time, guint32 bytes,
    gpointer user_data);

/* @trace (borrowed, may be NULL: an unconstrained link that serves every
 * queued packet at once); opportunity offsets count from @start. */
OctoLink *octo_link_new (const OctoTrace *trace, OctoTime delay,
    OctoTime start);
/* Payloads the link still holds are not handed back: octo_link_drain(). */
void octo_link_free (OctoLink *link);

/* @qdisc is borrowed and must outlive the link. */
guint octo_link_add_queue (OctoLink *link, OctoQdisc *qdisc);
void octo_link_set_opportunity_func (OctoLink *link,
    OctoLinkOpportunityFunc func, gpointer user_data);
/* Unconstrained links only (a traced link's rate bounds its propagation
 * line): departs packets only while fewer than @bytes, and @bytes / 64
 * packets, are in propagation; the rest wait in their queues, whose own
 * limits then drop the excess.  0 (the default): no limit. */
void octo_link_set_flight_limit (OctoLink *link, guint64 bytes);

/* Uses every opportunity at or before @now; queues decide (AQM drops,
 * Octopus rules) at the opportunity's time. */
void octo_link_advance (OctoLink *link, OctoTime now);
/* The time of the link's current decision: while advance() uses an
 * opportunity, that opportunity's time (what a drop callback should stamp
 * its drop with); otherwise the latest time advance() reached. */
OctoTime octo_link_time (const OctoLink *link);
/* Next packet whose delivery time is <= @now, in departure order. */
gboolean octo_link_pop_delivery (OctoLink *link, OctoTime now,
    OctoLinkDelivery *out);
/* When the caller must call advance/pop next; FALSE if nothing is pending
 * (all queues empty, nothing in flight). */
gboolean octo_link_next_wakeup (OctoLink *link, OctoTime *time);

/* Packets departed but not yet delivered (propagation). */
guint octo_link_in_flight (const OctoLink *link);
/* Hands back, one per call, every packet the link still holds (the one
 * partly sent, then those in flight) so a shell can free them on shutdown.
 * The queues are not touched. */
gboolean octo_link_drain (OctoLink *link, OctoPacket *out);

G_END_DECLS
