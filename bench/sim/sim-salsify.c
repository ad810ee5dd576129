#include "sim-salsify.h"

#include "transport/octo-packet.h"

/* grace periods remembered by sequence number (a power of two) */
#define GRACE_HISTORY 65536

typedef struct {
  OctoTime due;                 /* reaches the sender */
  gdouble mean_interval_ns;
  guint32 seq;
} Ack;

struct _SimSalsify {
  OctoSalsifyEstimator estimator;       /* at the receiver */
  OctoTime one_way;
  guint32 payload;
  OctoTime grace[GRACE_HISTORY];
  OctoTime last_send;           /* OCTO_TIME_NONE: nothing sent yet */
  gboolean any_sent, any_acked;
  guint32 max_seq_sent, max_seq_acked;
  gdouble mean_interval_ns;     /* as the sender last heard it */
  GQueue acks;                  /* Ack, in flight to the sender */
};

static void
on_sent (const guint8 *data, gsize len, OctoTime now, gpointer user_data)
{
  SimSalsify *s = user_data;
  OctoDataPacket p;

  if (octo_data_parse (data, len, &p, NULL) != OCTO_DATA_OK)
    return;
  /* the first packet of a frame says how long the sender sat idle */
  s->grace[p.seq % GRACE_HISTORY] = p.frag_index == 0
      && s->last_send != OCTO_TIME_NONE ? now - s->last_send : 0;
  s->last_send = now;
  if (!s->any_sent || (gint32) (p.seq - s->max_seq_sent) > 0)
    s->max_seq_sent = p.seq;
  s->any_sent = TRUE;
}

static void
on_delivered (const guint8 *data, gsize len, OctoTime now,
    gpointer user_data)
{
  SimSalsify *s = user_data;
  OctoDataPacket p;
  Ack *ack;

  if (octo_data_parse (data, len, &p, NULL) != OCTO_DATA_OK)
    return;
  octo_salsify_estimator_on_arrival (&s->estimator, now,
      s->grace[p.seq % GRACE_HISTORY]);
  ack = g_new (Ack, 1);
  *ack = (Ack) { now + s->one_way, s->estimator.mean_interval_ns, p.seq };
  g_queue_push_tail (&s->acks, ack);
}

SimSalsify *
sim_salsify_new (SimWorld *world, guint flow, OctoTime one_way_delay,
    guint32 payload)
{
  SimSalsify *s = g_new0 (SimSalsify, 1);

  octo_salsify_estimator_init (&s->estimator);
  s->one_way = one_way_delay;
  s->payload = payload;
  s->last_send = OCTO_TIME_NONE;
  g_queue_init (&s->acks);
  sim_world_set_flow_sent_func (world, flow, on_sent, s);
  sim_world_set_flow_delivered_func (world, flow, on_delivered, s);
  return s;
}

void
sim_salsify_free (SimSalsify *s)
{
  if (!s)
    return;
  g_queue_clear_full (&s->acks, g_free);
  g_free (s);
}

guint64
sim_salsify_budget (SimSalsify *s, OctoTime now, gboolean *idle)
{
  Ack *ack;
  guint32 in_flight = 0;

  while ((ack = g_queue_peek_head (&s->acks)) && ack->due <= now) {
    g_queue_pop_head (&s->acks);
    s->mean_interval_ns = ack->mean_interval_ns;
    if (!s->any_acked || (gint32) (ack->seq - s->max_seq_acked) > 0)
      s->max_seq_acked = ack->seq;
    s->any_acked = TRUE;
    g_free (ack);
  }
  if (s->any_sent)
    in_flight = s->any_acked ? s->max_seq_sent - s->max_seq_acked :
        s->max_seq_sent + 1;
  *idle = in_flight == 0;
  return octo_salsify_budget (s->mean_interval_ns, in_flight, s->payload);
}
