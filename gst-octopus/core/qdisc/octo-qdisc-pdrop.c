/* pdrop: priority dropping (paper 000 §7.2).  When an arriving packet of
 * priority p does not fit, every queued packet with priority value > p is
 * evicted; if it still does not fit, the arrival is dropped.  Untagged packets
 * are never evicted and never evict. */
#include "octo-qdisc-fifo.h"

static const gchar *const keys[] = { NULL };

typedef struct {
  OctoQdisc *qdisc;
  guint8 priority;
} Eviction;

static OctoQdisc *
pdrop_create (G_GNUC_UNUSED const OctoQdiscEnv *env,
    G_GNUC_UNUSED guint64 limit_bytes, G_GNUC_UNUSED const OctoQdiscArgs *args,
    G_GNUC_UNUSED GError **error)
{
  return octo_qdisc_fifo_alloc (sizeof (OctoQdiscFifo));
}

static gboolean
less_important (const OctoPktqEntry *entry, gpointer user_data)
{
  const Eviction *ev = user_data;
  return entry->packet.tagged && entry->packet.header.priority > ev->priority;
}

static gboolean
evicted (const OctoPktqEntry *entry, gpointer user_data)
{
  const Eviction *ev = user_data;
  octo_qdisc_drop (ev->qdisc, &entry->packet, OCTO_DROP_AQM);
  return TRUE;
}

static gboolean
pdrop_enqueue (OctoQdisc *qdisc, OctoPacket *packet,
    G_GNUC_UNUSED guint8 *payload, G_GNUC_UNUSED gsize *payload_len,
    OctoTime now)
{
  if (!octo_qdisc_fifo_fits (qdisc, packet->size) && packet->tagged &&
      packet->size <= qdisc->limit_bytes) {
    Eviction ev = { qdisc, packet->header.priority };
    octo_pktq_remove_if (&OCTO_QDISC_FIFO (qdisc)->q, less_important, evicted,
        &ev);
  }
  return octo_qdisc_fifo_enqueue_tail_drop (qdisc, packet, now);
}

const OctoQdiscOps octo_qdisc_pdrop_ops = {
  .name = "pdrop",
  .summary = "priority drop: a full buffer evicts queued packets of lower "
      "priority than the arrival",
  .usage = "limit=375KB",
  .keys = keys,
  .create = pdrop_create,
  .destroy = octo_qdisc_fifo_destroy,
  .enqueue = pdrop_enqueue,
  .peek = octo_qdisc_fifo_peek,
  .dequeue = octo_qdisc_fifo_dequeue,
  .queued_bytes = octo_qdisc_fifo_queued_bytes,
  .queued_packets = octo_qdisc_fifo_queued_packets,
};
