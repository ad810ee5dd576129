/* gst-octopus core: the shared base of the FIFO-stored disciplines
 * (everything but octopus): state layout and the operations they share. */
#pragma once

#include "octo-qdisc-private.h"
#include "octo-pktq.h"

G_BEGIN_DECLS

typedef struct {
  OctoQdisc parent;
  OctoPktq q;
} OctoQdiscFifo;

#define OCTO_QDISC_FIFO(qdisc) ((OctoQdiscFifo *) (qdisc))

/* Allocates @size bytes (a struct starting with OctoQdiscFifo), zeroed. */
OctoQdisc *octo_qdisc_fifo_alloc (gsize size);
void octo_qdisc_fifo_destroy (OctoQdisc *qdisc);
const OctoPacket *octo_qdisc_fifo_peek (OctoQdisc *qdisc, OctoTime now);
gboolean octo_qdisc_fifo_dequeue (OctoQdisc *qdisc, OctoTime now,
    OctoPacket *out);
guint64 octo_qdisc_fifo_queued_bytes (OctoQdisc *qdisc);
guint32 octo_qdisc_fifo_queued_packets (OctoQdisc *qdisc);

/* Whether one more packet of @size bytes fits the buffer, in bytes and in
 * packets. */
static inline gboolean
octo_qdisc_fifo_fits (OctoQdisc *qdisc, guint64 size)
{
  const OctoPktq *q = &OCTO_QDISC_FIFO (qdisc)->q;
  return q->bytes + size <= qdisc->limit_bytes &&
      q->len < qdisc->limit_packets;
}

/* Queues the packet if it fits, else drops it (overflow). */
gboolean octo_qdisc_fifo_enqueue_tail_drop (OctoQdisc *qdisc,
    OctoPacket *packet, OctoTime now);

/* Drops the packet at the front with @reason; FALSE if empty. */
gboolean octo_qdisc_fifo_drop_front (OctoQdisc *qdisc, OctoDropReason reason);

G_END_DECLS
