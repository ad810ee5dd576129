/* gst-octopus core: the FIFO storage under the non-engine disciplines:
 * a growable ring of packet descriptors with their arrival times. */
#pragma once

#include "octo-engine.h"

G_BEGIN_DECLS

typedef struct {
  OctoPacket packet;
  OctoTime enqueued;
} OctoPktqEntry;

typedef struct {
  OctoPktqEntry *ring;
  guint capacity;       /* a power of two, or 0 */
  guint head;
  guint len;
  guint64 bytes;
} OctoPktq;

void octo_pktq_init (OctoPktq *q);
void octo_pktq_clear (OctoPktq *q);
void octo_pktq_push (OctoPktq *q, const OctoPacket *packet, OctoTime now);
gboolean octo_pktq_pop (OctoPktq *q, OctoPktqEntry *out);

static inline OctoPktqEntry *
octo_pktq_nth (const OctoPktq *q, guint i)
{
  return &q->ring[(q->head + i) & (q->capacity - 1)];
}

static inline OctoPktqEntry *
octo_pktq_front (const OctoPktq *q)
{
  return q->len ? octo_pktq_nth (q, 0) : NULL;
}

typedef gboolean (*OctoPktqPredicate) (const OctoPktqEntry *entry,
    gpointer user_data);

/* Removes, in order, the entries @match selects, passing each to @removed;
 * the others keep their order. */
void octo_pktq_remove_if (OctoPktq *q, OctoPktqPredicate match,
    OctoPktqPredicate removed, gpointer user_data);

G_END_DECLS
