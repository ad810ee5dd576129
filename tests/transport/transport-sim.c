/* Deterministic single-connection simulation (see transport-sim.h). */
#include "transport-sim.h"

#include <string.h>

typedef struct {
  OctoTime arrival;
  guint8 bytes[OCTO_ACK_MAX_LEN];
  gsize len;
} AckInFlight;

struct _TransportSim {
  TransportSimConfig config;
  OctoSender *sender;
  OctoReceiver *receiver;
  OctoTrace *trace;
  OctoQdisc *qdisc;
  OctoLink *link;
  GQueue acks;                  /* AckInFlight, arrival order */
  OctoTime now;
  TransportSimAppFunc app;
  gpointer app_data;
  OctoTime app_next;
  void (*sent_func) (gsize len, OctoTime now, gpointer user_data);
  gpointer sent_data;
  guint8 *scratch;
  guint8 *zeros;
};

void
transport_sim_config_init (TransportSimConfig *config)
{
  memset (config, 0, sizeof (*config));
  octo_sender_config_init (&config->sender);
  octo_receiver_config_init (&config->receiver);
  config->link_packets_per_ms = 1;
  config->one_way_delay = 20 * OCTO_MSECOND;
  config->link_buffer_bytes = OCTO_ENGINE_DEFAULT_LIMIT_BYTES;
}

static void
free_link_packet (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  (void) reason;
  (void) user_data;
  g_free (packet->data);
}

TransportSim *
transport_sim_new (const TransportSimConfig *config, OctoMessageFunc on_message,
    gpointer message_data)
{
  TransportSim *sim = g_new0 (TransportSim, 1);
  OctoQdiscEnv env;

  sim->config = *config;
  sim->sender = octo_sender_new (&config->sender, 0);
  sim->receiver = octo_receiver_new (&config->receiver, on_message,
      message_data);
  if (config->link_packets_per_ms > 0) {
    GString *text = g_string_new (NULL);
    for (guint i = 0; i < config->link_packets_per_ms; i++)
      g_string_append (text, "1\n");
    sim->trace = octo_trace_parse (text->str, text->len, "constant", NULL);
    g_string_free (text, TRUE);
  }
  octo_qdisc_env_init (&env);
  env.limit_bytes = config->link_buffer_bytes;
  env.drop_func = free_link_packet;
  sim->qdisc = octo_qdisc_new ("droptail", &env, NULL);
  g_assert (sim->qdisc);
  sim->link = octo_link_new (sim->trace, config->one_way_delay, 0);
  octo_link_add_queue (sim->link, sim->qdisc);
  g_queue_init (&sim->acks);
  sim->app_next = OCTO_TIME_NONE;
  sim->scratch = g_malloc (OCTO_MTU_MAX);
  sim->zeros = g_malloc0 (64 * 1024 * 1024);
  return sim;
}

void
transport_sim_free (TransportSim *sim)
{
  OctoLinkDelivery d;
  OctoPacket p;

  /* A packet in service spans opportunities: finish it, then collect. */
  octo_link_advance (sim->link, sim->now + OCTO_SECOND);
  while (octo_link_pop_delivery (sim->link, G_MAXUINT64 / 2, &d))
    g_free (d.packet.data);
  /* The queue hands back what it still holds only through dequeue. */
  while (octo_qdisc_dequeue (sim->qdisc, G_MAXUINT64 / 2, &p))
    g_free (p.data);
  octo_link_free (sim->link);
  octo_qdisc_free (sim->qdisc);
  octo_trace_free (sim->trace);
  g_queue_clear_full (&sim->acks, g_free);
  octo_sender_free (sim->sender);
  octo_receiver_free (sim->receiver);
  g_free (sim->scratch);
  g_free (sim->zeros);
  g_free (sim);
}

void
transport_sim_set_app (TransportSim *sim, TransportSimAppFunc func,
    gpointer user_data, OctoTime first)
{
  sim->app = func;
  sim->app_data = user_data;
  sim->app_next = first;
}

void
transport_sim_set_sent_func (TransportSim *sim,
    void (*func) (gsize len, OctoTime now, gpointer user_data),
    gpointer user_data)
{
  sim->sent_func = func;
  sim->sent_data = user_data;
}

OctoSender *
transport_sim_sender (TransportSim *sim)
{
  return sim->sender;
}

OctoReceiver *
transport_sim_receiver (TransportSim *sim)
{
  return sim->receiver;
}

void
transport_sim_submit (TransportSim *sim, const OctoHeader *params,
    const OctoMsgInfo *info, gsize len)
{
  gboolean accepted;
  g_assert (len <= 64 * 1024 * 1024);
  octo_sender_submit (sim->sender, params, info, sim->zeros, len, sim->now,
      &accepted);
  g_assert (accepted);
}

/* Runs everything due at sim->now; returns when the next event is. */
static OctoTime
step (TransportSim *sim)
{
  OctoTime now = sim->now, next = OCTO_TIME_NONE, t;
  OctoLinkDelivery d;
  gsize len;

  while (sim->app && sim->app_next <= now)
    sim->app_next = sim->app (sim, now, sim->app_data);

  octo_link_advance (sim->link, now);
  while (octo_link_pop_delivery (sim->link, now, &d)) {
    octo_receiver_on_packet (sim->receiver, d.packet.data,
        d.packet.size - OCTO_LINK_OVERHEAD, now);
    g_free (d.packet.data);
  }
  octo_receiver_on_timer (sim->receiver, now);
  AckInFlight *ack = g_new (AckInFlight, 1);
  ack->len = octo_receiver_poll_ack (sim->receiver, now, ack->bytes);
  if (ack->len > 0) {
    ack->arrival = now + sim->config.one_way_delay;
    g_queue_push_tail (&sim->acks, ack);
  } else {
    g_free (ack);
  }
  while ((ack = g_queue_peek_head (&sim->acks)) && ack->arrival <= now) {
    g_queue_pop_head (&sim->acks);
    octo_sender_on_control (sim->sender, ack->bytes, ack->len, now);
    g_free (ack);
  }

  while ((len = octo_sender_poll (sim->sender, now, sim->scratch, &t)) > 0) {
    OctoPacket p = {
      .data = g_memdup2 (sim->scratch, len),
      .size = len + OCTO_LINK_OVERHEAD,
      .tagged = FALSE,
    };
    if (sim->sent_func)
      sim->sent_func (len, now, sim->sent_data);
    octo_qdisc_enqueue (sim->qdisc, &p, NULL, NULL, now);
  }
  next = MIN (next, t);

  if ((ack = g_queue_peek_head (&sim->acks)))
    next = MIN (next, ack->arrival);
  if (octo_link_next_wakeup (sim->link, &t))
    next = MIN (next, t);
  next = MIN (next, octo_receiver_next_deadline (sim->receiver));
  if (sim->app)
    next = MIN (next, sim->app_next);
  return next;
}

void
transport_sim_run_until (TransportSim *sim, OctoTime end)
{
  while (sim->now < end) {
    OctoTime next = step (sim);
    /* An ACK may have opened the window for something due now. */
    if (next <= sim->now)
      next = sim->now + OCTO_USECOND;
    sim->now = MIN (next, end);
  }
}
