/* quco: QUCO trimming AQM (paper 004, Algorithm 1).  An arriving chunked
 * Octopus packet loses its least important chunk when the buffer is at least
 * light % full, two at medium %, and every chunk (the headers stay) at
 * high %; the trailer records how many were trimmed.  Then tail drop. */
#include "octo-qdisc-fifo.h"
#include "octo-chunks.h"

typedef struct {
  OctoQdiscFifo fifo;
  guint64 light, medium, high;  /* percent of the buffer */
} Quco;

static const gchar *const keys[] = { "light", "medium", "high", NULL };

static OctoQdisc *
quco_create (G_GNUC_UNUSED const OctoQdiscEnv *env,
    G_GNUC_UNUSED guint64 limit_bytes, const OctoQdiscArgs *args,
    GError **error)
{
  guint64 light = 50, medium = 75, high = 90;

  if (!octo_qdisc_arg_uint (args, "light", 0, 100, &light, error) ||
      !octo_qdisc_arg_uint (args, "medium", 0, 100, &medium, error) ||
      !octo_qdisc_arg_uint (args, "high", 0, 100, &high, error))
    return NULL;
  if (!(light <= medium && medium <= high)) {
    g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_BAD_VALUE,
        "quco: thresholds must satisfy light <= medium <= high");
    return NULL;
  }
  Quco *self = (Quco *) octo_qdisc_fifo_alloc (sizeof (Quco));
  self->light = light;
  self->medium = medium;
  self->high = high;
  return &self->fifo.parent;
}

/* Chunks to cut at the current occupancy (Algorithm 1). */
static guint
chunks_to_trim (Quco *self, guint64 limit)
{
  guint64 percent_x_limit = self->fifo.q.bytes * 100;

  if (percent_x_limit >= self->high * limit)
    return OCTO_CHUNKS_MAX;
  if (percent_x_limit >= self->medium * limit)
    return 2;
  if (percent_x_limit >= self->light * limit)
    return 1;
  return 0;
}

/* Cuts chunks off the arriving packet, which is still queued and sent. */
static void
trim (Quco *self, OctoPacket *packet, guint8 *payload, gsize *payload_len,
    guint count)
{
  OctoChunks chunks;
  guint cut_chunks;

  if (!octo_chunks_parse (payload, *payload_len, &chunks))
    return;
  gsize len = octo_chunks_trim (payload, *payload_len, &chunks, count,
      &cut_chunks);
  if (cut_chunks == 0)
    return;

  OctoPacket cut = *packet;
  cut.size = (guint32) (*payload_len - len);
  packet->size -= cut.size;
  *payload_len = len;
  octo_qdisc_trimmed (&self->fifo.parent, &cut, cut_chunks);
}

static gboolean
quco_enqueue (OctoQdisc *qdisc, OctoPacket *packet, guint8 *payload,
    gsize *payload_len, OctoTime now)
{
  Quco *self = (Quco *) qdisc;
  guint count = chunks_to_trim (self, qdisc->limit_bytes);

  if (count > 0 && packet->tagged && payload != NULL)
    trim (self, packet, payload, payload_len, count);
  return octo_qdisc_fifo_enqueue_tail_drop (qdisc, packet, now);
}

const OctoQdiscOps octo_qdisc_quco_ops = {
  .name = "quco",
  .summary = "QUCO: trim the least important chunks of chunked Octopus "
      "packets as occupancy passes light/medium/high %",
  .usage = "light=50,medium=75,high=90",
  .keys = keys,
  .create = quco_create,
  .destroy = octo_qdisc_fifo_destroy,
  .enqueue = quco_enqueue,
  .peek = octo_qdisc_fifo_peek,
  .dequeue = octo_qdisc_fifo_dequeue,
  .queued_bytes = octo_qdisc_fifo_queued_bytes,
  .queued_packets = octo_qdisc_fifo_queued_packets,
};
