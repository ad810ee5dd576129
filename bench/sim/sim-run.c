/* One simulated experiment (sim-run.h). */
#include "sim-run.h"

#include "sim-stream.h"
#include "sim-world.h"

/* The Oracle paces each 5 ms at what the link serves then (less what is
 * still queued), and reports the capacity over the router's 50 ms window as
 * its bandwidth. */
#define ORACLE_SLOT (5 * OCTO_MSECOND)
#define ORACLE_WINDOW (50 * OCTO_MSECOND)
/* app streams in one run: the two-streams scenario's */
#define MAX_STREAMS 2
/* series.csv: one row per interval */
#define SERIES_INTERVAL (100 * OCTO_MSECOND)

typedef struct {
  const SimRunConfig *config;
  const SimScheme *scheme;
  SimWorld *world;
  OctoSourceKind kind;
  OctoTime end, one_way, encode_lag;
  guint64 next_frame;
  const OctoTrace *down_trace;
  OctoTime next_oracle;
  OctoTime next_series;
  GString *series;
  SimStream streams[MAX_STREAMS];
  guint n_streams;
  guint n_flows;                /* in the world: streams and others */
} Run;

static OctoSourceKind
kind_of_case (guint case_id)
{
  return case_id == 1 ? OCTO_SOURCE_TEMPORAL : case_id == 2 ?
      OCTO_SOURCE_QUALITY : OCTO_SOURCE_CLOUD;
}

/* Opportunities of @trace before @ms, counting loops. */
static guint64
opportunities_before (const OctoTrace *trace, guint64 ms)
{
  guint64 loops = ms / trace->period_ms, rest = ms % trace->period_ms;
  guint lo = 0, hi = trace->n;

  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;
    if (trace->ms[mid] < rest)
      lo = mid + 1;
    else
      hi = mid;
  }
  return loops * trace->n + lo;
}

/* Link bits/s the downlink offers in [from, from + span). */
static guint64
capacity_between (const OctoTrace *trace, OctoTime from, OctoTime span)
{
  guint64 a = from / OCTO_MSECOND, b = (from + span) / OCTO_MSECOND;
  guint64 n = opportunities_before (trace, b) - opportunities_before (trace, a);

  return n * OCTO_LINK_OPPORTUNITY_BYTES * 8 * OCTO_SECOND / span;
}

static void
update_oracle (Run *run, OctoTime now)
{
  /* the bottleneck queue is the first hop (the delay follows the link); what
   * still waits there is served first, so it is sent that much less */
  guint64 backlog = octo_qdisc_queued_bytes (sim_world_down_queue (run->world))
      * 8 * OCTO_SECOND / ORACLE_SLOT;
  guint64 slot = capacity_between (run->down_trace, now, ORACLE_SLOT);

  octo_sender_set_fixed_rates (sim_world_sender (run->world),
      slot > backlog ? slot - backlog : 1,
      MAX (capacity_between (run->down_trace, now, ORACLE_WINDOW), 1));
}

/* One row of series.csv: what the first stream's sender believed over the
 * last interval next to what the link offered, and both queues. */
static void
add_series_row (Run *run, OctoTime now)
{
  OctoSender *sender = sim_world_sender (run->world);
  OctoSenderStats st;
  OctoTime from = now - SERIES_INTERVAL;

  if (!sender)
    return;
  octo_sender_get_stats (sender, &st);
  g_string_append_printf (run->series, "%" G_GUINT64_FORMAT ",%"
      G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
      G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
      G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%u,%s\n", now / OCTO_MSECOND,
      capacity_between (run->down_trace, from, SERIES_INTERVAL),
      st.session.bandwidth, st.session.pacing_rate, st.session.cwnd,
      st.session.inflight, st.session.srtt / OCTO_USECOND,
      (guint64) st.session.queued_bytes,
      (guint64) octo_qdisc_queued_bytes (sim_world_down_queue (run->world)),
      sim_stream_level (&run->streams[0]), st.session.state);
}

static OctoTime
app (SimWorld *world, OctoTime now, gpointer user_data)
{
  Run *run = user_data;
  OctoTime capture, next;

  (void) world;
  while (now >= run->next_series && run->next_series <= run->end) {
    if (run->next_series > 0)
      add_series_row (run, run->next_series);
    run->next_series += SERIES_INTERVAL;
  }
  if (run->scheme->oracle && now >= run->next_oracle) {
    update_oracle (run, now);
    run->next_oracle += ORACLE_SLOT;
  }
  capture = octo_trace_source_capture_time (run->streams[0].source,
      run->next_frame);
  if (capture < run->end && now >= capture + run->encode_lag) {
    for (guint i = 0; i < run->n_streams; i++)
      sim_stream_submit_frame (&run->streams[i], capture, now);
    run->next_frame++;
    capture = octo_trace_source_capture_time (run->streams[0].source,
        run->next_frame);
  }
  next = capture < run->end ? capture + run->encode_lag : OCTO_TIME_NONE;
  for (guint i = 0; i < run->n_streams; i++)
    next = MIN (next, sim_stream_run (&run->streams[i], now));
  if (run->next_series <= run->end)
    next = MIN (next, run->next_series);
  return run->scheme->oracle ? MIN (next, run->next_oracle) : next;
}

static void
flow_config (const Run *run, OctoSenderConfig *sender)
{
  const SimScheme *scheme = run->scheme;

  octo_sender_config_init (sender);
  sender->rules = scheme->sender_rules;
  sender->seed = run->config->seed;
  sender->cc = scheme->oracle || scheme->endpoint == SIM_ENDPOINT_GCC
      || scheme->endpoint == SIM_ENDPOINT_SALSIFY ?
      OCTO_SENDER_FIXED : OCTO_SENDER_BBR;
  if (scheme->endpoint == SIM_ENDPOINT_SALSIFY)
    sender->max_rate = SIM_SALSIFY_SEND_RATE;
  /* the Octopus endpoint's app restarts after an outage, as the live
   * senders' (outage-restart) */
  if (scheme->endpoint == SIM_ENDPOINT_TRACE && scheme->tag)
    sender->restart_after = OCTO_SEND_DEFAULT_RESTART_AFTER;
}

static gboolean
check_config (const SimRunConfig *config, GError **error)
{
  const SimScheme *scheme = config->scheme;

  if (!sim_scheme_runs_case (scheme, config->case_id)) {
    g_set_error (error, OCTO_VIDEO_TRACE_ERROR, 0, "scheme %s does not "
        "model case %u", scheme->name, config->case_id);
    return FALSE;
  }
  if (scheme->oracle && config->scenario != SIM_SCENARIO_SINGLE) {
    g_set_error (error, OCTO_VIDEO_TRACE_ERROR, 0, "scheme %s runs the "
        "single-bottleneck scenario only", scheme->name);
    return FALSE;
  }
  return TRUE;
}

static void
fill_link_results (Run *run, SimResult *r, guint flow, gboolean drained)
{
  const SimLinkStats *ls = sim_world_link_stats (run->world);
  const SimFlowStats *fs = sim_world_flow_stats (run->world, flow);

  if (!drained) {
    r->capacity_bytes = ls->capacity_bytes;
    r->delivered_bytes = fs->delivered_bytes;
    r->padding_delivered_bytes = fs->padding_delivered_bytes;
    r->whole_message_bytes = fs->whole_message_bytes;
    r->utilization = octo_utilisation (r->whole_message_bytes,
        r->capacity_bytes);
    r->other_delivered_bytes = 0;
    for (guint i = 0; i < run->n_flows; i++)
      if (i != flow)
        r->other_delivered_bytes +=
            sim_world_flow_stats (run->world, i)->delivered_bytes;
    return;
  }
  r->sent_link_bytes = fs->sent_bytes;
  r->delivered_link_bytes = fs->delivered_bytes;
  r->max_queued_bytes = ls->max_queued_bytes;
  r->cross_sent_bytes = ls->cross_sent_bytes;
  r->cross_delivered_bytes = ls->cross_delivered_bytes;
}

SimResult *
sim_run (const SimRunConfig *config, GError **error)
{
  Run run = { .config = config, .scheme = config->scheme,
    .kind = kind_of_case (config->case_id) };
  OctoTrace *down = NULL, *up = NULL, *legacy = NULL;
  SimWorldConfig wc;
  SimResult *r = NULL;
  gboolean ok = TRUE;

  if (!check_config (config, error))
    return NULL;
  if (config->scenario == SIM_SCENARIO_COMPETING)
    down = sim_constant_trace (SIM_LEGACY_PACKETS_PER_MS);
  else if (!(down = octo_trace_load (config->down_trace, error)))
    goto out;
  if (config->up_trace && config->scenario != SIM_SCENARIO_COMPETING
      && !(up = octo_trace_load (config->up_trace, error)))
    goto out;
  run.down_trace = down;
  run.one_way = config->rtt_ms * OCTO_MSECOND / 2;
  run.n_streams = config->scenario == SIM_SCENARIO_TWO_STREAMS ? 2 : 1;
  for (guint i = 0; i < run.n_streams && ok; i++)
    ok = sim_stream_prepare (&run.streams[i], run.scheme, run.kind, i,
        i == 1 && config->video_trace2 ? config->video_trace2 :
        config->video_trace, down, run.one_way,
        config->slack_set ? (gint) config->slack_ms : -1, error);
  if (!ok)
    goto out;

  sim_world_config_init (&wc);
  flow_config (&run, &wc.sender);
  wc.transport = run.scheme->transport;
  wc.down_trace = down;
  wc.up_trace = up;
  wc.one_way_delay = run.one_way;
  wc.down_queue = run.scheme->down_queue;
  wc.cross_bps = config->cross_bps;
  switch (config->scenario) {
    case SIM_SCENARIO_COMPETING:
      /* a legacy switch: Octopus degenerates to OctoBBR there */
      wc.down_queue = "droptail";
      wc.n_more_flows = 1;
      wc.more_flows[0].transport = SIM_TRANSPORT_OCTO;
      octo_sender_config_init (&wc.more_flows[0].sender);
      wc.more_flows[0].sender.rules = FALSE;
      wc.more_flows[0].sender.seed = config->seed + 1;
      wc.more_flows[0].backlogged = TRUE;
      break;
    case SIM_SCENARIO_TWO_BOTTLENECKS:
      wc.legacy_trace = legacy = sim_constant_trace
          (SIM_LEGACY_PACKETS_PER_MS);
      break;
    case SIM_SCENARIO_TWO_STREAMS:
      wc.n_more_flows = 1;
      wc.more_flows[0].transport = wc.transport;
      wc.more_flows[0].sender = wc.sender;
      wc.more_flows[0].sender.seed = config->seed + 1;
      break;
    default:
      break;
  }
  run.n_flows = 1 + wc.n_more_flows;
  run.world = sim_world_new (&wc, NULL, NULL, error);
  if (!run.world)
    goto out;
  for (guint i = 0; i < run.n_streams; i++)
    sim_stream_start (&run.streams[i], run.world);
  run.end = config->duration_ms ? (OctoTime) config->duration_ms * OCTO_MSECOND
      : (OctoTime) config->duration_s * OCTO_SECOND;
  run.encode_lag = (OctoTime) config->encode_lag_ms * OCTO_MSECOND;
  run.series = g_string_new ("time_ms,capacity_bps,estimate_bps,pacing_bps,"
      "cwnd_bytes,inflight_bytes,srtt_us,send_queued_bytes,"
      "network_queued_bytes,level,state\n");
  sim_world_set_app (run.world, app, &run, 0);
  sim_world_run_until (run.world, run.end);
  for (guint i = 0; i < run.n_streams; i++)
    fill_link_results (&run, run.streams[i].result, i, FALSE);
  sim_world_run_until (run.world, run.end + (config->drain_set ?
          (OctoTime) config->drain_ms * OCTO_MSECOND : SIM_DRAIN));
  for (guint i = 0; i < run.n_streams; i++) {
    fill_link_results (&run, run.streams[i].result, i, TRUE);
    sim_stream_finish (&run.streams[i], run.end);
  }
  r = run.streams[0].result;
  run.streams[0].result = NULL;
  r->series_csv = g_string_free (run.series, FALSE);
  run.series = NULL;
  if (run.n_streams == 2) {
    r->second = run.streams[1].result;
    run.streams[1].result = NULL;
  }

out:
  for (guint i = 0; i < run.n_streams; i++)
    sim_stream_clear (&run.streams[i]);
  sim_world_free (run.world);
  if (run.series)
    g_string_free (run.series, TRUE);
  octo_trace_free (down);
  octo_trace_free (up);
  octo_trace_free (legacy);
  return r;
}

void
sim_result_free (SimResult *r)
{
  if (!r)
    return;
  sim_result_free (r->second);
  g_free (r->frames);
  g_free (r->outcomes);
  g_free (r->levels);
  g_free (r->temporal_layers);
  g_free (r->series_csv);
  g_free (r);
}

