/* bode: Bounded Delay AQM (paper 002).  At dequeue, a packet is served only
 * if its sojourn is below the target (the paper's BoundedDelay); otherwise it
 * is dropped, unless fewer than min_thr packets are queued (serving the last
 * few cannot delay anyone, and keeps dup-ACK recovery). */
#include "octo-qdisc-fifo.h"

typedef struct {
  OctoQdiscFifo fifo;
  OctoTime target;
  guint64 min_thr;
} Bode;

static const gchar *const keys[] = { "target", "min_thr", NULL };

static OctoQdisc *
bode_create (G_GNUC_UNUSED const OctoQdiscEnv *env,
    G_GNUC_UNUSED guint64 limit_bytes, const OctoQdiscArgs *args,
    GError **error)
{
  OctoTime target = 50 * OCTO_MSECOND;
  guint64 min_thr = 3;

  if (!octo_qdisc_arg_time (args, "target", &target, error) ||
      !octo_qdisc_arg_uint (args, "min_thr", 0, G_MAXUINT32, &min_thr, error))
    return NULL;
  Bode *self = (Bode *) octo_qdisc_fifo_alloc (sizeof (Bode));
  self->target = target;
  self->min_thr = min_thr;
  return &self->fifo.parent;
}

static gboolean
bode_enqueue (OctoQdisc *qdisc, OctoPacket *packet,
    G_GNUC_UNUSED guint8 *payload, G_GNUC_UNUSED gsize *payload_len,
    OctoTime now)
{
  return octo_qdisc_fifo_enqueue_tail_drop (qdisc, packet, now);
}

static const OctoPacket *
bode_peek (OctoQdisc *qdisc, OctoTime now)
{
  Bode *self = (Bode *) qdisc;
  OctoPktq *q = &self->fifo.q;
  OctoPktqEntry *front;

  while ((front = octo_pktq_front (q)) != NULL && q->len >= self->min_thr &&
      now >= front->enqueued && now - front->enqueued >= self->target)
    octo_qdisc_fifo_drop_front (qdisc, OCTO_DROP_AQM);
  return front ? &front->packet : NULL;
}

const OctoQdiscOps octo_qdisc_bode_ops = {
  .name = "bode",
  .summary = "BoDe: drop at dequeue when sojourn >= target, "
      "unless fewer than min_thr packets are queued",
  .usage = "target=50ms,min_thr=3",
  .keys = keys,
  .create = bode_create,
  .destroy = octo_qdisc_fifo_destroy,
  .enqueue = bode_enqueue,
  .peek = bode_peek,
  .dequeue = octo_qdisc_fifo_dequeue,
  .queued_bytes = octo_qdisc_fifo_queued_bytes,
  .queued_packets = octo_qdisc_fifo_queued_packets,
};
