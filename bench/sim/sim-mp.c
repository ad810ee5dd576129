/* Multipath topologies on a virtual clock (see sim-mp.h). */
#include "sim-mp.h"

#include "baselines/octo-gcc.h"
#include "link/octo-link.h"
#include "qdisc/octo-qdisc.h"
#include "transport/octo-acker.h"
#include "transport/octo-sender.h"

#define PACKET_BYTES (SIM_MP_PAYLOAD + OCTO_LINK_OVERHEAD)
#define BACKLOG_PACKETS 8       /* a backlogged flow keeps this many queued */
#define SEND_BUFFER_BYTES 1000000
/* before the first estimate a video flow sends at this rate */
#define VIDEO_START_BPS 300000
#define TRACE_PERIOD_MS 3000
#define MIN_STEP OCTO_USECOND

/* What a flow queues in its session: one packet of a frame (or of the
 * backlog). */
typedef struct {
  guint32 frame;
  guint8 frag, n_frags;
  OctoTime capture;
} AppPacket;

/* A packet on a link. */
typedef struct {
  guint flow, path;
  guint64 seq;
  OctoTime sent;
  AppPacket app;
  gboolean padding;
} NetPacket;

typedef struct {
  OctoTime at;
  guint flow, path;
  OctoAck ack;
} AckEvent;

typedef struct {
  guint64 got;                  /* fragments received, one bit each */
  OctoTime capture;
  gboolean complete;
} FrameRx;

/* GCC's view of one packet. */
typedef struct {
  OctoTime send_time, arrival;  /* arrival OCTO_TIME_NONE: not (yet) */
  guint32 size;
} GccSent;

typedef struct {
  OctoTime due;
  guint64 max_seq;
} GccReport;

typedef struct {
  OctoGcc *gcc;
  GArray *sent;                 /* GccSent by flight sequence number */
  guint64 next_reported;
  gboolean any_received;
  guint64 max_received;
  OctoTime next_report;         /* at the receiver */
  GQueue reports;               /* GccReport*, on their way back */
} FlowGcc;

#define GCC_FEEDBACK_INTERVAL (50 * OCTO_MSECOND)

typedef struct {
  const SimMpFlow *config;
  FlowGcc gcc;
  SimMpFlowResult *result;
  OctoMpSession *session;
  OctoAcker ackers[SIM_MP_MAX_LINKS];
  OctoTime wake;
  OctoTime next_frame;
  guint32 next_msg;
  OctoArrivalMeter submitted;   /* link bytes queued, as the sender counts */
  GHashTable *frames;           /* frame id -> FrameRx */
} Flow;

typedef struct {
  const SimMpConfig *config;
  OctoTrace *traces[SIM_MP_MAX_LINKS];
  OctoQdisc *queues[SIM_MP_MAX_LINKS];
  OctoLink *links[SIM_MP_MAX_LINKS];
  GQueue acks[SIM_MP_MAX_LINKS];        /* AckEvent*, in time order */
  Flow flows[SIM_MP_MAX_FLOWS];
  SimMpResult *result;
  OctoTime window_start, window_end;
} World;

/* Opportunities of 1500 bytes spread evenly over TRACE_PERIOD_MS. */
static OctoTrace *
constant_trace (guint64 rate_bps)
{
  guint n = MAX (1, (guint) (rate_bps * TRACE_PERIOD_MS /
          (8 * OCTO_LINK_OPPORTUNITY_BYTES * 1000)));
  GString *text = g_string_new (NULL);
  OctoTrace *trace;

  for (guint i = 1; i <= n; i++)
    g_string_append_printf (text, "%u\n",
        (guint) (((guint64) i * TRACE_PERIOD_MS + n - 1) / n));
  trace = octo_trace_parse (text->str, text->len, "constant", NULL);
  g_string_free (text, TRUE);
  return trace;
}

static void
on_link_drop (const OctoPacket *packet, OctoDropReason reason,
    gpointer user_data)
{
  World *w = user_data;
  NetPacket *np = packet->data;

  /* a trimmed packet stays queued: only chunks were cut off it (no link
   * here hands a queue a payload to trim yet; sim-world.c does) */
  if (reason == OCTO_DROP_TRIM)
    return;
  if (!np->padding)
    w->result->flows[np->flow].packets_lost++;
  g_free (np);
}

static void
on_release (const OctoPacket *packet, OctoMpFate fate, OctoDropReason reason,
    gpointer user_data)
{
  (void) fate;
  (void) reason;
  (void) user_data;
  g_free (packet->data);
}

static gboolean
in_outage (const SimMpLink *link, OctoTime t)
{
  return t >= link->down_from && t < link->down_until;
}

static void
transmit (World *w, guint f, guint path, const AppPacket *app,
    guint32 size, OctoTime now)
{
  Flow *fl = &w->flows[f];
  guint link = fl->config->links[path];
  NetPacket *np = g_new0 (NetPacket, 1);
  OctoPacket p = {.data = np,.size = size,.source = f };

  np->flow = f;
  np->path = path;
  np->sent = now;
  np->seq = octo_mp_session_on_sent (fl->session, path, size, now);
  np->padding = app == NULL;
  if (fl->gcc.gcc) {
    GccSent rec = { now, OCTO_TIME_NONE, size };

    g_array_append_val (fl->gcc.sent, rec);
  }
  if (app) {
    np->app = *app;
    fl->result->packets_sent++;
    fl->result->path_packets[path]++;
  } else if (now >= w->window_start && now < w->window_end) {
    fl->result->padding_packets++;
  }
  if (in_outage (&w->config->links[link], now))
    on_link_drop (&p, OCTO_DROP_OVERFLOW, w);
  else
    octo_qdisc_enqueue (w->queues[link], &p, NULL, NULL, now);
}

static void
queue_message (Flow *fl, guint32 frame, guint n_frags, guint32 last_size,
    OctoTime now)
{
  guint32 msg = fl->next_msg++;

  for (guint i = 0; i < n_frags; i++) {
    AppPacket *app = g_new0 (AppPacket, 1);
    OctoPacket p = {
      .data = app,
      .size = i == n_frags - 1 ? last_size : PACKET_BYTES,
      .tagged = TRUE,
      .header = {.msg_id = msg,.first = i == 0,.last = i == n_frags - 1 },
    };

    app->frame = frame;
    app->frag = i;
    app->n_frags = n_frags;
    app->capture = now;
    octo_arrival_meter_add (&fl->submitted, p.size, now);
    octo_mp_session_enqueue (fl->session, &p, now, FALSE, now);
  }
}

/* The video source: one frame at the session's estimate, capped. */
static void
capture_frame (Flow *fl, OctoTime now)
{
  guint64 bw = octo_mp_session_bandwidth (fl->session);
  guint64 rate = MIN (bw ? bw : VIDEO_START_BPS, fl->config->video_max_bps);
  /* a frame is at most 64 packets (its arrivals are one bit each) */
  guint64 bytes = CLAMP (rate / 8 / SIM_MP_FPS, PACKET_BYTES,
      64 * PACKET_BYTES);
  guint n = (bytes + PACKET_BYTES - 1) / PACKET_BYTES;
  guint32 last = bytes - (n - 1) * PACKET_BYTES;
  FrameRx *rx = g_new0 (FrameRx, 1);
  guint32 frame = fl->result->frames++;

  rx->capture = now;
  g_hash_table_insert (fl->frames, GUINT_TO_POINTER (frame), rx);
  queue_message (fl, frame, n, MAX (last, OCTO_LINK_OVERHEAD + 1), now);
}

/* A video flow probes as octopussink's sender does (probe-ceiling 0), so
 * the sweep measures the live arms' rule; a backlogged flow never needs
 * to. */
static guint64
probe_ceiling (const Flow *fl, OctoTime now)
{
  return fl->config->video_max_bps ?
      octo_sender_probe_ceiling (0, &fl->submitted, now) : 0;
}

static void
run_flow (World *w, guint f, OctoTime now)
{
  Flow *fl = &w->flows[f];

  if (!fl->config->video_max_bps) {
    while (octo_mp_session_queued_packets (fl->session) < BACKLOG_PACKETS)
      queue_message (fl, 0, 1, PACKET_BYTES, now);
  } else if (now >= fl->next_frame) {
    capture_frame (fl, now);
    fl->next_frame = fl->config->start +
        fl->result->frames * OCTO_SECOND / SIM_MP_FPS;
  }
  for (;;) {
    OctoPacket p;
    guint path;

    switch (octo_mp_session_dequeue (fl->session, now, &p, &path,
            &fl->wake)) {
      case OCTO_SEND_PACKET:
        transmit (w, f, path, p.data, p.size, now);
        break;
      case OCTO_SEND_EMPTY:
        if (octo_mp_session_pads (fl->session, path, probe_ceiling (fl, now),
                now))
          transmit (w, f, path, NULL, PACKET_BYTES, now);
        else
          octo_mp_session_idle (fl->session, path, now);
        break;
      case OCTO_SEND_HELD:
        return;
    }
  }
}

static void
receive (World *w, const OctoLinkDelivery *d)
{
  NetPacket *np = d->packet.data;
  Flow *fl = &w->flows[np->flow];
  SimMpFlowResult *r = fl->result;
  guint link = fl->config->links[np->path];
  AckEvent *ev;

  if (in_outage (&w->config->links[link], d->delivery)) {
    on_link_drop (&d->packet, OCTO_DROP_OVERFLOW, w);
    return;
  }
  octo_acker_on_packet (&fl->ackers[np->path], (guint32) np->seq,
      d->delivery);
  if (fl->gcc.gcc) {
    g_array_index (fl->gcc.sent, GccSent, np->seq).arrival = d->delivery;
    fl->gcc.max_received = fl->gcc.any_received ?
        MAX (fl->gcc.max_received, np->seq) : np->seq;
    fl->gcc.any_received = TRUE;
  }
  ev = g_new0 (AckEvent, 1);
  ev->at = d->delivery + w->config->links[link].one_way;
  ev->flow = np->flow;
  ev->path = np->path;
  octo_acker_build (&fl->ackers[np->path], d->delivery, &ev->ack);
  g_queue_push_tail (&w->acks[link], ev);
  if (!np->padding) {
    r->packets_delivered++;
    r->owd_sum += d->delivery - np->sent;
    if (d->delivery >= w->window_start && d->delivery < w->window_end)
      r->window_bytes += d->packet.size;
  }
  if (!np->padding && fl->config->video_max_bps) {
    FrameRx *rx = g_hash_table_lookup (fl->frames,
        GUINT_TO_POINTER (np->app.frame));

    rx->got |= G_GUINT64_CONSTANT (1) << np->app.frag;
    if (!rx->complete &&
        rx->got == G_MAXUINT64 >> (64 - np->app.n_frags)) {
      OctoTime delay = d->delivery - rx->capture;

      rx->complete = TRUE;
      r->frames_complete++;
      g_array_append_val (r->frame_delays, delay);
    }
  }
  g_free (np);
}

/* The receiver's feedback every 50 ms reaches the sender one one-way
 * delay later: GCC hears of every packet up to the newest received
 * (arrived by then, or lost) and sets the path's rate.  Returns when to
 * run next. */
static OctoTime
run_gcc (World *w, Flow *fl, OctoTime now)
{
  FlowGcc *g = &fl->gcc;
  OctoTime one_way = w->config->links[fl->config->links[0]].one_way;
  GccReport *r;
  guint64 target;

  if (now >= g->next_report) {
    if (g->any_received) {
      r = g_new (GccReport, 1);
      r->due = now + one_way;
      r->max_seq = g->max_received;
      g_queue_push_tail (&g->reports, r);
    }
    g->next_report = now + GCC_FEEDBACK_INTERVAL;
  }
  while ((r = g_queue_peek_head (&g->reports)) && r->due <= now) {
    g_queue_pop_head (&g->reports);
    for (; g->next_reported <= r->max_seq; g->next_reported++) {
      const GccSent *s = &g_array_index (g->sent, GccSent, g->next_reported);

      octo_gcc_on_packet (g->gcc, s->send_time, s->size,
          s->arrival <= now ? s->arrival : OCTO_TIME_NONE);
    }
    octo_gcc_on_feedback (g->gcc, now, 2 * one_way);
    g_free (r);
  }
  target = octo_gcc_target_bps (g->gcc);
  octo_send_path_set_fixed_rates (octo_mp_session_path (fl->session, 0),
      target, target);
  if ((r = g_queue_peek_head (&g->reports)))
    return MIN (g->next_report, r->due);
  return g->next_report;
}

static void
start_flow (World *w, guint f, OctoTime now)
{
  Flow *fl = &w->flows[f];
  OctoSendPath *paths[SIM_MP_MAX_LINKS];
  OctoSendPathConfig pc = { 0 };
  OctoMpSessionConfig sc = {
    .buffer_bytes = SEND_BUFFER_BYTES,
    .rules = TRUE,
    .scheduler = fl->config->scheduler,
    .commit_ahead = fl->config->commit_ahead,
    /* frames count whenever they complete, in any order (the paper's
     * frame delay) */
    .in_order_receiver = FALSE,
    .release = on_release,
  };

  if (fl->config->gcc) {
    OctoGccConfig gc;

    octo_gcc_config_init (&gc);
    fl->gcc.gcc = octo_gcc_new (&gc);
    fl->gcc.sent = g_array_new (FALSE, FALSE, sizeof (GccSent));
    fl->gcc.next_report = now;
    g_queue_init (&fl->gcc.reports);
    pc.max_rate = gc.initial_bps;
  }
  for (guint p = 0; p < fl->config->n_paths; p++) {
    paths[p] = octo_send_path_new_for (&pc, fl->config->gcc ?
        OCTO_SENDER_FIXED : fl->config->cc, PACKET_BYTES,
        w->config->seed + f * SIM_MP_MAX_LINKS + p, now);
    octo_acker_init (&fl->ackers[p], 1, 0);
  }
  fl->session = octo_mp_session_new (&sc, paths, fl->config->n_paths);
  g_assert (fl->session);
  octo_arrival_meter_init (&fl->submitted);
  fl->next_frame = now;
}

void
sim_mp_run (const SimMpConfig *config, OctoTime window_start,
    OctoTime window_end, SimMpResult *result)
{
  World w = {.config = config,.result = result,
    .window_start = window_start,.window_end = window_end
  };
  OctoTime now = 0;

  memset (result, 0, sizeof (*result));
  result->n_flows = config->n_flows;
  for (guint l = 0; l < config->n_links; l++) {
    OctoQdiscEnv env;

    octo_qdisc_env_init (&env);
    env.limit_bytes = config->links[l].buffer_bytes;
    env.drop_func = on_link_drop;
    env.user_data = &w;
    w.traces[l] = constant_trace (config->links[l].rate_bps);
    w.queues[l] = octo_qdisc_new ("droptail", &env, NULL);
    w.links[l] = octo_link_new (w.traces[l], config->links[l].one_way, 0);
    octo_link_add_queue (w.links[l], w.queues[l]);
    g_queue_init (&w.acks[l]);
  }
  for (guint f = 0; f < config->n_flows; f++) {
    w.flows[f].config = &config->flows[f];
    w.flows[f].result = &result->flows[f];
    w.flows[f].frames = g_hash_table_new_full (NULL, NULL, NULL, g_free);
    result->flows[f].frame_delays = g_array_new (FALSE, FALSE,
        sizeof (OctoTime));
  }

  while (now < config->duration) {
    OctoTime next = config->duration;

    for (guint l = 0; l < config->n_links; l++) {
      OctoLinkDelivery d;

      octo_link_advance (w.links[l], now);
      while (octo_link_pop_delivery (w.links[l], now, &d))
        receive (&w, &d);
      while (!g_queue_is_empty (&w.acks[l]) &&
          ((AckEvent *) g_queue_peek_head (&w.acks[l]))->at <= now) {
        AckEvent *ev = g_queue_pop_head (&w.acks[l]);

        octo_mp_session_on_ack (w.flows[ev->flow].session, ev->path,
            &ev->ack, now);
        g_free (ev);
      }
    }
    for (guint f = 0; f < config->n_flows; f++) {
      Flow *fl = &w.flows[f];

      if (now < fl->config->start) {
        next = MIN (next, fl->config->start);
        continue;
      }
      if (!fl->session)
        start_flow (&w, f, now);
      if (fl->gcc.gcc)
        next = MIN (next, run_gcc (&w, fl, now));
      run_flow (&w, f, now);
      next = MIN (next, fl->wake);
      if (fl->config->video_max_bps)
        next = MIN (next, fl->next_frame);
    }
    for (guint l = 0; l < config->n_links; l++) {
      OctoTime t;

      octo_link_advance (w.links[l], now);
      if (octo_link_next_wakeup (w.links[l], &t))
        next = MIN (next, t);
      if (!g_queue_is_empty (&w.acks[l]))
        next = MIN (next, ((AckEvent *) g_queue_peek_head (&w.acks[l]))->at);
    }
    now = MAX (next, now + MIN_STEP);
  }

  for (guint f = 0; f < config->n_flows; f++) {
    Flow *fl = &w.flows[f];

    if (fl->session) {
      for (guint p = 0; p < fl->config->n_paths; p++) {
        OctoMpPathStats st;

        octo_mp_session_path_stats (fl->session, p, &st);
        fl->result->packets_rescheduled += st.packets_rescheduled;
      }
      octo_mp_session_free (fl->session);
    }
    g_hash_table_destroy (fl->frames);
    if (fl->gcc.gcc) {
      octo_gcc_free (fl->gcc.gcc);
      g_array_free (fl->gcc.sent, TRUE);
      g_queue_clear_full (&fl->gcc.reports, g_free);
    }
  }
  for (guint l = 0; l < config->n_links; l++) {
    OctoPacket p;

    while (octo_link_drain (w.links[l], &p))
      g_free (p.data);
    while (octo_qdisc_dequeue (w.queues[l], G_MAXUINT64 / 2, &p))
      g_free (p.data);
    octo_link_free (w.links[l]);
    octo_qdisc_free (w.queues[l]);
    octo_trace_free (w.traces[l]);
    g_queue_clear_full (&w.acks[l], g_free);
  }
}

void
sim_mp_result_clear (SimMpResult *result)
{
  for (guint f = 0; f < result->n_flows; f++)
    if (result->flows[f].frame_delays)
      g_array_free (result->flows[f].frame_delays, TRUE);
  memset (result, 0, sizeof (*result));
}
