/* The deterministic world of sim-world.h. */
#include "sim-world.h"

#include <string.h>

#define MAX_MESSAGE (64 * 1024 * 1024)
#define CROSS_PACKET 1500       /* link bytes */
#define CROSS_SOURCE 2          /* the stream's packets come from source 1 */

struct _SimWorld {
  SimWorldConfig config;
  OctoSender *sender;
  OctoReceiver *receiver;
  OctoQdisc *down_queue, *up_queue;
  OctoLink *down, *up;
  OctoTime now;
  SimAppFunc app;
  gpointer app_data;
  OctoTime app_next;
  OctoTime cross_next;
  SimPacketFunc sent_func, delivered_func;
  gpointer sent_data, delivered_data;
  SimLinkStats stats;
  guint8 *scratch;
  guint8 *zeros;
};

void
sim_world_config_init (SimWorldConfig *config)
{
  memset (config, 0, sizeof (*config));
  octo_sender_config_init (&config->sender);
  octo_receiver_config_init (&config->receiver);
  config->one_way_delay = 30 * OCTO_MSECOND;
  config->down_queue = "droptail";
  config->link_buffer_bytes = OCTO_ENGINE_DEFAULT_LIMIT_BYTES;
}

OctoTrace *
sim_constant_trace (guint packets_per_ms)
{
  GString *text;
  OctoTrace *trace;

  if (packets_per_ms == 0)
    return NULL;
  text = g_string_new (NULL);
  for (guint i = 0; i < packets_per_ms; i++)
    g_string_append (text, "1\n");
  trace = octo_trace_parse (text->str, text->len, "constant", NULL);
  g_string_free (text, TRUE);
  return trace;
}

static void
free_packet (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  (void) user_data;
  /* a trimmed packet stays queued: only chunks were cut off it */
  if (reason != OCTO_DROP_TRIM)
    g_free (packet->data);
}

static void
count_opportunity (OctoTime time, guint32 bytes, gpointer user_data)
{
  SimWorld *world = user_data;

  (void) time;
  world->stats.capacity_bytes += bytes;
}

SimWorld *
sim_world_new (const SimWorldConfig *config, OctoMessageFunc on_message,
    gpointer message_data, GError **error)
{
  SimWorld *w = g_new0 (SimWorld, 1);
  OctoQdiscEnv env;

  w->config = *config;
  octo_qdisc_env_init (&env);
  env.limit_bytes = config->link_buffer_bytes;
  env.drop_func = free_packet;
  w->down_queue = octo_qdisc_new (config->down_queue, &env, error);
  if (!w->down_queue) {
    g_free (w);
    return NULL;
  }
  w->up_queue = octo_qdisc_new ("droptail", &env, NULL);
  w->sender = octo_sender_new (&config->sender, 0);
  w->receiver = octo_receiver_new (&config->receiver, on_message,
      message_data);
  w->down = octo_link_new (config->down_trace, config->one_way_delay, 0);
  octo_link_add_queue (w->down, w->down_queue);
  octo_link_set_opportunity_func (w->down, count_opportunity, w);
  w->up = octo_link_new (config->up_trace, config->one_way_delay, 0);
  octo_link_add_queue (w->up, w->up_queue);
  w->app_next = OCTO_TIME_NONE;
  w->cross_next = config->cross_bps ? 0 : OCTO_TIME_NONE;
  w->scratch = g_malloc (OCTO_MTU_MAX);
  w->zeros = g_malloc0 (MAX_MESSAGE);
  return w;
}

/* Frees a link and its queue with every packet they still hold. */
static void
free_link (OctoLink *link, OctoQdisc *queue)
{
  OctoPacket p;

  while (octo_link_drain (link, &p))
    g_free (p.data);
  octo_link_free (link);
  while (octo_qdisc_dequeue (queue, G_MAXUINT64 / 2, &p))
    g_free (p.data);
  octo_qdisc_free (queue);
}

void
sim_world_free (SimWorld *w)
{
  if (!w)
    return;
  free_link (w->down, w->down_queue);
  free_link (w->up, w->up_queue);
  octo_sender_free (w->sender);
  octo_receiver_free (w->receiver);
  g_free (w->scratch);
  g_free (w->zeros);
  g_free (w);
}

void
sim_world_set_app (SimWorld *w, SimAppFunc func, gpointer user_data,
    OctoTime first)
{
  w->app = func;
  w->app_data = user_data;
  w->app_next = first;
}

void
sim_world_set_sent_func (SimWorld *w, SimPacketFunc func, gpointer user_data)
{
  w->sent_func = func;
  w->sent_data = user_data;
}

void
sim_world_set_delivered_func (SimWorld *w, SimPacketFunc func,
    gpointer user_data)
{
  w->delivered_func = func;
  w->delivered_data = user_data;
}


OctoSender *
sim_world_sender (SimWorld *w)
{
  return w->sender;
}


OctoQdisc *
sim_world_down_queue (SimWorld *w)
{
  return w->down_queue;
}

const SimLinkStats *
sim_world_link_stats (const SimWorld *w)
{
  return &w->stats;
}

gboolean
sim_world_submit (SimWorld *w, const OctoHeader *params,
    const OctoMsgInfo *info, gsize len)
{
  gboolean accepted = FALSE;

  if (len > MAX_MESSAGE)
    return FALSE;
  octo_sender_submit (w->sender, params, info, w->zeros, len, w->now,
      &accepted);
  return accepted;
}

/* A datagram as the network sees it: link bytes, and the Octopus header if
 * it carries one, so an Octopus queue can apply the rules. */
static void
send_into (OctoQdisc *queue, const guint8 *data, gsize len, OctoTime now)
{
  OctoPacket p = {
    .data = g_memdup2 (data, len),
    .size = len + OCTO_LINK_OVERHEAD,
    .source = 1,
  };

  p.tagged = octo_header_parse (data, len, &p.header) == OCTO_PARSE_OK;
  octo_qdisc_enqueue (queue, &p, NULL, NULL, now);
}

/* Runs everything due at w->now; returns when the next event is. */
static OctoTime
step (SimWorld *w)
{
  OctoTime now = w->now, next = OCTO_TIME_NONE, t = OCTO_TIME_NONE;
  OctoLinkDelivery d;
  gsize len;

  while (w->app && w->app_next <= now)
    w->app_next = w->app (w, now, w->app_data);

  octo_link_advance (w->down, now);
  while (octo_link_pop_delivery (w->down, now, &d)) {
    if (d.packet.source == CROSS_SOURCE) {
      w->stats.cross_delivered_bytes += d.packet.size;
      g_free (d.packet.data);
      continue;
    }
    w->stats.delivered_bytes += d.packet.size;
    if (w->delivered_func)
      w->delivered_func (d.packet.data, d.packet.size - OCTO_LINK_OVERHEAD,
          now, w->delivered_data);
    octo_receiver_on_packet (w->receiver, d.packet.data,
        d.packet.size - OCTO_LINK_OVERHEAD, now);
    g_free (d.packet.data);
  }
  /* cross traffic joins the bottleneck queue at its constant rate, after
   * the opportunities of this instant, like every arrival */
  while (w->cross_next <= now) {
    OctoPacket p = {
      .data = g_malloc0 (1), .size = CROSS_PACKET, .source = CROSS_SOURCE,
    };
    w->stats.cross_sent_bytes += CROSS_PACKET;
    octo_qdisc_enqueue (w->down_queue, &p, NULL, NULL, now);
    w->cross_next += CROSS_PACKET * 8 * OCTO_SECOND / w->config.cross_bps;
  }
  octo_receiver_on_timer (w->receiver, now);
  while ((len = octo_receiver_poll_ack (w->receiver, now, w->scratch)) > 0)
    send_into (w->up_queue, w->scratch, len, now);

  octo_link_advance (w->up, now);
  while (octo_link_pop_delivery (w->up, now, &d)) {
    octo_sender_on_control (w->sender, d.packet.data,
        d.packet.size - OCTO_LINK_OVERHEAD, now);
    g_free (d.packet.data);
  }

  while ((len = octo_sender_poll (w->sender, now, w->scratch, &t)) > 0) {
    w->stats.sent_packets++;
    w->stats.sent_bytes += len + OCTO_LINK_OVERHEAD;
    if (w->sent_func)
      w->sent_func (w->scratch, len, now, w->sent_data);
    send_into (w->down_queue, w->scratch, len, now);
    w->stats.max_queued_bytes = MAX (w->stats.max_queued_bytes,
        octo_qdisc_queued_bytes (w->down_queue));
  }
  next = MIN (next, t);

  if (octo_link_next_wakeup (w->down, &t))
    next = MIN (next, t);
  if (octo_link_next_wakeup (w->up, &t))
    next = MIN (next, t);
  next = MIN (next, octo_receiver_next_deadline (w->receiver));
  next = MIN (next, w->cross_next);
  if (w->app)
    next = MIN (next, w->app_next);
  return next;
}

void
sim_world_run_until (SimWorld *w, OctoTime end)
{
  while (w->now < end) {
    OctoTime next = step (w);
    /* something due now (an ACK opened the window): run again a bit later */
    if (next <= w->now)
      next = w->now + OCTO_USECOND;
    w->now = MIN (next, end);
  }
}
