/* droptail: a FIFO that discards arrivals that do not fit (Mahimahi's
 * DropTailPacketQueue, in bytes). */
#include "octo-qdisc-fifo.h"

static const gchar *const keys[] = { NULL };

static OctoQdisc *
droptail_create (G_GNUC_UNUSED const OctoQdiscEnv *env,
    G_GNUC_UNUSED guint64 limit_bytes, G_GNUC_UNUSED const OctoQdiscArgs *args,
    G_GNUC_UNUSED GError **error)
{
  return octo_qdisc_fifo_alloc (sizeof (OctoQdiscFifo));
}

static gboolean
droptail_enqueue (OctoQdisc *qdisc, OctoPacket *packet,
    G_GNUC_UNUSED guint8 *payload, G_GNUC_UNUSED gsize *payload_len,
    OctoTime now)
{
  return octo_qdisc_fifo_enqueue_tail_drop (qdisc, packet, now);
}

const OctoQdiscOps octo_qdisc_droptail_ops = {
  .name = "droptail",
  .summary = "FIFO, arrivals that do not fit are dropped",
  .usage = "limit=375KB",
  .keys = keys,
  .create = droptail_create,
  .destroy = octo_qdisc_fifo_destroy,
  .enqueue = droptail_enqueue,
  .peek = octo_qdisc_fifo_peek,
  .dequeue = octo_qdisc_fifo_dequeue,
  .queued_bytes = octo_qdisc_fifo_queued_bytes,
  .queued_packets = octo_qdisc_fifo_queued_packets,
};
