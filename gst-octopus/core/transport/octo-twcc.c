/* gst-octopus core: TWCC feedback to flight ACKs (see octo-twcc.h). */
#include "octo-twcc.h"

typedef struct {
  guint64 ext;                  /* extended sequence number */
  guint64 flight_seq;
  OctoTime sent;
  guint32 size;
  gboolean valid;
  gboolean acked;
} Record;

struct _OctoTwcc {
  Record *ring;                 /* OCTO_TWCC_WINDOW slots, by ext */
  gboolean any_sent;
  guint64 newest;               /* newest extended sequence number sent */
  OctoTime last_ack_time;
  /* our clock minus the receiver's at recent feedbacks' newest arrival */
  gint64 offsets[OCTO_TWCC_OFFSET_BATCHES];
  guint n_offsets, next_offset;
  OctoTwccStats stats;
};

/* Extended numbers start one wrap up, so looking back never goes below 0. */
#define EXT_BASE 0x10000u

OctoTwcc *
octo_twcc_new (void)
{
  OctoTwcc *t = g_new0 (OctoTwcc, 1);
  t->ring = g_new0 (Record, OCTO_TWCC_WINDOW);
  return t;
}

void
octo_twcc_free (OctoTwcc *twcc)
{
  if (!twcc)
    return;
  g_free (twcc->ring);
  g_free (twcc);
}

/* The extended number of @seqnum nearest the newest sent one. */
static guint64
extend (const OctoTwcc *t, guint16 seqnum)
{
  guint16 ahead = (guint16) (seqnum - (guint16) t->newest);

  if (ahead < 0x8000u)
    return t->newest + ahead;
  return t->newest - (0x10000u - ahead);
}

void
octo_twcc_on_sent (OctoTwcc *twcc, guint16 seqnum, guint64 flight_seq,
    guint32 payload_size, OctoTime now)
{
  OctoTwcc *t = twcc;
  guint64 ext = t->any_sent ? extend (t, seqnum) : EXT_BASE + seqnum;
  Record *r = &t->ring[ext % OCTO_TWCC_WINDOW];

  *r = (Record) {
    .ext = ext,
    .flight_seq = flight_seq,
    .sent = now,
    .size = payload_size,
    .valid = TRUE,
  };
  if (!t->any_sent || ext > t->newest)
    t->newest = ext;
  t->any_sent = TRUE;
  t->stats.packets_recorded++;
}

/* The record of a reported sequence number; NULL if we sent no such packet
 * (or it is older than the window). */
static Record *
lookup (OctoTwcc *t, guint16 seqnum)
{
  if (!t->any_sent)
    return NULL;
  guint16 ahead = (guint16) (seqnum - (guint16) t->newest);
  if (ahead != 0 && ahead < 0x8000u)
    return NULL;                /* newer than anything sent */
  guint64 ext = extend (t, seqnum);
  Record *r = &t->ring[ext % OCTO_TWCC_WINDOW];
  return r->valid && r->ext == ext ? r : NULL;
}

guint
octo_twcc_on_feedback (OctoTwcc *twcc, const OctoTwccReport *reports,
    guint n, OctoTime now, OctoTwccAck *acks)
{
  OctoTwcc *t = twcc;
  gboolean have_newest = FALSE;
  OctoTime newest_remote = 0;
  guint n_acks = 0;

  /* The newest arrival among the packets this feedback newly acknowledges:
   * its wait sets this feedback's clock offset. */
  for (guint i = 0; i < n; i++) {
    Record *r = lookup (t, reports[i].seqnum);
    if (r && !r->acked && !reports[i].lost &&
        (!have_newest || reports[i].remote_ts > newest_remote)) {
      newest_remote = reports[i].remote_ts;
      have_newest = TRUE;
    }
  }

  gint64 offset = 0;
  if (have_newest) {
    t->offsets[t->next_offset] = (gint64) now - (gint64) newest_remote;
    t->next_offset = (t->next_offset + 1) % OCTO_TWCC_OFFSET_BATCHES;
    t->n_offsets = MIN (t->n_offsets + 1, OCTO_TWCC_OFFSET_BATCHES);
    offset = t->offsets[0];
    for (guint i = 1; i < t->n_offsets; i++)
      offset = MIN (offset, t->offsets[i]);
  }

  for (guint i = 0; i < n; i++) {
    const OctoTwccReport *rep = &reports[i];
    Record *r = lookup (t, rep->seqnum);

    t->stats.reports++;
    if (!r) {
      t->stats.reports_unknown++;
      continue;
    }
    if (rep->size != 0 && rep->size != r->size)
      t->stats.size_mismatches++;
    if (r->acked) {
      t->stats.reports_repeated++;
      continue;
    }
    if (rep->lost) {
      t->stats.reports_lost++;
      continue;
    }
    gint64 mapped = (gint64) rep->remote_ts + offset;
    OctoTime ack_time = mapped > 0 ? (OctoTime) mapped : 0;
    ack_time = MAX (ack_time, r->sent);
    ack_time = MAX (ack_time, t->last_ack_time);
    ack_time = MIN (ack_time, now);
    t->last_ack_time = ack_time;
    r->acked = TRUE;
    t->stats.reports_received++;
    acks[n_acks++] = (OctoTwccAck) {
      .flight_seq = r->flight_seq,
      .ack_time = ack_time,
    };
  }
  return n_acks;
}

const OctoTwccStats *
octo_twcc_get_stats (const OctoTwcc *twcc)
{
  return &twcc->stats;
}
