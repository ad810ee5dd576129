/* The deterministic world of sim-world.h. */
#include "sim-world.h"

#include <string.h>

#define MAX_MESSAGE (64 * 1024 * 1024)
#define CROSS_PACKET 1500       /* link bytes */
#define CROSS_SOURCE 0xffff     /* flow i's packets come from source i + 1 */
#define TCP_HEADER 40           /* IPv4 + TCP: link bytes = segment + this */
#define TCP_ACK_BYTES 64        /* with SACK blocks */
/* a backlogged flow keeps this much waiting in its sender */
#define BACKLOG_BYTES (64 * 1024)

/* What a TCP packet carries through the simulated network. */
typedef struct {
  gboolean is_ack;
  OctoTcpSegment seg;
  OctoTcpAck ack;
} TcpWire;

/* A message written to a TCP stream, complete once the stream's in-order
 * end passes @end. */
typedef struct {
  guint64 end;
  gsize len;
  OctoMsgInfo info;
  OctoTime submitted;
} TcpMessage;

typedef struct {
  SimFlowConfig config;
  OctoSender *sender;
  OctoReceiver *receiver;
  OctoTcpSender *tcp;
  OctoTcpReceiver *tcp_rx;
  guint64 tcp_written;
  GQueue tcp_messages;          /* TcpMessage, in stream order */
  OctoMessageFunc message_func;
  gpointer message_data;
  SimPacketFunc sent_func, delivered_func;
  gpointer sent_data, delivered_data;
  SimFlowStats stats;
  /* msg_id -> link bytes delivered of that message so far */
  GHashTable *partial_message_bytes;
  SimWorld *world;
  guint index;
} Flow;

struct _SimWorld {
  SimWorldConfig config;
  Flow flows[SIM_MAX_FLOWS];
  guint n_flows;
  OctoQdisc *down_queue, *up_queue, *legacy_queue;
  OctoLink *down, *up, *legacy;
  OctoTime now;
  SimAppFunc app;
  gpointer app_data;
  OctoTime app_next;
  OctoTime cross_next;
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
  config->transport = SIM_TRANSPORT_OCTO;
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

static void
flow_init (SimWorld *w, guint i, const SimFlowConfig *config)
{
  Flow *f = &w->flows[i];

  f->config = *config;
  f->world = w;
  f->index = i;
  g_queue_init (&f->tcp_messages);
  f->partial_message_bytes = g_hash_table_new (NULL, NULL);
  if (config->transport == SIM_TRANSPORT_TCP) {
    f->tcp = octo_tcp_sender_new ();
    f->tcp_rx = octo_tcp_receiver_new ();
  } else {
    /* Ids from the seed, not the system: runs repeat. */
    OctoSenderConfig sender = config->sender;
    octo_sender_config_ids_from_seed (&sender, sender.seed);
    f->sender = octo_sender_new (&sender, 0);
  }
}

static void
on_octo_message (OctoMessage *msg, gpointer user_data)
{
  Flow *f = user_data;
  gpointer key = GUINT_TO_POINTER (msg->header.msg_id);

  f->stats.whole_message_bytes += GPOINTER_TO_SIZE (g_hash_table_lookup
      (f->partial_message_bytes, key));
  g_hash_table_remove (f->partial_message_bytes, key);

  if (f->message_func)
    f->message_func (msg, f->message_data);
  else
    g_free (msg->data);
}

SimWorld *
sim_world_new (const SimWorldConfig *config, OctoMessageFunc on_message,
    gpointer message_data, GError **error)
{
  SimWorld *w = g_new0 (SimWorld, 1);
  SimFlowConfig first = { config->transport, config->sender, FALSE };
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
  w->n_flows = 1 + MIN (config->n_more_flows, SIM_MAX_FLOWS - 1);
  flow_init (w, 0, &first);
  w->flows[0].message_func = on_message;
  w->flows[0].message_data = message_data;
  for (guint i = 1; i < w->n_flows; i++)
    flow_init (w, i, &config->more_flows[i - 1]);
  for (guint i = 0; i < w->n_flows; i++)
    if (w->flows[i].sender)
      w->flows[i].receiver = octo_receiver_new (&config->receiver,
          on_octo_message, &w->flows[i]);
  w->down = octo_link_new (config->down_trace, config->one_way_delay, 0);
  octo_link_add_queue (w->down, w->down_queue);
  octo_link_set_opportunity_func (w->down, count_opportunity, w);
  if (config->legacy_trace) {
    w->legacy_queue = octo_qdisc_new ("droptail", &env, NULL);
    w->legacy = octo_link_new (config->legacy_trace, 0, 0);
    octo_link_add_queue (w->legacy, w->legacy_queue);
  }
  w->up = octo_link_new (config->up_trace, config->one_way_delay, 0);
  octo_link_add_queue (w->up, w->up_queue);
  w->app_next = OCTO_TIME_NONE;
  w->cross_next = config->cross_bps ? 0 : OCTO_TIME_NONE;
  w->scratch = g_malloc (MAX (OCTO_MTU_MAX, sizeof (TcpWire)));
  w->zeros = g_malloc0 (MAX_MESSAGE);
  return w;
}

/* Frees a link and its queue with every packet they still hold. */
static void
free_link (OctoLink *link, OctoQdisc *queue)
{
  OctoPacket p;

  if (!link)
    return;
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
  free_link (w->legacy, w->legacy_queue);
  free_link (w->down, w->down_queue);
  free_link (w->up, w->up_queue);
  for (guint i = 0; i < w->n_flows; i++) {
    Flow *f = &w->flows[i];
    octo_sender_free (f->sender);
    octo_receiver_free (f->receiver);
    octo_tcp_sender_free (f->tcp);
    octo_tcp_receiver_free (f->tcp_rx);
    g_queue_clear_full (&f->tcp_messages, g_free);
    g_hash_table_destroy (f->partial_message_bytes);
  }
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
sim_world_set_flow_sent_func (SimWorld *w, guint flow, SimPacketFunc func,
    gpointer user_data)
{
  g_return_if_fail (flow < w->n_flows);
  w->flows[flow].sent_func = func;
  w->flows[flow].sent_data = user_data;
}

void
sim_world_set_flow_delivered_func (SimWorld *w, guint flow,
    SimPacketFunc func, gpointer user_data)
{
  g_return_if_fail (flow < w->n_flows);
  w->flows[flow].delivered_func = func;
  w->flows[flow].delivered_data = user_data;
}

void
sim_world_set_sent_func (SimWorld *w, SimPacketFunc func, gpointer user_data)
{
  sim_world_set_flow_sent_func (w, 0, func, user_data);
}

void
sim_world_set_delivered_func (SimWorld *w, SimPacketFunc func,
    gpointer user_data)
{
  sim_world_set_flow_delivered_func (w, 0, func, user_data);
}

void
sim_send_meter_sent (const guint8 *data, gsize len, OctoTime now,
    gpointer meter)
{
  SimSendMeter *m = meter;

  (void) data;
  if (m->first == OCTO_TIME_NONE)
    m->first = now;
  else
    m->bytes += len + OCTO_LINK_OVERHEAD;
  m->last = now;
}

gdouble
sim_send_meter_rate (const SimSendMeter *m)
{
  if (m->first == OCTO_TIME_NONE || m->last <= m->first)
    return 0;
  return m->bytes * 8.0 * OCTO_SECOND / (m->last - m->first);
}

void
sim_world_set_flow_message_func (SimWorld *w, guint flow,
    OctoMessageFunc func, gpointer user_data)
{
  g_return_if_fail (flow < w->n_flows);
  w->flows[flow].message_func = func;
  w->flows[flow].message_data = user_data;
}

OctoSender *
sim_world_sender (SimWorld *w)
{
  return w->flows[0].sender;
}

OctoSender *
sim_world_flow_sender (SimWorld *w, guint flow)
{
  return flow < w->n_flows ? w->flows[flow].sender : NULL;
}

OctoTcpSender *
sim_world_flow_tcp (SimWorld *w, guint flow)
{
  return flow < w->n_flows ? w->flows[flow].tcp : NULL;
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

const SimFlowStats *
sim_world_flow_stats (const SimWorld *w, guint flow)
{
  g_return_val_if_fail (flow < w->n_flows, NULL);
  return &w->flows[flow].stats;
}

gboolean
sim_world_submit_flow (SimWorld *w, guint flow, const OctoHeader *params,
    const OctoMsgInfo *info, gsize len)
{
  gboolean accepted = FALSE;
  Flow *f;

  if (len > MAX_MESSAGE || flow >= w->n_flows)
    return FALSE;
  f = &w->flows[flow];
  if (f->tcp) {
    TcpMessage *m = g_new (TcpMessage, 1);
    f->tcp_written += len;
    *m = (TcpMessage) { f->tcp_written, len, *info, w->now };
    g_queue_push_tail (&f->tcp_messages, m);
    octo_tcp_sender_write (f->tcp, len);
    return TRUE;
  }
  octo_sender_submit (f->sender, params, info, w->zeros, len, w->now,
      &accepted);
  return accepted;
}

gboolean
sim_world_submit (SimWorld *w, const OctoHeader *params,
    const OctoMsgInfo *info, gsize len)
{
  return sim_world_submit_flow (w, 0, params, info, len);
}

/* A datagram as the network sees it: link bytes, and the Octopus header if
 * it carries one, so an Octopus queue can apply the rules. */
static void
send_into (OctoQdisc *queue, const guint8 *data, gsize len, guint64 source,
    OctoTime now)
{
  OctoPacket p = {
    .data = g_memdup2 (data, len),
    .size = len + OCTO_LINK_OVERHEAD,
    .source = source,
  };

  p.tagged = octo_header_parse (data, len, &p.header) == OCTO_PARSE_OK;
  octo_qdisc_enqueue (queue, &p, NULL, NULL, now);
}

static void
send_tcp (OctoQdisc *queue, const TcpWire *wire, guint32 link_bytes,
    guint64 source, OctoTime now)
{
  OctoPacket p = {
    .data = g_memdup2 (wire, sizeof (*wire)),
    .size = link_bytes,
    .source = source,
  };

  octo_qdisc_enqueue (queue, &p, NULL, NULL, now);
}

/* The first hop every data packet enters. */
static OctoQdisc *
entry_queue (SimWorld *w)
{
  return w->legacy ? w->legacy_queue : w->down_queue;
}

static void
tcp_data_arrived (SimWorld *w, Flow *f, const TcpWire *wire, OctoTime now)
{
  TcpWire ack = { .is_ack = TRUE };
  guint64 in_order = octo_tcp_receiver_on_segment (f->tcp_rx, wire->seg.seq,
      wire->seg.len, &ack.ack);
  TcpMessage *m;

  while ((m = g_queue_peek_head (&f->tcp_messages)) && m->end <= in_order) {
    OctoMessage msg = {
      .info = m->info, .len = m->len, .first_arrival = now,
      .complete_time = now,
    };
    g_queue_pop_head (&f->tcp_messages);
    if (f->message_func)
      f->message_func (&msg, f->message_data);
    g_free (m);
  }
  send_tcp (w->up_queue, &ack, TCP_ACK_BYTES, f->index + 1, now);
}

/* Counts a data packet's link bytes: as padding, or towards its message,
 * which adds them to the whole messages' bytes if it completes. */
static void
count_delivered_data (Flow *f, const OctoPacket *p)
{
  OctoDataPacket pkt;
  gpointer key;

  if (octo_data_parse (p->data, p->size - OCTO_LINK_OVERHEAD, &pkt,
          NULL) != OCTO_DATA_OK)
    return;
  if (pkt.frag_index == 0 && (pkt.info.flags & OCTO_MSG_FLAG_PADDING)) {
    f->stats.padding_delivered_bytes += p->size;
    return;
  }
  key = GUINT_TO_POINTER (pkt.header.msg_id);
  g_hash_table_insert (f->partial_message_bytes, key,
      GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup
              (f->partial_message_bytes, key)) + p->size));
}

static void
deliver_down (SimWorld *w, const OctoPacket *p, OctoTime now)
{
  Flow *f;

  if (p->source == CROSS_SOURCE) {
    w->stats.cross_delivered_bytes += p->size;
    return;
  }
  f = &w->flows[p->source - 1];
  f->stats.delivered_bytes += p->size;
  if (f->index == 0)
    w->stats.delivered_bytes += p->size;
  if (f->tcp) {
    f->stats.whole_message_bytes += p->size;
    if (f->delivered_func)
      f->delivered_func (p->data, sizeof (TcpWire), now, f->delivered_data);
    tcp_data_arrived (w, f, p->data, now);
    return;
  }
  if (f->delivered_func)
    f->delivered_func (p->data, p->size - OCTO_LINK_OVERHEAD, now,
        f->delivered_data);
  count_delivered_data (f, p);
  octo_receiver_on_packet (f->receiver, p->data,
      p->size - OCTO_LINK_OVERHEAD, now);
}

static void
count_sent (SimWorld *w, Flow *f, const guint8 *data, gsize len,
    guint32 link_bytes, OctoTime now)
{
  f->stats.sent_bytes += link_bytes;
  if (f->index == 0) {
    w->stats.sent_packets++;
    w->stats.sent_bytes += link_bytes;
  }
  if (f->sent_func)
    f->sent_func (data, len, now, f->sent_data);
}

/* Lets flow @f transmit what it may at @now; returns when to poll again. */
static OctoTime
poll_flow (SimWorld *w, Flow *f, OctoTime now)
{
  OctoTime t = OCTO_TIME_NONE;
  gsize len;

  if (f->tcp) {
    TcpWire wire = { .is_ack = FALSE };
    OctoTcpStats st;
    if (f->config.backlogged) {
      octo_tcp_sender_get_stats (f->tcp, &st);
      if (st.unsent_bytes < BACKLOG_BYTES)
        octo_tcp_sender_write (f->tcp, BACKLOG_BYTES);
    }
    while (octo_tcp_sender_poll (f->tcp, now, &wire.seg, &t)) {
      guint32 link_bytes = wire.seg.len + TCP_HEADER;
      count_sent (w, f, (const guint8 *) &wire, sizeof (wire), link_bytes,
          now);
      send_tcp (entry_queue (w), &wire, link_bytes, f->index + 1, now);
    }
    return t;
  }
  if (f->config.backlogged) {
    OctoHeader params = { 0 };
    OctoMsgInfo info;
    gboolean accepted;
    octo_msg_info_init (&info);
    while (octo_sender_queued_packets (f->sender) * f->config.sender.mtu
        < BACKLOG_BYTES)
      octo_sender_submit (f->sender, &params, &info, w->zeros,
          BACKLOG_BYTES / 4, now, &accepted);
  }
  while ((len = octo_sender_poll (f->sender, now, w->scratch, &t)) > 0) {
    count_sent (w, f, w->scratch, len, len + OCTO_LINK_OVERHEAD, now);
    send_into (entry_queue (w), w->scratch, len, f->index + 1, now);
  }
  return t;
}

static void
deliver_up (SimWorld *w, const OctoPacket *p, OctoTime now)
{
  Flow *f = &w->flows[p->source - 1];

  if (f->tcp)
    octo_tcp_sender_on_ack (f->tcp, &((const TcpWire *) p->data)->ack, now);
  else
    octo_sender_on_control (f->sender, p->data,
        p->size - OCTO_LINK_OVERHEAD, now);
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

  if (w->legacy) {
    octo_link_advance (w->legacy, now);
    while (octo_link_pop_delivery (w->legacy, now, &d))
      octo_qdisc_enqueue (w->down_queue, &d.packet, NULL, NULL, now);
  }
  octo_link_advance (w->down, now);
  while (octo_link_pop_delivery (w->down, now, &d)) {
    deliver_down (w, &d.packet, now);
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
  /* The uplink uses its opportunities up to now before the ACKs of now
   * queue: opportunities that passed while the world slept must not
   * serve them. */
  octo_link_advance (w->up, now);
  for (guint i = 0; i < w->n_flows; i++) {
    OctoReceiver *rx = w->flows[i].receiver;
    if (!rx)
      continue;
    octo_receiver_on_timer (rx, now);
    while ((len = octo_receiver_poll_ack (rx, now, w->scratch, NULL)) > 0)
      send_into (w->up_queue, w->scratch, len, i + 1, now);
    next = MIN (next, octo_receiver_next_deadline (rx));
  }

  while (octo_link_pop_delivery (w->up, now, &d)) {
    deliver_up (w, &d.packet, now);
    g_free (d.packet.data);
  }

  for (guint i = 0; i < w->n_flows; i++)
    next = MIN (next, poll_flow (w, &w->flows[i], now));
  w->stats.max_queued_bytes = MAX (w->stats.max_queued_bytes,
      octo_qdisc_queued_bytes (w->down_queue));

  if (w->legacy && octo_link_next_wakeup (w->legacy, &t))
    next = MIN (next, t);
  if (octo_link_next_wakeup (w->down, &t))
    next = MIN (next, t);
  if (octo_link_next_wakeup (w->up, &t))
    next = MIN (next, t);
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
