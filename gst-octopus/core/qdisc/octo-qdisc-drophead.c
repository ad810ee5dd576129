/* drophead: a FIFO that makes room for arrivals by discarding the oldest
 * packets (Mahimahi's DropHeadPacketQueue, in bytes). */
#include "octo-qdisc-fifo.h"

static const gchar *const keys[] = { NULL };

static OctoQdisc *
drophead_create (G_GNUC_UNUSED const OctoQdiscEnv *env,
    G_GNUC_UNUSED guint64 limit_bytes, G_GNUC_UNUSED const OctoQdiscArgs *args,
    G_GNUC_UNUSED GError **error)
{
  return octo_qdisc_fifo_alloc (sizeof (OctoQdiscFifo));
}

static gboolean
drophead_enqueue (OctoQdisc *qdisc, OctoPacket *packet,
    G_GNUC_UNUSED guint8 *payload, G_GNUC_UNUSED gsize *payload_len,
    OctoTime now)
{
  /* A packet larger than the whole buffer would empty it for nothing. */
  if (packet->size > qdisc->limit_bytes)
    return octo_qdisc_fifo_enqueue_tail_drop (qdisc, packet, now);
  while (!octo_qdisc_fifo_fits (qdisc, packet->size))
    octo_qdisc_fifo_drop_front (qdisc, OCTO_DROP_OVERFLOW);
  octo_pktq_push (&OCTO_QDISC_FIFO (qdisc)->q, packet, now);
  return TRUE;
}

const OctoQdiscOps octo_qdisc_drophead_ops = {
  .name = "drophead",
  .summary = "FIFO, the oldest packets are dropped to make room",
  .usage = "limit=375KB",
  .keys = keys,
  .create = drophead_create,
  .destroy = octo_qdisc_fifo_destroy,
  .enqueue = drophead_enqueue,
  .peek = octo_qdisc_fifo_peek,
  .dequeue = octo_qdisc_fifo_dequeue,
  .queued_bytes = octo_qdisc_fifo_queued_bytes,
  .queued_packets = octo_qdisc_fifo_queued_packets,
};
