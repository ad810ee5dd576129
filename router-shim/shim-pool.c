#include "shim-pool.h"

#include <string.h>

typedef struct FreeSlot {
  struct FreeSlot *next;
} FreeSlot;

static FreeSlot *free_slots;
static guint n_free;

ShimPacket *
shim_packet_new_slot (void)
{
  ShimPacket *p;

  if (free_slots) {
    p = (ShimPacket *) free_slots;
    free_slots = free_slots->next;
    n_free--;
  } else {
    p = g_malloc (SHIM_SLOT_BYTES);
  }
  p->pooled = TRUE;
  return p;
}

ShimPacket *
shim_packet_new_copy (const guint8 *head, gsize head_len,
    const guint8 *tail, gsize tail_len)
{
  ShimPacket *p = g_malloc (sizeof (ShimPacket) + head_len + tail_len);

  p->pooled = FALSE;
  memcpy (p->data, head, head_len);
  if (tail_len > 0)
    memcpy (p->data + head_len, tail, tail_len);
  return p;
}

void
shim_packet_free (ShimPacket *p)
{
  if (p->pooled && n_free < SHIM_POOL_MAX) {
    FreeSlot *slot = (FreeSlot *) p;
    slot->next = free_slots;
    free_slots = slot;
    n_free++;
  } else {
    g_free (p);
  }
}

void
shim_pool_clear (void)
{
  while (free_slots) {
    FreeSlot *next = free_slots->next;
    g_free (free_slots);
    free_slots = next;
  }
  n_free = 0;
}
