/* The link model: trace replay, carry-over, DRR among queues, delay line. */
#include "octo-link.h"

typedef struct {
  OctoQdisc *qdisc;
  guint64 deficit;
  gboolean visited;     /* got its quantum this round */
} LinkQueue;

struct _OctoLink {
  const OctoTrace *trace;
  OctoTime delay;
  OctoTime start;

  guint next_index;     /* next opportunity within the trace */
  guint64 loop_base_ms; /* offset of the current loop of the trace */

  GArray *queues;       /* LinkQueue */
  guint current;        /* DRR position */

  gboolean transit_valid;   /* a packet partly served by earlier opportunities */
  OctoLinkDelivery transit;
  guint64 transit_left;

  OctoLinkDelivery *flight; /* delay line: ring, departure order */
  guint flight_capacity, flight_head, flight_len;
  guint64 flight_bytes;
  guint64 flight_limit_bytes;   /* unconstrained links; 0 = none */
  guint32 flight_limit_packets;

  OctoTime now;         /* see octo_link_time() */

  OctoLinkOpportunityFunc opportunity_func;
  gpointer opportunity_data;
};

OctoLink *
octo_link_new (const OctoTrace *trace, OctoTime delay, OctoTime start)
{
  OctoLink *link = g_new0 (OctoLink, 1);
  link->trace = trace;
  link->delay = delay;
  link->start = start;
  link->now = start;
  link->queues = g_array_new (FALSE, TRUE, sizeof (LinkQueue));
  return link;
}

void
octo_link_free (OctoLink *link)
{
  if (link == NULL)
    return;
  g_array_free (link->queues, TRUE);
  g_free (link->flight);
  g_free (link);
}

guint
octo_link_add_queue (OctoLink *link, OctoQdisc *qdisc)
{
  LinkQueue q = { .qdisc = qdisc };
  g_array_append_val (link->queues, q);
  return link->queues->len - 1;
}

void
octo_link_set_opportunity_func (OctoLink *link, OctoLinkOpportunityFunc func,
    gpointer user_data)
{
  link->opportunity_func = func;
  link->opportunity_data = user_data;
}

void
octo_link_set_flight_limit (OctoLink *link, guint64 bytes)
{
  link->flight_limit_bytes = bytes;
  link->flight_limit_packets = bytes ? octo_qdisc_packet_limit (bytes) : 0;
}

OctoTime
octo_link_time (const OctoLink *link)
{
  return link->now;
}

static OctoTime
next_opportunity (const OctoLink *link)
{
  return link->start + (link->loop_base_ms +
      link->trace->ms[link->next_index]) * OCTO_MSECOND;
}

static void
push_flight (OctoLink *link, const OctoLinkDelivery *d)
{
  if (link->flight_len == link->flight_capacity) {
    guint capacity = link->flight_capacity ? link->flight_capacity * 2 : 64;
    OctoLinkDelivery *ring = g_new (OctoLinkDelivery, capacity);
    for (guint i = 0; i < link->flight_len; i++)
      ring[i] = link->flight[(link->flight_head + i) &
          (link->flight_capacity - 1)];
    g_free (link->flight);
    link->flight = ring;
    link->flight_capacity = capacity;
    link->flight_head = 0;
  }
  link->flight[(link->flight_head + link->flight_len) &
      (link->flight_capacity - 1)] = *d;
  link->flight_len++;
  link->flight_bytes += d->packet.size;
}

/* Whether an unconstrained link must hold its queues until propagation
 * hands some packets on. */
static gboolean
flight_full (const OctoLink *link)
{
  return link->trace == NULL && link->flight_limit_bytes > 0 &&
      (link->flight_bytes >= link->flight_limit_bytes ||
      link->flight_len >= link->flight_limit_packets);
}

static gboolean
any_queued (const OctoLink *link)
{
  for (guint i = 0; i < link->queues->len; i++) {
    LinkQueue *q = &g_array_index (link->queues, LinkQueue, i);
    if (octo_qdisc_queued_packets (q->qdisc) > 0)
      return TRUE;
  }
  return FALSE;
}

/* Deficit round robin over bytes: a queue gets a quantum per visit and
 * sends while its head fits the deficit; an empty queue forfeits it. */
static gboolean
drr_dequeue (OctoLink *link, OctoTime now, OctoLinkDelivery *out)
{
  guint n = link->queues->len;
  guint empty_in_a_row = 0;

  if (n == 0 || !any_queued (link))
    return FALSE;
  for (;;) {
    LinkQueue *q = &g_array_index (link->queues, LinkQueue, link->current);
    const OctoPacket *head = octo_qdisc_peek (q->qdisc, now);

    if (head == NULL) {
      q->deficit = 0;
      q->visited = FALSE;
      link->current = (link->current + 1) % n;
      /* Peeking may have dropped the last packets everywhere. */
      if (++empty_in_a_row >= n)
        return FALSE;
      continue;
    }
    empty_in_a_row = 0;
    if (!q->visited) {
      q->deficit += OCTO_LINK_QUANTUM;
      q->visited = TRUE;
    }
    if (head->size <= q->deficit) {
      q->deficit -= head->size;
      octo_qdisc_dequeue (q->qdisc, now, &out->packet);
      out->queue = link->current;
      return TRUE;
    }
    q->visited = FALSE;
    link->current = (link->current + 1) % n;
  }
}

static void
depart (OctoLink *link, OctoLinkDelivery *d, OctoTime now)
{
  d->departure = now;
  d->delivery = now + link->delay;
  push_flight (link, d);
}

/* Mahimahi LinkQueue::use_a_delivery_opportunity(). */
static void
use_opportunity (OctoLink *link, OctoTime now)
{
  guint64 budget = OCTO_LINK_OPPORTUNITY_BYTES;

  if (link->opportunity_func)
    link->opportunity_func (now, OCTO_LINK_OPPORTUNITY_BYTES,
        link->opportunity_data);
  while (budget > 0) {
    if (!link->transit_valid) {
      if (!drr_dequeue (link, now, &link->transit))
        break;
      link->transit_valid = TRUE;
      link->transit_left = link->transit.packet.size;
    }
    guint64 amount = MIN (budget, link->transit_left);
    link->transit_left -= amount;
    budget -= amount;
    if (link->transit_left == 0) {
      link->transit_valid = FALSE;
      depart (link, &link->transit, now);
    }
  }
}

void
octo_link_advance (OctoLink *link, OctoTime now)
{
  if (link->trace == NULL) {
    OctoLinkDelivery d;
    link->now = MAX (link->now, now);
    while (!flight_full (link) && drr_dequeue (link, now, &d))
      depart (link, &d, now);
    return;
  }
  /* An idle, unobserved link skips whole loops of the trace: a shim left
   * alone for hours must not replay every opportunity it missed. */
  if (link->opportunity_func == NULL && !link->transit_valid &&
      !any_queued (link)) {
    OctoTime period = link->trace->period_ms * OCTO_MSECOND;
    if (now >= next_opportunity (link) + period) {
      guint64 loops = (now - next_opportunity (link)) / period;
      link->loop_base_ms += loops * link->trace->period_ms;
    }
  }
  while (next_opportunity (link) <= now) {
    link->now = next_opportunity (link);
    use_opportunity (link, link->now);
    if (++link->next_index == link->trace->n) {
      link->next_index = 0;
      link->loop_base_ms += link->trace->period_ms;
    }
  }
  link->now = MAX (link->now, now);
}

gboolean
octo_link_pop_delivery (OctoLink *link, OctoTime now, OctoLinkDelivery *out)
{
  if (link->flight_len == 0)
    return FALSE;
  OctoLinkDelivery *d = &link->flight[link->flight_head];
  if (d->delivery > now)
    return FALSE;
  *out = *d;
  link->flight_head = (link->flight_head + 1) & (link->flight_capacity - 1);
  link->flight_len--;
  link->flight_bytes -= out->packet.size;
  return TRUE;
}

gboolean
octo_link_next_wakeup (OctoLink *link, OctoTime *time)
{
  gboolean found = FALSE;
  OctoTime t = G_MAXUINT64;

  if (link->flight_len > 0) {
    t = link->flight[link->flight_head].delivery;
    found = TRUE;
  }
  if (link->transit_valid || (any_queued (link) && !flight_full (link))) {
    /* An unconstrained link serves queued packets on the next advance; a
     * full propagation line waits for its head's delivery, above. */
    OctoTime serve = link->trace ? next_opportunity (link) : 0;
    t = MIN (t, serve);
    found = TRUE;
  }
  *time = t;
  return found;
}

guint
octo_link_in_flight (const OctoLink *link)
{
  return link->flight_len;
}

gboolean
octo_link_drain (OctoLink *link, OctoPacket *out)
{
  OctoLinkDelivery d;

  if (link->transit_valid) {
    link->transit_valid = FALSE;
    *out = link->transit.packet;
    return TRUE;
  }
  if (!octo_link_pop_delivery (link, G_MAXUINT64, &d))
    return FALSE;
  *out = d.packet;
  return TRUE;
}
