/* codel: Controlled Delay AQM, RFC 8289 §5 pseudocode, with tail drop when the
 * buffer is full.  The packet CoDel decided to send is held at the front so
 * that peek and dequeue at the same time agree; if it is still there at a
 * later time (the link served another queue first), it is decided again. */
#include "octo-qdisc-fifo.h"

#include <math.h>

/* RFC 8289's maxpacket: below one MTU queued, the queue is not standing. */
#define CODEL_MTU 1500

typedef struct {
  OctoQdiscFifo fifo;
  OctoTime target, interval;
  gboolean held_valid;
  OctoPktqEntry held;
  OctoTime held_at;     /* when CoDel decided to send it */
  OctoTime first_above_time;
  OctoTime drop_next;
  guint32 count, lastcount;
  gboolean dropping;
} Codel;

static const gchar *const keys[] = { "target", "interval", NULL };

static OctoQdisc *
codel_create (G_GNUC_UNUSED const OctoQdiscEnv *env,
    G_GNUC_UNUSED guint64 limit_bytes, const OctoQdiscArgs *args,
    GError **error)
{
  OctoTime target = 5 * OCTO_MSECOND, interval = 100 * OCTO_MSECOND;

  if (!octo_qdisc_arg_time (args, "target", &target, error) ||
      !octo_qdisc_arg_time (args, "interval", &interval, error))
    return NULL;
  if (interval == 0) {
    g_set_error (error, OCTO_QDISC_ERROR, OCTO_QDISC_ERROR_BAD_VALUE,
        "codel: interval must be > 0");
    return NULL;
  }
  Codel *self = (Codel *) octo_qdisc_fifo_alloc (sizeof (Codel));
  self->target = target;
  self->interval = interval;
  return &self->fifo.parent;
}

static OctoTime
control_law (Codel *self, OctoTime t)
{
  return t + (OctoTime) ((gdouble) self->interval / sqrt (self->count));
}

/* RFC 8289 dodequeue() on the held packet (popped into the slot if none);
 * returns ok_to_drop. */
static gboolean
do_dequeue (Codel *self, OctoTime now)
{
  OctoPktq *q = &self->fifo.q;

  if (!self->held_valid)
    self->held_valid = octo_pktq_pop (q, &self->held);
  if (!self->held_valid) {
    self->first_above_time = 0;
    return FALSE;
  }
  OctoTime sojourn = now - self->held.enqueued;
  if (sojourn < self->target || q->bytes <= CODEL_MTU) {
    self->first_above_time = 0;
  } else if (self->first_above_time == 0) {
    self->first_above_time = now + self->interval;
  } else if (now >= self->first_above_time) {
    return TRUE;
  }
  return FALSE;
}

static void
drop_held (Codel *self)
{
  self->held_valid = FALSE;
  octo_qdisc_drop (&self->fifo.parent, &self->held.packet, OCTO_DROP_AQM);
}

static const OctoPacket *
codel_peek (OctoQdisc *qdisc, OctoTime now)
{
  Codel *self = (Codel *) qdisc;

  if (self->held_valid && self->held_at == now)
    return &self->held.packet;

  gboolean ok_to_drop = do_dequeue (self, now);
  self->held_at = now;
  if (!self->held_valid) {
    self->dropping = FALSE;
    return NULL;
  }
  if (self->dropping) {
    if (!ok_to_drop)
      self->dropping = FALSE;
    while (self->dropping && now >= self->drop_next) {
      drop_held (self);
      self->count++;
      ok_to_drop = do_dequeue (self, now);
      if (!ok_to_drop)
        self->dropping = FALSE;
      else
        self->drop_next = control_law (self, self->drop_next);
    }
  } else if (ok_to_drop) {
    drop_held (self);
    do_dequeue (self, now);
    self->dropping = TRUE;
    guint32 delta = self->count - self->lastcount;
    self->count = (delta > 1 && now - self->drop_next < 16 * self->interval) ?
        delta : 1;
    self->drop_next = control_law (self, now);
    self->lastcount = self->count;
  }
  return self->held_valid ? &self->held.packet : NULL;
}

static gboolean
codel_dequeue (OctoQdisc *qdisc, OctoTime now, OctoPacket *out)
{
  Codel *self = (Codel *) qdisc;

  if (codel_peek (qdisc, now) == NULL)
    return FALSE;
  *out = self->held.packet;
  self->held_valid = FALSE;
  return TRUE;
}

static guint64
codel_queued_bytes (OctoQdisc *qdisc)
{
  Codel *self = (Codel *) qdisc;
  return self->fifo.q.bytes + (self->held_valid ? self->held.packet.size : 0);
}

static guint32
codel_queued_packets (OctoQdisc *qdisc)
{
  Codel *self = (Codel *) qdisc;
  return self->fifo.q.len + (self->held_valid ? 1 : 0);
}

static gboolean
codel_enqueue (OctoQdisc *qdisc, OctoPacket *packet,
    G_GNUC_UNUSED guint8 *payload, G_GNUC_UNUSED gsize *payload_len,
    OctoTime now)
{
  if (codel_queued_bytes (qdisc) + packet->size > qdisc->limit_bytes ||
      codel_queued_packets (qdisc) >= qdisc->limit_packets) {
    octo_qdisc_drop (qdisc, packet, OCTO_DROP_OVERFLOW);
    return FALSE;
  }
  octo_pktq_push (&((Codel *) qdisc)->fifo.q, packet, now);
  return TRUE;
}

const OctoQdiscOps octo_qdisc_codel_ops = {
  .name = "codel",
  .summary = "CoDel (RFC 8289): drop at dequeue while the minimum sojourn "
      "stays above target for an interval",
  .usage = "target=5ms,interval=100ms",
  .keys = keys,
  .create = codel_create,
  .destroy = octo_qdisc_fifo_destroy,
  .enqueue = codel_enqueue,
  .peek = codel_peek,
  .dequeue = codel_dequeue,
  .queued_bytes = codel_queued_bytes,
  .queued_packets = codel_queued_packets,
};
