/* quco: QUCO trimming AQM (paper 004, Algorithm 1).  An arriving chunked
 * Octopus packet loses its least important chunk when the buffer is at least
 * light % full, two at medium %, and every chunk (the headers stay) at
 * high %; the trailer records how many were trimmed.  Then tail drop.
 *
 * classes=2 adds the paper's fairness mechanism (§III-D: a trimmed packet
 * moves to a higher class): trimmed packets wait in a class of their own,
 * served before the untrimmed ones of this queue (one user's).  Both
 * classes share the buffer. */
#include "octo-qdisc-fifo.h"
#include "octo-chunks.h"

typedef struct {
  OctoQdiscFifo fifo;           /* untrimmed packets (every packet: 1 class) */
  OctoPktq trimmed;             /* classes=2: trimmed packets, served first */
  gboolean two_classes;
  /* the thresholds in bytes: occupancy >= light % of the buffer is
   * occupancy >= ceil (light * limit / 100) */
  guint64 light, medium, high;
} Quco;

static const gchar *const keys[] = { "light", "medium", "high", "classes",
  NULL
};

static OctoQdisc *
quco_create (G_GNUC_UNUSED const OctoQdiscEnv *env, guint64 limit_bytes,
    const OctoQdiscArgs *args,
    GError **error)
{
  guint64 light = 50, medium = 75, high = 90, classes = 1;

  if (!octo_qdisc_arg_uint (args, "light", 0, 100, &light, error) ||
      !octo_qdisc_arg_uint (args, "medium", 0, 100, &medium, error) ||
      !octo_qdisc_arg_uint (args, "high", 0, 100, &high, error) ||
      !octo_qdisc_arg_uint (args, "classes", 1, 2, &classes, error))
    return NULL;
  if (!(light <= medium && medium <= high)) {
    g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_BAD_VALUE,
        "quco: thresholds must satisfy light <= medium <= high");
    return NULL;
  }
  Quco *self = (Quco *) octo_qdisc_fifo_alloc (sizeof (Quco));
  self->light = (light * limit_bytes + 99) / 100;
  self->medium = (medium * limit_bytes + 99) / 100;
  self->high = (high * limit_bytes + 99) / 100;
  self->two_classes = classes == 2;
  octo_pktq_init (&self->trimmed);
  return &self->fifo.parent;
}

static void
quco_destroy (OctoQdisc *qdisc)
{
  octo_pktq_clear (&((Quco *) qdisc)->trimmed);
  octo_qdisc_fifo_destroy (qdisc);
}

/* Chunks to cut at the current occupancy (Algorithm 1). */
static guint
chunks_to_trim (const Quco *self)
{
  guint64 occupancy = self->fifo.q.bytes + self->trimmed.bytes;

  if (occupancy >= self->high)
    return OCTO_CHUNKS_MAX;
  if (occupancy >= self->medium)
    return 2;
  if (occupancy >= self->light)
    return 1;
  return 0;
}

/* Cuts chunks off the arriving packet, which is still queued and sent;
 * TRUE if it cut any. */
static gboolean
trim (Quco *self, OctoPacket *packet, guint8 *payload, gsize *payload_len,
    guint count)
{
  gsize before = *payload_len;
  guint cut_chunks;

  if (!octo_chunks_trim (payload, payload_len, count, &cut_chunks)
      || cut_chunks == 0)
    return FALSE;

  /* the drop callback sees the packet as the bytes cut off it */
  guint32 cut = (guint32) (before - *payload_len);
  guint32 kept = packet->size - cut;
  packet->size = cut;
  octo_qdisc_trimmed (&self->fifo.parent, packet, cut_chunks);
  packet->size = kept;
  return TRUE;
}

static gboolean
quco_enqueue (OctoQdisc *qdisc, OctoPacket *packet, guint8 *payload,
    gsize *payload_len, OctoTime now)
{
  Quco *self = (Quco *) qdisc;
  guint count = chunks_to_trim (self);
  gboolean trimmed = FALSE;

  if (count > 0 && packet->tagged && payload != NULL)
    trimmed = trim (self, packet, payload, payload_len, count);
  if (!self->two_classes)
    return octo_qdisc_fifo_enqueue_tail_drop (qdisc, packet, now);
  if (self->fifo.q.bytes + self->trimmed.bytes + packet->size >
      qdisc->limit_bytes ||
      self->fifo.q.len + self->trimmed.len >= qdisc->limit_packets) {
    octo_qdisc_drop (qdisc, packet, OCTO_DROP_OVERFLOW);
    return FALSE;
  }
  octo_pktq_push (trimmed ? &self->trimmed : &self->fifo.q, packet, now);
  return TRUE;
}

static const OctoPacket *
quco_peek (OctoQdisc *qdisc, OctoTime now)
{
  OctoPktqEntry *e = octo_pktq_front (&((Quco *) qdisc)->trimmed);

  return e ? &e->packet : octo_qdisc_fifo_peek (qdisc, now);
}

static gboolean
quco_dequeue (OctoQdisc *qdisc, OctoTime now, OctoPacket *out)
{
  Quco *self = (Quco *) qdisc;
  OctoPktqEntry e;

  if (!octo_pktq_pop (&self->trimmed, &e))
    return octo_qdisc_fifo_dequeue (qdisc, now, out);
  *out = e.packet;
  return TRUE;
}

static guint64
quco_queued_bytes (OctoQdisc *qdisc)
{
  return ((Quco *) qdisc)->trimmed.bytes + octo_qdisc_fifo_queued_bytes (qdisc);
}

static guint32
quco_queued_packets (OctoQdisc *qdisc)
{
  return ((Quco *) qdisc)->trimmed.len +
      octo_qdisc_fifo_queued_packets (qdisc);
}

const OctoQdiscOps octo_qdisc_quco_ops = {
  .name = "quco",
  .summary = "QUCO: trim the least important chunks of chunked Octopus "
      "packets as occupancy passes light/medium/high %",
  .usage = "light=50,medium=75,high=90,classes=1",
  .keys = keys,
  .create = quco_create,
  .destroy = quco_destroy,
  .enqueue = quco_enqueue,
  .peek = quco_peek,
  .dequeue = quco_dequeue,
  .queued_bytes = quco_queued_bytes,
  .queued_packets = quco_queued_packets,
};
