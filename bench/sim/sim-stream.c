/* One app stream of a simulated run (sim-stream.h). */
#include "sim-stream.h"

/* The endpoint baselines encode one layer per frame: no SVC overhead
 * (papers: 15-18 %), credited to them. */
#define SINGLE_LAYER_SIZE 0.85
/* IPv4 + TCP header bytes per segment, for TCP flows' link rates */
#define TCP_OVERHEAD 40
/* AWStream's frame-rate ladder (case 1): key frames only, + TL0, + TL1,
 * + TL2 (3.75, 7.5, 15, 30 fps) */
#define FRAMERATE_LEVELS 4
/* AWStream's probing traffic: a frame id no frame has, so the receiving
 * side ignores it */
#define PADDING_FRAME G_MAXUINT32

typedef struct {
  guint64 bytes_left, bytes;
  OctoTime submitted;
} VivoFrame;

typedef struct {
  OctoTime due;                 /* reaches the sender */
  guint64 bytes;
  OctoTime start, end;
} VivoSample;

/* Position of a message within its frame, from what the receiver gets. */
static guint
message_index (const SimStream *st, const OctoMsgInfo *info)
{
  switch (st->kind) {
    case OCTO_SOURCE_QUALITY:
      return st->level_sources ? 0 : info->spatial_layer;
    case OCTO_SOURCE_CLOUD:
      return info->density_layer * st->n_cells + info->cell_id;
    default:
      return 0;
  }
}

/* ViVo: a frame's download rate is its bytes over the time from when the
 * transport could start on it (sent, and the previous frame done) to its
 * last byte; the client's estimate reaches the server a one-way delay
 * later, with its next request. */
static void
vivo_on_message (SimStream *st, guint64 frame, gsize len, OctoTime now)
{
  VivoFrame *vf = &g_array_index (st->vivo_frames, VivoFrame, frame);
  VivoSample *s;

  vf->bytes_left -= MIN (vf->bytes_left, len);
  if (vf->bytes_left > 0)
    return;
  s = g_new (VivoSample, 1);
  *s = (VivoSample) { now + st->one_way, vf->bytes,
    MAX (vf->submitted, st->vivo_last_complete), now };
  st->vivo_last_complete = now;
  g_queue_push_tail (&st->vivo_samples, s);
}

static void
on_message (OctoMessage *msg, gpointer user_data)
{
  SimStream *st = user_data;
  guint index = message_index (st, &msg->info);
  guint64 frame = msg->info.frame_id;

  if (frame < st->frames->len && index < OCTO_METRICS_MAX_LAYERS) {
    OctoFrameRecord *f = &g_array_index (st->frames, OctoFrameRecord, frame);
    if (index < f->n_layers && f->arrival[index] == OCTO_TIME_NONE) {
      f->arrival[index] = msg->complete_time;
      st->result->messages_delivered++;
      st->result->bytes_delivered += msg->len;
      if (st->scheme->endpoint == SIM_ENDPOINT_VIVO)
        vivo_on_message (st, frame, msg->len, msg->complete_time);
    }
  }
  g_free (msg->data);
}

static gboolean
over_tcp (const SimStream *st)
{
  return st->scheme->transport == SIM_TRANSPORT_TCP;
}

/* The link rate of a media rate on this stream's transport. */
static guint64
link_rate (const SimStream *st, gdouble media_bps)
{
  return octo_preset_link_rate ((guint64) media_bps, st->sc.payload,
      st->sc.overhead);
}

/* AWStream's view: bytes waiting to be sent and the bandwidth estimate. */
static void
awstream_inputs (SimStream *st, OctoTime now, guint64 *queued, guint64 *bps)
{
  OctoSenderStats ss;
  OctoTcpStats ts;
  guint oldest;

  if (!over_tcp (st)) {
    OctoSender *sender = sim_world_flow_sender (st->world, st->flow);
    octo_sender_get_stats (sender, &ss);
    *queued = ss.session.queued_bytes;
    *bps = octo_sender_bandwidth (sender);
    return;
  }
  octo_tcp_sender_get_stats (sim_world_flow_tcp (st->world, st->flow),
      &ts);
  *queued = ts.unsent_bytes;
  st->acked[st->n_goodput % SIM_GOODPUT_FRAMES] = ts.acked_bytes;
  st->acked_time[st->n_goodput % SIM_GOODPUT_FRAMES] = now;
  st->n_goodput++;
  oldest = st->n_goodput > SIM_GOODPUT_FRAMES ?
      st->n_goodput % SIM_GOODPUT_FRAMES : 0;
  *bps = now > st->acked_time[oldest] ? link_rate (st,
      (ts.acked_bytes - st->acked[oldest]) * 8.0 * OCTO_SECOND /
      (now - st->acked_time[oldest])) : 0;
}

static void
submit_padding (SimStream *st, guint64 bps)
{
  OctoHeader params = { 0 };
  OctoMsgInfo info;
  guint64 bytes = bps * octo_trace_source_frame_interval (st->source)
      / 8 / OCTO_SECOND * st->sc.payload / (st->sc.payload + st->sc.overhead);

  if (bytes == 0)
    return;
  octo_msg_info_init (&info);
  info.frame_id = PADDING_FRAME;
  sim_world_submit_flow (st->world, st->flow, &params, &info, bytes);
}

/* Every quality level's single-layer version of the next frame. */
static const OctoSourceMessage *
next_versions (SimStream *st, OctoTime capture)
{
  OctoSourceMessage msgs[OCTO_SOURCE_MAX_MESSAGES];

  for (guint l = 0; l < st->n_levels; l++) {
    octo_trace_source_next_frame (st->level_sources[l], capture, 0, msgs);
    st->versions[l] = msgs[0];
  }
  return st->versions;
}

/* The endpoint decides at @now what the frame captured at @capture
 * becomes: fills @msgs, returns how many, and whether it is sent at all. */
static guint
decide_frame (SimStream *st, OctoTime capture, OctoTime now,
    OctoSourceMessage *msgs, guint *level, gboolean *send)
{
  const OctoSourceMessage *versions;
  guint64 budget, queued, bps;
  gboolean idle;
  guint n = 1;

  *send = TRUE;
  switch (st->scheme->endpoint) {
    case SIM_ENDPOINT_SALSIFY:
      budget = sim_salsify_budget (st->salsify, now, &idle);
      if (!st->level_sources) {
        n = octo_trace_source_next_frame (st->source, capture, 0, msgs);
        *send = octo_salsify_choose (budget, &msgs[0].size, 1, idle) == 0;
        *level = 0;
      } else {
        /* the codec offers a slightly better and a slightly worse version
         * than the previous frame's */
        guint up = MIN (st->level + 1, st->n_levels - 1);
        guint down = st->level > 0 ? st->level - 1 : 0;
        guint32 sizes[2];
        gint pick;
        versions = next_versions (st, capture);
        sizes[0] = versions[up].size;
        sizes[1] = versions[down].size;
        pick = octo_salsify_choose (budget, sizes, 2, idle);
        *send = pick >= 0;
        if (pick >= 0)
          st->level = pick == 0 ? up : down;
        *level = st->level;
        msgs[0] = versions[st->level];
      }
      return n;
    case SIM_ENDPOINT_AWSTREAM:
      awstream_inputs (st, now, &queued, &bps);
      if (!st->level_sources) {
        /* the app looks at its queue when it has a frame to send: at a low
         * frame rate the frame before may take more than a tick to leave */
        n = octo_trace_source_next_frame (st->source, capture, 0, msgs);
        *level = octo_awstream_level (st->awstream);
        if (msgs[0].keyframe || msgs[0].layer < *level)
          *level = octo_awstream_update (st->awstream, now, queued, bps);
        *send = msgs[0].keyframe || msgs[0].layer < *level;
      } else {
        *level = octo_awstream_update (st->awstream, now, queued, bps);
        versions = next_versions (st, capture);
        msgs[0] = versions[*level];
      }
      submit_padding (st, octo_awstream_probe_bps (st->awstream));
      return n;
    case SIM_ENDPOINT_VIVO:
      for (VivoSample *s; (s = g_queue_peek_head (&st->vivo_samples))
          && s->due <= now; g_free (g_queue_pop_head (&st->vivo_samples)))
        octo_vivo_on_frame (&st->vivo, s->bytes, s->start, s->end);
      n = octo_trace_source_next_frame (st->source, capture,
          link_rate (st, octo_vivo_estimate (&st->vivo)), msgs);
      *level = octo_trace_source_level (st->source);
      /* the client fetches: a frame nobody asked for is skipped */
      *send = octo_vivo_may_send (&st->vivo);
      if (*send)
        octo_vivo_on_send (&st->vivo);
      return n;
    default:
      if (octo_sender_take_restart (sim_world_flow_sender (st->world,
                  st->flow), now))
        octo_trace_source_restart (st->source);
      n = octo_trace_source_next_frame (st->source, capture,
          octo_sender_app_rate (sim_world_flow_sender (st->world,
                  st->flow)), msgs);
      *level = octo_trace_source_level (st->source);
      return n;
  }
}

/* Salsify's functional codec encodes each frame against the newest state
 * the receiver may have: the newest frame sent that is not known to be
 * undecodable there.  The sender knows a frame's fate from the ACKs, one
 * propagation delay after the fact: arrived (and its reference good), or
 * lost (a later frame arrived first, the path being FIFO). */
#define SALSIFY_REF_WINDOW 64

typedef enum { REF_UNKNOWN, REF_GOOD, REF_BAD, REF_UNSENT } RefState;

static gint32
salsify_ref (const SimStream *st, OctoTime now)
{
  const OctoFrameRecord *fr = (const OctoFrameRecord *) st->frames->data;
  OctoTime known = now > st->one_way ? now - st->one_way : 0;
  guint n = st->frames->len, start = n > SALSIFY_REF_WINDOW ?
      n - SALSIFY_REF_WINDOW : 0;
  RefState state[SALSIFY_REF_WINDOW];
  gint64 newest_acked = -1;

  for (guint f = start; f < n; f++)
    if (fr[f].n_layers > 0 && fr[f].arrival[0] <= known)
      newest_acked = f;
  for (guint f = start; f < n; f++) {
    RefState ref = fr[f].ref < (gint32) start ? REF_GOOD :
        state[fr[f].ref - start];
    RefState *out = &state[f - start];
    if (fr[f].n_layers == 0)
      *out = REF_UNSENT;
    else if (ref == REF_BAD)
      *out = REF_BAD;
    else if (fr[f].arrival[0] <= known)
      *out = ref;
    else
      *out = (gint64) f < newest_acked ? REF_BAD : REF_UNKNOWN;
  }
  for (guint f = n; f-- > start;)
    if (state[f - start] == REF_GOOD || state[f - start] == REF_UNKNOWN)
      return (gint32) f;
  return -1;
}

void
sim_stream_submit_frame (SimStream *st, OctoTime capture, OctoTime now)
{
  OctoSourceMessage msgs[OCTO_SOURCE_MAX_MESSAGES];
  OctoFrameRecord rec = { .capture = capture, .ref = -1 };
  guint level = 0;
  gboolean send;
  guint n = decide_frame (st, capture, now, msgs, &level, &send);
  guint8 tl = msgs[0].layer;
  VivoFrame vf = { 0, 0, now };

  rec.n_layers = send ? n : 0;
  rec.gop_start = msgs[0].keyframe;
  if (st->salsify && !rec.gop_start)
    rec.ref = salsify_ref (st, now);
  for (guint i = 0; i < rec.n_layers; i++) {
    const OctoSourceMessage *m = &msgs[i];
    OctoMsgInfo info;

    octo_msg_info_init (&info);
    info.capture_time = capture;
    info.frame_id = m->frame;
    if (st->kind == OCTO_SOURCE_TEMPORAL)
      info.temporal_layer = m->layer;
    else if (st->kind == OCTO_SOURCE_QUALITY)
      info.spatial_layer = st->level_sources ? 0 : m->layer;
    else {
      info.cell_id = m->cell;
      info.density_layer = m->layer;
    }
    if (m->keyframe)
      info.flags |= OCTO_MSG_FLAG_KEYFRAME;
    rec.arrival[i] = OCTO_TIME_NONE;
    rec.quality[i] = m->quality;
    st->result->messages_sent++;
    st->result->bytes_sent += m->size;
    vf.bytes += m->size;
    if (st->gcc)
      sim_gcc_on_app_bytes (st->gcc, m->size, now);
    sim_world_submit_flow (st->world, st->flow, &m->header, &info, m->size);
  }
  vf.bytes_left = vf.bytes;
  g_array_append_val (st->frames, rec);
  g_array_append_val (st->levels, level);
  g_array_append_val (st->keyframe, msgs[0].keyframe);
  g_array_append_val (st->temporal_layer, tl);
  if (st->vivo_frames)
    g_array_append_val (st->vivo_frames, vf);
}

static void
collect_drops (SimStream *st)
{
  OctoSender *sender = sim_world_flow_sender (st->world, st->flow);
  const OctoQdiscStats *q = octo_qdisc_get_stats (sim_world_down_queue
      (st->world));
  SimResult *r = st->result;
  OctoSenderStats ss;

  for (guint i = 0; i < OCTO_DROP_N_REASONS; i++)
    r->network_drops[i] = q->packets_dropped[i];
  if (!sender)
    return;
  octo_sender_get_stats (sender, &ss);
  for (guint i = 0; i < OCTO_DROP_N_REASONS; i++) {
    r->sender_drops[i] = ss.session.buffer->packets_dropped[i];
    for (guint p = 0; p < OCTO_N_PRIORITIES; p++)
      r->sender_message_drops[i][p] = ss.session.buffer->messages_dropped[i][p];
  }
}

gboolean
sim_stream_prepare (SimStream *st, const SimScheme *scheme,
    OctoSourceKind kind, guint flow, const gchar *video,
    const OctoTrace *down_trace, OctoTime one_way, gint slack_ms,
    GError **error)
{
  gboolean per_level = kind == OCTO_SOURCE_QUALITY
      && (scheme->endpoint == SIM_ENDPOINT_SALSIFY
      || scheme->endpoint == SIM_ENDPOINT_AWSTREAM);

  st->scheme = scheme;
  st->kind = kind;
  st->flow = flow;
  st->one_way = one_way;
  g_queue_init (&st->vivo_samples);
  octo_vivo_init (&st->vivo);
  octo_trace_source_config_init (&st->sc, kind);
  switch (kind) {
    case OCTO_SOURCE_TEMPORAL:
      st->temporal = octo_temporal_trace_load (video, error);
      st->sc.temporal = st->temporal;
      break;
    case OCTO_SOURCE_QUALITY:
      st->quality = octo_quality_trace_load (video, error);
      st->sc.quality = st->quality;
      break;
    default:
      st->cloud = octo_cloud_trace_load (video, error);
      st->sc.cloud = st->cloud;
      st->n_cells = st->cloud ? st->cloud->n_cells : 0;
      break;
  }
  if (!st->temporal && !st->quality && !st->cloud)
    return FALSE;
  st->sc.tag = scheme->tag;
  st->sc.adapt = scheme->adapt;
  st->sc.slack_ms = slack_ms;
  if (over_tcp (st)) {
    st->sc.payload = OCTO_TCP_MSS;
    st->sc.overhead = TCP_OVERHEAD;
  } else {
    st->sc.payload = OCTO_SENDER_DEFAULT_MTU - OCTO_DATA_PREFIX_LEN;
    st->sc.overhead = OCTO_DATA_PREFIX_LEN + OCTO_LINK_OVERHEAD;
  }
  if (!st->sc.adapt)
    /* a non-adapting app keeps the best level the trace's mean affords */
    st->sc.fixed_level = octo_trace_source_pick_level (&st->sc,
        octo_trace_mean_bps (down_trace));
  st->sc.single_layer = scheme->endpoint == SIM_ENDPOINT_GCC;
  st->sc.single_layer_size = SINGLE_LAYER_SIZE;
  if (per_level) {
    st->n_levels = st->quality->n_levels;
    st->level_sources = g_new0 (OctoTraceSource *, st->n_levels);
    st->versions = g_new0 (OctoSourceMessage, st->n_levels);
    for (guint l = 0; l < st->n_levels; l++) {
      OctoTraceSourceConfig sc = st->sc;
      sc.adapt = FALSE;
      sc.fixed_level = l;
      sc.single_layer = TRUE;
      st->level_sources[l] = octo_trace_source_new (&sc, error);
    }
    st->source = st->level_sources[0];
  } else
    st->source = octo_trace_source_new (&st->sc, error);
  if (!st->source)
    return FALSE;
  st->frames = g_array_new (FALSE, TRUE, sizeof (OctoFrameRecord));
  st->levels = g_array_new (FALSE, TRUE, sizeof (guint));
  st->keyframe = g_array_new (FALSE, TRUE, sizeof (gboolean));
  st->temporal_layer = g_array_new (FALSE, TRUE, sizeof (guint8));
  if (scheme->endpoint == SIM_ENDPOINT_VIVO)
    st->vivo_frames = g_array_new (FALSE, TRUE, sizeof (VivoFrame));
  st->result = g_new0 (SimResult, 1);
  return TRUE;
}

/* AWStream's ladder, as link rates: case 1 the frame-rate subsets of the
 * trace (their mean rates), case 2 the quality levels. */
static OctoAwstream *
new_awstream (SimStream *st)
{
  OctoAwstreamConfig config;
  guint n = st->temporal ? FRAMERATE_LEVELS : st->n_levels;
  guint64 *rates = g_new (guint64, n);
  OctoAwstream *aw;

  octo_awstream_config_init (&config);
  if (st->temporal) {
    const OctoTemporalTrace *t = st->temporal;
    for (guint l = 0; l < n; l++) {
      gdouble bytes = 0;
      for (guint f = 0; f < t->n_frames; f++)
        if (t->frames[f].keyframe || t->frames[f].temporal_layer < l)
          bytes += t->frames[f].size;
      rates[l] = link_rate (st, bytes * 8 * OCTO_SECOND / t->n_frames /
          octo_trace_source_frame_interval (st->source));
    }
  } else {
    for (guint l = 0; l < n; l++)
      rates[l] = link_rate (st, st->quality->levels[l].aggregate_kbps * 1000.0
          * SINGLE_LAYER_SIZE);
  }
  aw = octo_awstream_new (&config, rates, n, 0);
  g_free (rates);
  return aw;
}

void
sim_stream_start (SimStream *st, SimWorld *world)
{
  st->world = world;
  sim_world_set_flow_message_func (world, st->flow, on_message, st);
  switch (st->scheme->endpoint) {
    case SIM_ENDPOINT_GCC:
      st->gcc = sim_gcc_new (world, st->flow, st->one_way, 2 * st->one_way);
      break;
    case SIM_ENDPOINT_SALSIFY:
      st->salsify = sim_salsify_new (world, st->flow, st->one_way,
          st->sc.payload);
      break;
    case SIM_ENDPOINT_AWSTREAM:
      st->awstream = new_awstream (st);
      break;
    default:
      break;
  }
}

/* The frames' references for single-layer encodings (WebRTC, AWStream):
 * each frame predicts from the newest frame sent before it, key frames from
 * none. */
static void
single_layer_refs (OctoFrameRecord *frames, guint n)
{
  gint32 last_sent = -1;

  for (guint f = 0; f < n; f++) {
    frames[f].ref = frames[f].gop_start ? -1 : last_sent;
    if (frames[f].n_layers > 0)
      last_sent = (gint32) f;
  }
}

guint
sim_stream_level (const SimStream *st)
{
  return st->levels->len ?
      g_array_index (st->levels, guint, st->levels->len - 1) : 0;
}

void
sim_stream_finish (SimStream *st, OctoTime end)
{
  SimResult *r = st->result;
  OctoFrameRecord *frames = (OctoFrameRecord *) st->frames->data;
  SimEndpointKind endpoint = st->scheme->endpoint;
  OctoDecodeModel model = st->kind == OCTO_SOURCE_TEMPORAL ?
      OCTO_DECODE_TEMPORAL : st->kind == OCTO_SOURCE_QUALITY ?
      OCTO_DECODE_LAYERED : OCTO_DECODE_INDEPENDENT;

  r->n_frames = st->frames->len;
  if (endpoint == SIM_ENDPOINT_SALSIFY)
    /* references chosen frame by frame as it sent them */
    model = OCTO_DECODE_TEMPORAL;
  else if (endpoint == SIM_ENDPOINT_GCC || st->level_sources) {
    single_layer_refs (frames, r->n_frames);
    model = OCTO_DECODE_TEMPORAL;
  } else if (model == OCTO_DECODE_TEMPORAL)
    octo_metrics_temporal_refs (frames, r->n_frames,
        (gboolean *) st->keyframe->data, (guint8 *) st->temporal_layer->data);
  r->outcomes = g_new0 (OctoFrameOutcome, MAX (r->n_frames, 1u));
  octo_metrics_compute (frames, r->n_frames, model, end, r->outcomes,
      &r->summary);
  collect_drops (st);
  r->frames = (OctoFrameRecord *) g_array_free (st->frames, FALSE);
  r->levels = (guint *) g_array_free (st->levels, FALSE);
  r->temporal_layers = (guint8 *) g_array_free (st->temporal_layer, FALSE);
  st->frames = st->levels = st->temporal_layer = NULL;
}

void
sim_stream_clear (SimStream *st)
{
  if (st->level_sources) {
    for (guint l = 0; l < st->n_levels; l++)
      octo_trace_source_free (st->level_sources[l]);
    g_free (st->level_sources);
    g_free (st->versions);
  } else
    octo_trace_source_free (st->source);
  sim_gcc_free (st->gcc);
  sim_salsify_free (st->salsify);
  octo_awstream_free (st->awstream);
  g_queue_clear_full (&st->vivo_samples, g_free);
  if (st->vivo_frames)
    g_array_free (st->vivo_frames, TRUE);
  if (st->frames)
    g_array_free (st->frames, TRUE);
  if (st->levels)
    g_array_free (st->levels, TRUE);
  if (st->temporal_layer)
    g_array_free (st->temporal_layer, TRUE);
  if (st->keyframe)
    g_array_free (st->keyframe, TRUE);
  sim_result_free (st->result);
  octo_temporal_trace_free (st->temporal);
  octo_quality_trace_free (st->quality);
  octo_cloud_trace_free (st->cloud);
}


OctoTime
sim_stream_run (SimStream *st, OctoTime now)
{
  return st->gcc ? sim_gcc_run (st->gcc, now) : OCTO_TIME_NONE;
}
