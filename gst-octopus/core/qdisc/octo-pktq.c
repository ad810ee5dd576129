#include "octo-pktq.h"

void
octo_pktq_init (OctoPktq *q)
{
  *q = (OctoPktq) { 0 };
}

void
octo_pktq_clear (OctoPktq *q)
{
  g_free (q->ring);
  octo_pktq_init (q);
}

static void
grow (OctoPktq *q)
{
  guint capacity = q->capacity ? q->capacity * 2 : 64;
  OctoPktqEntry *ring = g_new (OctoPktqEntry, capacity);

  for (guint i = 0; i < q->len; i++)
    ring[i] = *octo_pktq_nth (q, i);
  g_free (q->ring);
  q->ring = ring;
  q->capacity = capacity;
  q->head = 0;
}

void
octo_pktq_push (OctoPktq *q, const OctoPacket *packet, OctoTime now)
{
  if (q->len == q->capacity)
    grow (q);
  OctoPktqEntry *e = &q->ring[(q->head + q->len) & (q->capacity - 1)];
  e->packet = *packet;
  e->enqueued = now;
  q->len++;
  q->bytes += packet->size;
}

gboolean
octo_pktq_pop (OctoPktq *q, OctoPktqEntry *out)
{
  if (q->len == 0)
    return FALSE;
  *out = q->ring[q->head];
  q->head = (q->head + 1) & (q->capacity - 1);
  q->len--;
  q->bytes -= out->packet.size;
  return TRUE;
}

void
octo_pktq_remove_if (OctoPktq *q, OctoPktqPredicate match,
    OctoPktqPredicate removed, gpointer user_data)
{
  guint kept = 0;
  guint len = q->len;

  for (guint i = 0; i < len; i++) {
    OctoPktqEntry e = *octo_pktq_nth (q, i);
    if (match (&e, user_data)) {
      q->len--;
      q->bytes -= e.packet.size;
      removed (&e, user_data);
    } else {
      *octo_pktq_nth (q, kept++) = e;
    }
  }
}
