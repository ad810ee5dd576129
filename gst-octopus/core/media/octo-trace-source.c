#include "octo-trace-source.h"

#include <string.h>

#include "octo-metrics.h"

struct _OctoTraceSource {
  OctoTraceSourceConfig config;
  guint64 next_frame;
  guint64 skipped;              /* trace frames skipped by restarts */
  gboolean restart;             /* the next frame starts a GoP */
  guint level;
};

void
octo_trace_source_config_init (OctoTraceSourceConfig *config,
    OctoSourceKind kind)
{
  memset (config, 0, sizeof (*config));
  config->kind = kind;
  config->tag = TRUE;
  config->adapt = TRUE;
  config->payload = 1400;
  config->overhead = 28 + 12;
  config->single_layer_size = 1.0;
  config->slack_ms = -1;
}

OctoTraceSource *
octo_trace_source_new (const OctoTraceSourceConfig *config, GError **error)
{
  OctoTraceSource *s;
  const gchar *missing = NULL;

  switch (config->kind) {
    case OCTO_SOURCE_TEMPORAL:
      missing = config->temporal ? NULL : "a temporal trace";
      break;
    case OCTO_SOURCE_QUALITY:
      missing = config->quality ? NULL : "a quality trace";
      if (!missing && config->fixed_level >= config->quality->n_levels)
        missing = "a fixed level the quality trace has";
      break;
    case OCTO_SOURCE_CLOUD:
      missing = config->cloud ? NULL : "a point-cloud trace";
      if (!missing && config->cloud->n_layers * config->cloud->n_cells >
          OCTO_SOURCE_MAX_MESSAGES)
        missing = "a point-cloud trace of at most 24 layers x cells";
      if (!missing && config->fixed_level >= config->cloud->n_layers)
        missing = "a fixed top layer the point-cloud trace has";
      break;
  }
  if (missing) {
    g_set_error (error, OCTO_VIDEO_TRACE_ERROR, 0,
        "trace source needs %s", missing);
    return NULL;
  }
  s = g_new0 (OctoTraceSource, 1);
  s->config = *config;
  s->level = config->fixed_level;
  return s;
}

void
octo_trace_source_free (OctoTraceSource *source)
{
  g_free (source);
}

/* the 2D traces say their rate (default 30 fps), dance.trace is 20 fps */
static guint
fps (const OctoTraceSource *s)
{
  switch (s->config.kind) {
    case OCTO_SOURCE_TEMPORAL:
      return s->config.temporal->fps;
    case OCTO_SOURCE_QUALITY:
      return s->config.quality->fps;
    case OCTO_SOURCE_CLOUD:
      break;
  }
  return 20;
}

OctoTime
octo_trace_source_frame_interval (const OctoTraceSource *s)
{
  return OCTO_SECOND / fps (s);
}

OctoTime
octo_trace_source_capture_time (const OctoTraceSource *s, guint64 frame)
{
  return frame * OCTO_SECOND / fps (s);
}

guint
octo_trace_source_level (const OctoTraceSource *s)
{
  return s->level;
}

static guint64
link_rate (const OctoTraceSourceConfig *c, guint32 kbps)
{
  return octo_preset_link_rate ((guint64) kbps * 1000, c->payload,
      c->overhead);
}

guint
octo_trace_source_pick_level (const OctoTraceSourceConfig *c,
    guint64 estimate_bps)
{
  guint level = 0;

  /* levels are compared as link rates, like the estimate */
  if (c->kind == OCTO_SOURCE_QUALITY) {
    for (guint i = 0; i < c->quality->n_levels; i++)
      if (link_rate (c, c->quality->levels[i].aggregate_kbps) <= estimate_bps)
        level = i;
  } else if (c->kind == OCTO_SOURCE_CLOUD) {
    for (guint i = 0; i < c->cloud->n_layers; i++)
      if (link_rate (c, c->cloud->cumulative_kbps[i]) <= estimate_bps)
        level = i;
  }
  return level;
}

void
octo_trace_source_restart (OctoTraceSource *s)
{
  s->restart = TRUE;
}

/* Whether trace frame @pos starts a GoP. */
static gboolean
gop_start_at (const OctoTraceSource *s, guint64 pos)
{
  switch (s->config.kind) {
    case OCTO_SOURCE_TEMPORAL:
      return s->config.temporal->frames[pos %
          s->config.temporal->n_frames].keyframe;
    case OCTO_SOURCE_QUALITY:
      return pos % s->config.quality->gop_len == 0;
    case OCTO_SOURCE_CLOUD:
      break;
  }
  return TRUE;
}

/* The trace position of @frame, after a pending restart skipped ahead to
 * the next GoP start (within one pass of the trace: a temporal trace
 * starts with a key frame). */
static guint64
trace_position (OctoTraceSource *s, guint64 frame)
{
  if (s->restart) {
    s->restart = FALSE;
    while (!gop_start_at (s, frame + s->skipped))
      s->skipped++;
  }
  return frame + s->skipped;
}

static guint
temporal_frame (OctoTraceSource *s, guint64 pos, OctoSourceMessage *out)
{
  const OctoTemporalTrace *t = s->config.temporal;
  const OctoTemporalFrame *f = &t->frames[pos % t->n_frames];

  out->layer = f->temporal_layer;
  out->keyframe = f->keyframe;
  out->size = f->size;
  out->quality = octo_ssim_from_db (f->ssim_db);
  if (s->config.tag)
    octo_preset_framerate (f->keyframe, f->temporal_layer, &out->header);
  return 1;
}

static guint
quality_frame (OctoTraceSource *s, guint64 pos, guint64 estimate,
    OctoSourceMessage *out)
{
  const OctoQualityTrace *t = s->config.quality;
  gboolean gop_start = pos % t->gop_len == 0;
  const OctoQualityLevel *level;
  const OctoQualityFrame *f;

  if ((gop_start || s->config.single_layer) && s->config.adapt)
    s->level = octo_trace_source_pick_level (&s->config, estimate);
  level = &t->levels[s->level];
  f = &level->frames[pos % t->n_frames];
  if (s->config.single_layer) {
    guint64 bytes = 0;
    for (guint k = 0; k < t->n_layers; k++)
      bytes += f->bytes[k];
    out->keyframe = gop_start;
    /* a trace of one layer is already a single-layer encoding: no SVC
     * overhead to credit */
    if (t->n_layers > 1)
      bytes = (guint64) (bytes * s->config.single_layer_size + 0.5);
    out->size = (guint32) bytes;
    out->quality = octo_ssim_from_db (f->ssim_db[t->n_layers - 1]);
    return 1;
  }
  for (guint k = 0; k < t->n_layers; k++) {
    OctoSourceMessage *m = &out[k];
    m->index = k;
    m->layer = k;
    m->keyframe = gop_start;
    m->size = f->bytes[k];
    m->quality = octo_ssim_from_db (f->ssim_db[k]);
    if (s->config.tag)
      octo_preset_quality (k, gop_start,
          link_rate (&s->config, level->cumulative_kbps[k]), &m->header);
  }
  return t->n_layers;
}

static guint
cloud_frame (OctoTraceSource *s, guint64 frame, guint64 estimate,
    OctoSourceMessage *out)
{
  const OctoCloudTrace *t = s->config.cloud;
  guint n = 0;

  if (s->config.adapt)
    s->level = octo_trace_source_pick_level (&s->config, estimate);
  for (guint layer = 0; layer <= s->level; layer++)
    for (guint cell = 0; cell < t->n_cells; cell++) {
      OctoSourceMessage *m = &out[n];
      m->index = n++;
      m->layer = layer;
      m->cell = cell;
      m->size = octo_cloud_trace_bytes (t, frame % t->n_frames, layer, cell);
      /* fraction of the full frame's points: layers are equal subsets */
      m->quality = 1.0 / (t->n_layers * t->n_cells);
      if (s->config.tag)
        octo_preset_volumetric_trace (cell, layer, frame, &m->header);
    }
  return n;
}

guint
octo_trace_source_next_frame (OctoTraceSource *s, OctoTime capture,
    guint64 estimate_bps, OctoSourceMessage *out)
{
  guint64 frame = s->next_frame++, pos = trace_position (s, frame);
  guint n;

  memset (out, 0, sizeof (OctoSourceMessage) * OCTO_SOURCE_MAX_MESSAGES);
  switch (s->config.kind) {
    case OCTO_SOURCE_TEMPORAL:
      n = temporal_frame (s, pos, out);
      break;
    case OCTO_SOURCE_QUALITY:
      n = quality_frame (s, pos, estimate_bps, out);
      break;
    default:
      n = cloud_frame (s, frame, estimate_bps, out);
      break;
  }
  for (guint i = 0; i < n; i++) {
    out[i].frame = frame;
    out[i].capture = capture;
    if (s->config.tag && s->config.slack_ms >= 0)
      out[i].header.slack_ms = (guint16) MIN (s->config.slack_ms,
          OCTO_SLACK_MS_MAX);
  }
  return n;
}
