/* pie: Proportional Integral controller Enhanced, RFC 8033 (§4 and §5 without
 * the optional derandomisation), with the queue delay taken from the
 * timestamp of the packet at the front.  The drop probability is updated
 * every tupdate of the caller's time, lazily on the next call. */
#include "octo-qdisc-fifo.h"

#define PIE_TUPDATE (15 * OCTO_MSECOND)
#define PIE_ALPHA 0.125
#define PIE_BETA 1.25
/* RFC 8033 §4.1: no early drop while at most two mean packets are queued. */
#define PIE_MEAN_PKTSIZE 1500
/* An idle gap longer than this many updates has decayed every state. */
#define PIE_MAX_CATCH_UP 1000

typedef struct {
  OctoQdiscFifo fifo;
  OctoTime qdelay_ref, max_burst;
  gdouble drop_prob;
  OctoTime burst_allowance;
  OctoTime qdelay_old;
  OctoTime next_update;
  guint64 rng;
} Pie;

static const gchar *const keys[] = { "qdelay_ref", "max_burst", "seed", NULL };

static OctoQdisc *
pie_create (const OctoQdiscEnv *env, G_GNUC_UNUSED guint64 limit_bytes,
    const OctoQdiscArgs *args, GError **error)
{
  OctoTime qdelay_ref = 15 * OCTO_MSECOND, max_burst = 150 * OCTO_MSECOND;
  guint64 seed = env->seed;

  if (!octo_qdisc_arg_time (args, "qdelay_ref", &qdelay_ref, error) ||
      !octo_qdisc_arg_time (args, "max_burst", &max_burst, error) ||
      !octo_qdisc_arg_uint (args, "seed", 0, G_MAXUINT64, &seed, error))
    return NULL;
  Pie *self = (Pie *) octo_qdisc_fifo_alloc (sizeof (Pie));
  self->qdelay_ref = qdelay_ref;
  self->max_burst = max_burst;
  self->burst_allowance = max_burst;
  /* xorshift must not start at zero. */
  self->rng = seed ? seed : 0x9e3779b97f4a7c15ull;
  return &self->fifo.parent;
}

/* xorshift64*: deterministic for a given seed, so runs can be replayed. */
static gdouble
pie_random (Pie *self)
{
  self->rng ^= self->rng >> 12;
  self->rng ^= self->rng << 25;
  self->rng ^= self->rng >> 27;
  return (gdouble) ((self->rng * 0x2545f4914f6cdd1dull) >> 11) /
      (gdouble) (1ull << 53);
}

static OctoTime
current_qdelay (Pie *self, OctoTime now)
{
  OctoPktqEntry *front = octo_pktq_front (&self->fifo.q);
  return front && now > front->enqueued ? now - front->enqueued : 0;
}

/* RFC 8033 §4.2 and §4.3, one tupdate step. */
static void
calculate_drop_prob (Pie *self, OctoTime qdelay)
{
  gdouble secs = 1.0 / OCTO_SECOND;
  gdouble p = PIE_ALPHA * ((gdouble) qdelay - (gdouble) self->qdelay_ref) *
      secs + PIE_BETA * ((gdouble) qdelay - (gdouble) self->qdelay_old) * secs;

  if (self->drop_prob < 0.000001)
    p /= 2048;
  else if (self->drop_prob < 0.00001)
    p /= 512;
  else if (self->drop_prob < 0.0001)
    p /= 128;
  else if (self->drop_prob < 0.001)
    p /= 32;
  else if (self->drop_prob < 0.01)
    p /= 8;
  else if (self->drop_prob < 0.1)
    p /= 2;
  if (self->drop_prob >= 0.1 && p > 0.02)
    p = 0.02;
  self->drop_prob += p;
  if (qdelay == 0 && self->qdelay_old == 0)
    self->drop_prob *= 0.98;
  self->drop_prob = CLAMP (self->drop_prob, 0.0, 1.0);

  self->burst_allowance = self->burst_allowance > PIE_TUPDATE ?
      self->burst_allowance - PIE_TUPDATE : 0;
  if (self->drop_prob == 0 && qdelay < self->qdelay_ref / 2 &&
      self->qdelay_old < self->qdelay_ref / 2)
    self->burst_allowance = self->max_burst;
  self->qdelay_old = qdelay;
}

static void
update (Pie *self, OctoTime now)
{
  guint steps = 0;

  if (self->next_update == 0)
    self->next_update = now + PIE_TUPDATE;
  while (now >= self->next_update) {
    if (++steps > PIE_MAX_CATCH_UP) {
      self->next_update = now + PIE_TUPDATE;
      break;
    }
    calculate_drop_prob (self, current_qdelay (self, now));
    self->next_update += PIE_TUPDATE;
  }
}

/* RFC 8033 §4.1 drop_early(). */
static gboolean
drop_early (Pie *self)
{
  if (self->burst_allowance > 0)
    return FALSE;
  if (self->qdelay_old < self->qdelay_ref / 2 && self->drop_prob < 0.2)
    return FALSE;
  if (self->fifo.q.bytes <= 2 * PIE_MEAN_PKTSIZE)
    return FALSE;
  return pie_random (self) < self->drop_prob;
}

static gboolean
pie_enqueue (OctoQdisc *qdisc, OctoPacket *packet,
    G_GNUC_UNUSED guint8 *payload, G_GNUC_UNUSED gsize *payload_len,
    OctoTime now)
{
  Pie *self = (Pie *) qdisc;

  update (self, now);
  if (octo_qdisc_fifo_fits (qdisc, packet->size) && drop_early (self)) {
    octo_qdisc_drop (qdisc, packet, OCTO_DROP_AQM);
    return FALSE;
  }
  return octo_qdisc_fifo_enqueue_tail_drop (qdisc, packet, now);
}

static const OctoPacket *
pie_peek (OctoQdisc *qdisc, OctoTime now)
{
  update ((Pie *) qdisc, now);
  return octo_qdisc_fifo_peek (qdisc, now);
}

const OctoQdiscOps octo_qdisc_pie_ops = {
  .name = "pie",
  .summary = "PIE (RFC 8033): random early drop at enqueue, probability "
      "driven by queue delay vs qdelay_ref",
  .usage = "qdelay_ref=15ms,max_burst=150ms,seed=USER+1",
  .keys = keys,
  .create = pie_create,
  .destroy = octo_qdisc_fifo_destroy,
  .enqueue = pie_enqueue,
  .peek = pie_peek,
  .dequeue = octo_qdisc_fifo_dequeue,
  .queued_bytes = octo_qdisc_fifo_queued_bytes,
  .queued_packets = octo_qdisc_fifo_queued_packets,
};
