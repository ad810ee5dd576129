/* gst-octopus core: received-seq ranges and ACK schedule (see octo-acker.h). */
#include "octo-acker.h"

#include <string.h>

void
octo_acker_init (OctoAcker *acker, guint32 ack_every, OctoTime max_delay)
{
  memset (acker, 0, sizeof (*acker));
  acker->ack_every = MAX (ack_every, 1);
  acker->max_delay = max_delay;
}

static void
remove_range (OctoAcker *a, guint i)
{
  memmove (&a->ranges[i], &a->ranges[i + 1],
      (a->n_ranges - i - 1) * sizeof (OctoAckRange));
  a->n_ranges--;
}

/* Inserts [seq, seq] before index @i, forgetting the oldest range if full. */
static void
insert_range (OctoAcker *a, guint i, guint32 seq)
{
  if (a->n_ranges == OCTO_ACK_MAX_RANGES) {
    if (i == OCTO_ACK_MAX_RANGES)
      return;
    a->n_ranges--;
  }
  memmove (&a->ranges[i + 1], &a->ranges[i],
      (a->n_ranges - i) * sizeof (OctoAckRange));
  a->ranges[i].first = a->ranges[i].last = seq;
  a->n_ranges++;
}

static gboolean
record (OctoAcker *a, guint32 seq)
{
  for (guint i = 0; i < a->n_ranges; i++) {
    OctoAckRange *r = &a->ranges[i];

    if (octo_seq_newer (seq, r->last)) {
      if (seq == r->last + 1) {
        r->last = seq;
        /* May now touch the newer neighbour. */
        if (i > 0 && a->ranges[i - 1].first == seq + 1) {
          a->ranges[i - 1].first = r->first;
          remove_range (a, i);
        }
      } else {
        insert_range (a, i, seq);
      }
      return TRUE;
    }
    if (!octo_seq_newer (r->first, seq))
      return FALSE;             /* inside [first, last]: duplicate */
    if (seq + 1 == r->first) {
      r->first = seq;
      if (i + 1 < a->n_ranges && a->ranges[i + 1].last + 1 == seq) {
        r->first = a->ranges[i + 1].first;
        remove_range (a, i + 1);
      }
      return TRUE;
    }
  }
  insert_range (a, a->n_ranges, seq);
  return TRUE;
}

gboolean
octo_acker_on_packet (OctoAcker *acker, guint32 seq, OctoTime now)
{
  gboolean was_largest = acker->n_ranges == 0 ||
      octo_seq_newer (seq, acker->ranges[0].last);

  if (!record (acker, seq)) {
    acker->duplicates++;
    return FALSE;
  }
  if (was_largest)
    acker->largest_arrival = now;
  if (acker->pending++ == 0)
    acker->pending_since = now;
  return TRUE;
}

OctoTime
octo_acker_deadline (const OctoAcker *acker)
{
  if (acker->pending == 0)
    return OCTO_TIME_NONE;
  if (acker->pending >= acker->ack_every)
    return acker->pending_since;
  return acker->pending_since + acker->max_delay;
}

gboolean
octo_acker_build (OctoAcker *acker, OctoTime now, OctoAck *ack)
{
  if (acker->n_ranges == 0)
    return FALSE;
  ack->conn_id = 0;
  ack->path_id = 0;
  ack->flags = OCTO_ACK_FLAG_TIMESTAMPS;
  ack->arrival_us = (guint32) (acker->largest_arrival / OCTO_USECOND);
  ack->n_ranges = acker->n_ranges;
  memcpy (ack->ranges, acker->ranges, acker->n_ranges * sizeof (OctoAckRange));
  ack->ack_delay_us = now > acker->largest_arrival ?
      MIN ((now - acker->largest_arrival) / OCTO_USECOND, G_MAXUINT32) : 0;
  acker->pending = 0;
  return TRUE;
}
