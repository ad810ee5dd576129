#include "sim-gcc.h"

#include "transport/octo-packet.h"

/* Sent packets remembered by sequence number (a power of two). */
#define SENT_HISTORY 65536
#define PROBE_STREAM 0xffff

typedef struct {
  OctoTime send_time, arrival;
  guint32 size;
  gboolean probe;
} Sent;

typedef struct {
  OctoTime due;                 /* reaches the sender */
  guint32 max_seq;              /* every seq up to it is reported */
} Report;

struct _SimGcc {
  SimWorld *world;
  guint flow;
  OctoGcc *gcc;
  OctoTime one_way, rtt;
  Sent sent[SENT_HISTORY];
  gboolean any_sent;
  guint32 next_seq_reported;    /* first seq the sender has not heard of */
  gboolean any_received;
  guint32 max_seq_received;
  OctoTime next_report;
  GQueue reports;               /* Report, in flight to the sender */

  /* probing: when and how hard is the core's; the cluster's packets here */
  OctoGccProbe probe;
  guint32 probe_bytes_left;     /* of the cluster, still to leave the sender */
  gboolean probe_waiting;       /* sent, result not yet known */
  guint32 probe_first_seq, probe_last_seq;
};

static void
set_rates (SimGcc *g)
{
  OctoSender *sender = sim_world_flow_sender (g->world, g->flow);
  guint64 target = octo_gcc_target_bps (g->gcc);
  OctoSenderStats stats;
  guint64 pacing;

  octo_sender_get_stats (sender, &stats);
  /* while a probe leaves, the pacer spaces packets at the probe's rate */
  pacing = g->probe_bytes_left > 0 ? g->probe.cluster_bps :
      octo_gcc_pacing_bps (target, stats.session.queued_bytes);
  octo_sender_set_fixed_rates (sender, pacing, target);
}

static void
on_sent (const guint8 *data, gsize len, OctoTime now, gpointer user_data)
{
  SimGcc *g = user_data;
  OctoDataPacket p;
  gboolean probe;

  if (octo_data_parse (data, len, &p, NULL) != OCTO_DATA_OK)
    return;
  if (!g->any_sent) {
    /* seqs count from the connection's random ISN */
    g->next_seq_reported = p.seq;
    g->any_sent = TRUE;
  }
  probe = p.header.stream_id == PROBE_STREAM;
  g->sent[p.seq % SENT_HISTORY] = (Sent) { now, OCTO_TIME_NONE,
    len + OCTO_LINK_OVERHEAD, probe };
  if (!probe)
    return;
  if (!g->probe_waiting) {
    g->probe_first_seq = p.seq;
    g->probe_waiting = TRUE;
  }
  g->probe_last_seq = p.seq;
  g->probe_bytes_left -= MIN (g->probe_bytes_left, p.payload_len);
  if (g->probe_bytes_left == 0)
    set_rates (g);
}

static void
on_delivered (const guint8 *data, gsize len, OctoTime now, gpointer user_data)
{
  SimGcc *g = user_data;
  OctoDataPacket p;

  if (octo_data_parse (data, len, &p, NULL) != OCTO_DATA_OK)
    return;
  g->sent[p.seq % SENT_HISTORY].arrival = now;
  if (!g->any_received || (gint32) (p.seq - g->max_seq_received) > 0)
    g->max_seq_received = p.seq;
  g->any_received = TRUE;
}

SimGcc *
sim_gcc_new (SimWorld *world, guint flow, OctoTime one_way_delay,
    OctoTime rtt)
{
  SimGcc *g = g_new0 (SimGcc, 1);
  OctoGccConfig config;

  octo_gcc_config_init (&config);
  config.initial_bps = SIM_GCC_INITIAL_BPS;
  config.min_bps = SIM_GCC_MIN_BPS;
  config.max_bps = SIM_GCC_MAX_BPS;
  g->world = world;
  g->flow = flow;
  g->gcc = octo_gcc_new (&config);
  g->one_way = one_way_delay;
  g->rtt = rtt;
  g_queue_init (&g->reports);
  sim_world_set_flow_sent_func (world, flow, on_sent, g);
  sim_world_set_flow_delivered_func (world, flow, on_delivered, g);
  octo_gcc_probe_init (&g->probe);
  set_rates (g);
  return g;
}

void
sim_gcc_free (SimGcc *g)
{
  if (!g)
    return;
  g_queue_clear_full (&g->reports, g_free);
  octo_gcc_free (g->gcc);
  g_free (g);
}

/* Sends a cluster of padding at the rate the controller chose. */
static void
start_probe (SimGcc *g, guint64 rate)
{
  OctoHeader params = { .stream_id = PROBE_STREAM };
  OctoMsgInfo info;
  guint32 bytes = octo_gcc_probe_cluster_bytes (rate);

  octo_msg_info_init (&info);
  info.frame_id = G_MAXUINT32;  /* padding: no frame of the app */
  g->probe_bytes_left = bytes;
  g->probe_waiting = FALSE;
  set_rates (g);
  sim_world_submit_flow (g->world, g->flow, &params, &info, bytes);
}

/* Once feedback covers the whole cluster: its result, and what next. */
static void
finish_probe (SimGcc *g, OctoTime now)
{
  guint n = g->probe_last_seq - g->probe_first_seq + 1, k = 0;
  OctoTime *send = g_new (OctoTime, n), *arrival = g_new (OctoTime, n);
  guint32 *bytes = g_new (guint32, n);
  guint64 result, next;

  for (guint32 seq = g->probe_first_seq; k < n; seq++) {
    const Sent *s = &g->sent[seq % SENT_HISTORY];
    if (!s->probe) {
      n--;
      continue;
    }
    send[k] = s->send_time;
    arrival[k] = s->arrival;
    bytes[k++] = s->size;
  }
  result = octo_gcc_probe_rate (send, arrival, bytes, n);
  octo_gcc_on_probe (g->gcc, result);
  g->probe_waiting = FALSE;
  next = octo_gcc_probe_on_result (&g->probe, result, now);
  set_rates (g);
  if (next > 0)
    start_probe (g, next);
  g_free (send);
  g_free (arrival);
  g_free (bytes);
}

/* The sender hears of every packet up to @max_seq: arrivals or losses. */
static void
process_report (SimGcc *g, const Report *r, OctoTime now)
{
  while ((gint32) (r->max_seq - g->next_seq_reported) >= 0) {
    const Sent *s = &g->sent[g->next_seq_reported % SENT_HISTORY];
    if (!s->probe)
      octo_gcc_on_packet (g->gcc, s->send_time, s->size,
          s->arrival <= now ? s->arrival : OCTO_TIME_NONE);
    g->next_seq_reported++;
  }
  octo_gcc_on_feedback (g->gcc, now, g->rtt);
  if (g->probe_waiting && g->probe_bytes_left == 0
      && (gint32) (g->next_seq_reported - g->probe_last_seq) > 0)
    finish_probe (g, now);
  set_rates (g);
}

void
sim_gcc_on_app_bytes (SimGcc *g, guint32 bytes, OctoTime now)
{
  octo_gcc_probe_on_app_bytes (&g->probe, bytes, now);
}

OctoTime
sim_gcc_run (SimGcc *g, OctoTime now)
{
  Report *r;
  OctoTime next;
  guint64 probe;

  if (now >= g->next_report) {
    if (g->any_received) {
      r = g_new (Report, 1);
      r->due = now + g->one_way;
      r->max_seq = g->max_seq_received;
      g_queue_push_tail (&g->reports, r);
    }
    g->next_report = now + SIM_GCC_FEEDBACK_INTERVAL;
  }
  while ((r = g_queue_peek_head (&g->reports)) && r->due <= now) {
    g_queue_pop_head (&g->reports);
    process_report (g, r, now);
    g_free (r);
  }
  probe = octo_gcc_probe_poll (&g->probe, now, octo_gcc_target_bps (g->gcc));
  if (probe > 0)
    start_probe (g, probe);
  next = g->next_report;
  if ((r = g_queue_peek_head (&g->reports)))
    next = MIN (next, r->due);
  return MIN (next, octo_gcc_probe_next_poll (&g->probe, now));
}

