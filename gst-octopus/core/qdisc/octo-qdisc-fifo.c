#include "octo-qdisc-fifo.h"

OctoQdisc *
octo_qdisc_fifo_alloc (gsize size)
{
  OctoQdiscFifo *fifo = g_malloc0 (size);
  octo_pktq_init (&fifo->q);
  return &fifo->parent;
}

void
octo_qdisc_fifo_destroy (OctoQdisc *qdisc)
{
  octo_pktq_clear (&OCTO_QDISC_FIFO (qdisc)->q);
  g_free (qdisc);
}

const OctoPacket *
octo_qdisc_fifo_peek (OctoQdisc *qdisc, G_GNUC_UNUSED OctoTime now)
{
  OctoPktqEntry *e = octo_pktq_front (&OCTO_QDISC_FIFO (qdisc)->q);
  return e ? &e->packet : NULL;
}

gboolean
octo_qdisc_fifo_dequeue (OctoQdisc *qdisc, OctoTime now, OctoPacket *out)
{
  OctoPktqEntry e;

  if (qdisc->ops->peek (qdisc, now) == NULL)
    return FALSE;
  octo_pktq_pop (&OCTO_QDISC_FIFO (qdisc)->q, &e);
  *out = e.packet;
  return TRUE;
}

guint64
octo_qdisc_fifo_queued_bytes (OctoQdisc *qdisc)
{
  return OCTO_QDISC_FIFO (qdisc)->q.bytes;
}

guint32
octo_qdisc_fifo_queued_packets (OctoQdisc *qdisc)
{
  return OCTO_QDISC_FIFO (qdisc)->q.len;
}

gboolean
octo_qdisc_fifo_enqueue_tail_drop (OctoQdisc *qdisc, OctoPacket *packet,
    OctoTime now)
{
  if (!octo_qdisc_fifo_fits (qdisc, packet->size)) {
    octo_qdisc_drop (qdisc, packet, OCTO_DROP_OVERFLOW);
    return FALSE;
  }
  octo_pktq_push (&OCTO_QDISC_FIFO (qdisc)->q, packet, now);
  return TRUE;
}

gboolean
octo_qdisc_fifo_drop_front (OctoQdisc *qdisc, OctoDropReason reason)
{
  OctoPktqEntry e;

  if (!octo_pktq_pop (&OCTO_QDISC_FIFO (qdisc)->q, &e))
    return FALSE;
  octo_qdisc_drop (qdisc, &e.packet, reason);
  return TRUE;
}
