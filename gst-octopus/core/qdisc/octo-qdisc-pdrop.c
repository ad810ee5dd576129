/* pdrop: priority dropping of messages (paper 000 §7.2).  When an arriving
 * packet of priority p does not fit, every queued message with priority value
 * > p is evicted, but only if that makes room; otherwise the arrival's whole
 * message is dropped (its queued packets too).  Either way the later packets
 * of a message that lost some are discarded on arrival, so the queue never
 * sends the rest of a message it cut.  Untagged packets are never evicted and
 * never evict. */
#include "octo-qdisc-fifo.h"

/* Messages cut before their last packet arrived, remembered so that their
 * later packets are discarded; the oldest is forgotten first.  A queue holds
 * few such messages at once (about one per stream being received). */
#define PDROP_REMEMBERED 64

typedef struct {
  guint64 source;
  guint32 msg_id;
  guint16 stream_id;
  OctoDropReason reason;
} CutMessage;

typedef struct {
  OctoQdiscFifo fifo;
  CutMessage cut[PDROP_REMEMBERED];     /* ring; n_cut valid from cut_head */
  guint cut_head, n_cut;
} Pdrop;

typedef struct {
  Pdrop *self;
  const OctoPacket *arrival;
  OctoDropReason reason;
} Removal;

static const gchar *const keys[] = { NULL };

static OctoQdisc *
pdrop_create (G_GNUC_UNUSED const OctoQdiscEnv *env,
    G_GNUC_UNUSED guint64 limit_bytes, G_GNUC_UNUSED const OctoQdiscArgs *args,
    G_GNUC_UNUSED GError **error)
{
  return octo_qdisc_fifo_alloc (sizeof (Pdrop));
}

static gboolean
same_message (const CutMessage *m, const OctoPacket *p)
{
  return m->source == p->source && m->stream_id == p->header.stream_id &&
      m->msg_id == p->header.msg_id;
}

static CutMessage *
find_cut (Pdrop *self, const OctoPacket *p)
{
  for (guint i = 0; i < self->n_cut; i++) {
    CutMessage *m = &self->cut[(self->cut_head + i) % PDROP_REMEMBERED];
    if (same_message (m, p))
      return m;
  }
  return NULL;
}

/* Records that @p's message lost @p; its tail ends the need to remember. */
static void
note_cut (Pdrop *self, const OctoPacket *p, OctoDropReason reason)
{
  CutMessage *m = find_cut (self, p);

  if (p->header.last) {
    if (m) {
      /* Moves the oldest entry into the freed place. */
      *m = self->cut[self->cut_head];
      self->cut_head = (self->cut_head + 1) % PDROP_REMEMBERED;
      self->n_cut--;
    }
    return;
  }
  if (m)
    return;
  if (self->n_cut == PDROP_REMEMBERED) {
    self->cut_head = (self->cut_head + 1) % PDROP_REMEMBERED;
    self->n_cut--;
  }
  self->cut[(self->cut_head + self->n_cut++) % PDROP_REMEMBERED] =
      (CutMessage) { p->source, p->header.msg_id, p->header.stream_id,
    reason };
}

static void
discard (Pdrop *self, const OctoPacket *p, OctoDropReason reason)
{
  note_cut (self, p, reason);
  octo_qdisc_drop (&self->fifo.parent, p, reason);
}

static gboolean
less_important (const OctoPktqEntry *entry, gpointer user_data)
{
  const Removal *r = user_data;
  return entry->packet.tagged &&
      entry->packet.header.priority > r->arrival->header.priority;
}

static gboolean
of_the_arrivals_message (const OctoPktqEntry *entry, gpointer user_data)
{
  const Removal *r = user_data;
  const OctoPacket *p = &entry->packet, *a = r->arrival;
  return p->tagged && p->source == a->source &&
      p->header.stream_id == a->header.stream_id &&
      p->header.msg_id == a->header.msg_id;
}

/* Whether evicting what @r's arrival may evict leaves room for it. */
static gboolean
eviction_makes_room (OctoQdisc *qdisc, Removal *r)
{
  const OctoPktq *q = &OCTO_QDISC_FIFO (qdisc)->q;
  guint64 bytes = q->bytes + r->arrival->size;
  guint32 packets = q->len;

  for (guint i = 0; i < q->len; i++) {
    const OctoPktqEntry *e = octo_pktq_nth (q, i);
    if (less_important (e, r)) {
      bytes -= e->packet.size;
      packets--;
    }
  }
  return bytes <= qdisc->limit_bytes && packets < qdisc->limit_packets;
}

static gboolean
removed (const OctoPktqEntry *entry, gpointer user_data)
{
  Removal *r = user_data;
  discard (r->self, &entry->packet, r->reason);
  return TRUE;
}

static gboolean
pdrop_enqueue (OctoQdisc *qdisc, OctoPacket *packet,
    G_GNUC_UNUSED guint8 *payload, G_GNUC_UNUSED gsize *payload_len,
    OctoTime now)
{
  Pdrop *self = (Pdrop *) qdisc;
  OctoPktq *q = &self->fifo.q;
  Removal r = { self, packet, OCTO_DROP_AQM };
  CutMessage *cut;

  if (!packet->tagged)
    return octo_qdisc_fifo_enqueue_tail_drop (qdisc, packet, now);
  if (self->n_cut > 0 && (cut = find_cut (self, packet)) != NULL) {
    discard (self, packet, cut->reason);
    return FALSE;
  }
  if (octo_qdisc_fifo_fits (qdisc, packet->size)) {
    octo_pktq_push (q, packet, now);
    return TRUE;
  }
  if (eviction_makes_room (qdisc, &r)) {
    octo_pktq_remove_if (q, less_important, removed, &r);
    octo_pktq_push (q, packet, now);
    return TRUE;
  }
  r.reason = OCTO_DROP_OVERFLOW;
  octo_pktq_remove_if (q, of_the_arrivals_message, removed, &r);
  discard (self, packet, OCTO_DROP_OVERFLOW);
  return FALSE;
}

const OctoQdiscOps octo_qdisc_pdrop_ops = {
  .name = "pdrop",
  .summary = "priority drop: a full buffer evicts queued messages of lower "
      "priority than the arrival, if that makes room",
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
