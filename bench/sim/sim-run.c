/* One simulated experiment (sim-run.h). */
#include "sim-run.h"

#include <string.h>

#include "sim-gcc.h"
#include "sim-world.h"

/* The Oracle paces each 5 ms at what the link serves then (less what is
 * still queued), and reports the capacity over the router's 50 ms window as
 * its bandwidth. */
#define ORACLE_SLOT (5 * OCTO_MSECOND)
#define ORACLE_WINDOW (50 * OCTO_MSECOND)

typedef struct {
  const SimRunConfig *config;
  SimWorld *world;
  OctoTraceSource *source;
  OctoSourceKind kind;
  guint n_cells;                /* point cloud */
  OctoTime end;
  guint64 next_frame;
  GArray *frames;               /* OctoFrameRecord */
  GArray *levels;               /* guint */
  GArray *keyframe;             /* gboolean, for the temporal model */
  GArray *temporal_layer;       /* guint8 */
  const OctoTrace *down_trace;
  OctoTime next_oracle;
  SimGcc *gcc;
  SimResult *result;
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

/* Position of a message within its frame, from what the receiver gets. */
static guint
message_index (const Run *run, const OctoMsgInfo *info)
{
  switch (run->kind) {
    case OCTO_SOURCE_QUALITY:
      return info->spatial_layer;
    case OCTO_SOURCE_CLOUD:
      return info->density_layer * run->n_cells + info->cell_id;
    default:
      return 0;
  }
}

static void
on_message (OctoMessage *msg, gpointer user_data)
{
  Run *run = user_data;
  guint index = message_index (run, &msg->info);

  if (msg->info.frame_id < run->frames->len && index < OCTO_METRICS_MAX_LAYERS) {
    OctoFrameRecord *f = &g_array_index (run->frames, OctoFrameRecord,
        msg->info.frame_id);
    if (index < f->n_layers && f->arrival[index] == OCTO_TIME_NONE) {
      f->arrival[index] = msg->complete_time;
      run->result->messages_delivered++;
      run->result->bytes_delivered += msg->len;
    }
  }
  g_free (msg->data);
}

static void
submit_frame (Run *run, OctoTime now)
{
  OctoSourceMessage msgs[OCTO_SOURCE_MAX_MESSAGES];
  OctoSender *sender = sim_world_sender (run->world);
  OctoFrameRecord rec = { .capture = now, .ref = -1 };
  guint n = octo_trace_source_next_frame (run->source, now,
      octo_sender_bandwidth (sender), msgs);
  guint level = octo_trace_source_level (run->source);
  guint8 tl = msgs[0].layer;

  rec.n_layers = n;
  rec.gop_start = msgs[0].keyframe;
  for (guint i = 0; i < n; i++) {
    const OctoSourceMessage *m = &msgs[i];
    OctoHeader params = {
      .priority = m->tags.priority,
      .drop = m->tags.drop,
      .priority_threshold = m->tags.priority_threshold,
      .bitrate_threshold = m->tags.bitrate_threshold,
      .slack_ms = m->tags.slack_ms,
    };
    OctoMsgInfo info;

    octo_msg_info_init (&info);
    info.capture_time = now;
    info.frame_id = m->frame;
    if (run->kind == OCTO_SOURCE_TEMPORAL)
      info.temporal_layer = m->layer;
    else if (run->kind == OCTO_SOURCE_QUALITY)
      info.spatial_layer = m->layer;
    else {
      info.cell_id = m->cell;
      info.density_layer = m->layer;
    }
    if (m->keyframe)
      info.flags |= OCTO_MSG_FLAG_KEYFRAME;
    rec.arrival[i] = OCTO_TIME_NONE;
    rec.quality[i] = m->quality;
    run->result->messages_sent++;
    run->result->bytes_sent += m->size;
    if (run->gcc)
      sim_gcc_on_app_bytes (run->gcc, m->size, now);
    sim_world_submit (run->world, &params, &info, m->size);
  }
  g_array_append_val (run->frames, rec);
  g_array_append_val (run->levels, level);
  g_array_append_val (run->keyframe, msgs[0].keyframe);
  g_array_append_val (run->temporal_layer, tl);
}

static OctoTime
app (SimWorld *world, OctoTime now, gpointer user_data)
{
  Run *run = user_data;
  OctoTime next_capture;

  (void) world;
  if (run->config->scheme->oracle && now >= run->next_oracle) {
    update_oracle (run, now);
    run->next_oracle += ORACLE_SLOT;
  }
  next_capture = octo_trace_source_capture_time (run->source,
      run->next_frame);
  if (now >= next_capture && next_capture < run->end) {
    submit_frame (run, now);
    run->next_frame++;
    next_capture = octo_trace_source_capture_time (run->source,
        run->next_frame);
  }
  if (next_capture >= run->end)
    next_capture = OCTO_TIME_NONE;
  if (run->gcc)
    return MIN (next_capture, sim_gcc_run (run->gcc, now));
  return run->config->scheme->oracle ? MIN (next_capture, run->next_oracle) :
      next_capture;
}

static void
collect_drops (Run *run)
{
  OctoSenderStats st;
  const OctoQdiscStats *q = octo_qdisc_get_stats (sim_world_down_queue
      (run->world));
  SimResult *r = run->result;

  octo_sender_get_stats (sim_world_sender (run->world), &st);
  for (guint i = 0; i < OCTO_DROP_N_REASONS; i++) {
    r->sender_drops[i] = st.buffer->packets_dropped[i];
    r->network_drops[i] = q->packets_dropped[i];
    for (guint p = 0; p < OCTO_N_PRIORITIES; p++)
      r->sender_message_drops[i][p] = st.buffer->messages_dropped[i][p];
  }
}

SimResult *
sim_run (const SimRunConfig *config, GError **error)
{
  Run run = { .config = config, .kind = kind_of_case (config->case_id) };
  OctoTemporalTrace *temporal = NULL;
  OctoQualityTrace *quality = NULL;
  OctoCloudTrace *cloud = NULL;
  OctoTrace *down = NULL, *up = NULL;
  OctoTraceSourceConfig sc;
  SimWorldConfig wc;
  SimResult *r = NULL;
  OctoDecodeModel model;

  down = octo_trace_load (config->down_trace, error);
  if (!down)
    goto out;
  if (config->up_trace && !(up = octo_trace_load (config->up_trace, error)))
    goto out;
  octo_trace_source_config_init (&sc, run.kind);
  switch (run.kind) {
    case OCTO_SOURCE_TEMPORAL:
      temporal = octo_temporal_trace_load (config->video_trace, error);
      sc.temporal = temporal;
      model = OCTO_DECODE_TEMPORAL;
      break;
    case OCTO_SOURCE_QUALITY:
      quality = octo_quality_trace_load (config->video_trace, error);
      sc.quality = quality;
      model = OCTO_DECODE_LAYERED;
      break;
    default:
      cloud = octo_cloud_trace_load (config->video_trace, error);
      sc.cloud = cloud;
      run.n_cells = cloud ? cloud->n_cells : 0;
      model = OCTO_DECODE_INDEPENDENT;
      break;
  }
  if (!temporal && !quality && !cloud)
    goto out;
  if (config->scheme->gcc && run.kind != OCTO_SOURCE_QUALITY) {
    g_set_error (error, OCTO_VIDEO_TRACE_ERROR, 0, "scheme %s runs case 2 "
        "only", config->scheme->name);
    goto out;
  }

  sim_world_config_init (&wc);
  wc.sender.rules = config->scheme->sender_rules;
  wc.sender.cc = config->scheme->oracle || config->scheme->gcc ?
      OCTO_SENDER_FIXED : OCTO_SENDER_BBR;
  wc.sender.seed = config->seed;
  wc.down_trace = down;
  wc.up_trace = up;
  wc.one_way_delay = config->rtt_ms * OCTO_MSECOND / 2;
  wc.down_queue = config->scheme->down_queue;
  wc.cross_bps = config->cross_bps;
  sc.tag = config->scheme->tag;
  sc.adapt = config->scheme->adapt;
  sc.payload = wc.sender.mtu - OCTO_DATA_PREFIX_LEN;
  sc.overhead = OCTO_DATA_PREFIX_LEN + OCTO_LINK_OVERHEAD;
  if (!sc.adapt)
    /* a non-adapting app keeps the best level the trace's mean affords */
    sc.fixed_level = octo_trace_source_pick_level (&sc, octo_trace_mean_bps (down));
  /* single-layer frames carry no SVC overhead (papers: 15-18 %): credited
   * to the baseline */
  sc.single_layer = config->scheme->gcc;
  sc.single_layer_size = 0.85;
  run.source = octo_trace_source_new (&sc, error);
  if (!run.source)
    goto out;

  r = g_new0 (SimResult, 1);
  run.result = r;
  run.world = sim_world_new (&wc, on_message, &run, error);
  if (!run.world) {
    g_clear_pointer (&r, g_free);
    goto out;
  }
  run.down_trace = down;
  if (config->scheme->gcc)
    run.gcc = sim_gcc_new (run.world, wc.one_way_delay,
        (OctoTime) config->rtt_ms * OCTO_MSECOND);
  run.end = (OctoTime) config->duration_s * OCTO_SECOND;
  run.frames = g_array_new (FALSE, TRUE, sizeof (OctoFrameRecord));
  run.levels = g_array_new (FALSE, TRUE, sizeof (guint));
  run.keyframe = g_array_new (FALSE, TRUE, sizeof (gboolean));
  run.temporal_layer = g_array_new (FALSE, TRUE, sizeof (guint8));
  sim_world_set_app (run.world, app, &run, 0);
  sim_world_run_until (run.world, run.end);
  r->capacity_bytes = sim_world_link_stats (run.world)->capacity_bytes;
  r->delivered_bytes = sim_world_link_stats (run.world)->delivered_bytes;
  r->utilization = r->capacity_bytes ?
      (gdouble) r->delivered_bytes / r->capacity_bytes : 0;
  sim_world_run_until (run.world, run.end + SIM_DRAIN);
  r->sent_link_bytes = sim_world_link_stats (run.world)->sent_bytes;
  r->delivered_link_bytes = sim_world_link_stats (run.world)->delivered_bytes;
  r->max_queued_bytes = sim_world_link_stats (run.world)->max_queued_bytes;
  r->cross_sent_bytes = sim_world_link_stats (run.world)->cross_sent_bytes;
  r->cross_delivered_bytes =
      sim_world_link_stats (run.world)->cross_delivered_bytes;

  r->n_frames = run.frames->len;
  if (sc.single_layer) {
    /* one layer per frame, each predicted from the one before (IPPP) */
    OctoFrameRecord *frames = (OctoFrameRecord *) run.frames->data;
    for (guint f = 0; f < r->n_frames; f++)
      frames[f].ref = frames[f].gop_start || f == 0 ? -1 : (gint32) f - 1;
    model = OCTO_DECODE_TEMPORAL;
  } else if (model == OCTO_DECODE_TEMPORAL)
    octo_metrics_temporal_refs ((OctoFrameRecord *) run.frames->data,
        r->n_frames, (gboolean *) run.keyframe->data,
        (guint8 *) run.temporal_layer->data);
  r->outcomes = g_new0 (OctoFrameOutcome, MAX (r->n_frames, 1u));
  octo_metrics_compute ((OctoFrameRecord *) run.frames->data, r->n_frames,
      model, run.end, r->outcomes, &r->summary);
  collect_drops (&run);
  r->frames = (OctoFrameRecord *) g_array_free (run.frames, FALSE);
  r->levels = (guint *) g_array_free (run.levels, FALSE);
  r->temporal_layers = (guint8 *) g_array_free (run.temporal_layer, FALSE);
  g_array_free (run.keyframe, TRUE);
  sim_gcc_free (run.gcc);
  sim_world_free (run.world);

out:
  octo_trace_source_free (run.source);
  octo_temporal_trace_free (temporal);
  octo_quality_trace_free (quality);
  octo_cloud_trace_free (cloud);
  octo_trace_free (down);
  octo_trace_free (up);
  return r;
}

void
sim_result_free (SimResult *r)
{
  if (!r)
    return;
  g_free (r->frames);
  g_free (r->outcomes);
  g_free (r->levels);
  g_free (r->temporal_layers);
  g_free (r);
}
