/* One app stream of a simulated run: the case study's trace-playing app
 * with its endpoint (the trace source's own rule on the transport's
 * estimate, or a baseline: GCC, Salsify, AWStream, ViVo) on one flow of
 * the world, and the records its metrics come from.  Private to the
 * simulator (sim-run.c). */
#pragma once

#include "baselines/octo-awstream.h"
#include "baselines/octo-vivo.h"
#include "sim-gcc.h"
#include "sim-run.h"
#include "sim-salsify.h"

G_BEGIN_DECLS

/* AWStream over TCP estimates the bandwidth as the goodput of the last
 * second (30 frames) */
#define SIM_GOODPUT_FRAMES 31

typedef struct {
  const SimScheme *scheme;
  OctoSourceKind kind;
  OctoTime one_way;
  SimWorld *world;              /* from sim_stream_start() */
  guint flow;
  OctoTemporalTrace *temporal;
  OctoQualityTrace *quality;
  OctoCloudTrace *cloud;
  OctoTraceSourceConfig sc;
  OctoTraceSource *source;
  /* Salsify and AWStream in case 2: one single-layer source per quality
   * level, each asked for every frame, so the app knows every version */
  OctoTraceSource **level_sources;
  OctoSourceMessage *versions;  /* the next frame at each level */
  guint n_levels;
  guint n_cells;
  SimGcc *gcc;
  SimSalsify *salsify;
  OctoAwstream *awstream;
  guint level;                  /* Salsify: the previous frame's level */
  OctoVivoEstimator vivo;
  GQueue vivo_samples;          /* on their way to the sender */
  GArray *vivo_frames;          /* per frame: bytes still to come */
  OctoTime vivo_last_complete;
  guint64 acked[SIM_GOODPUT_FRAMES];
  OctoTime acked_time[SIM_GOODPUT_FRAMES];
  guint n_goodput;
  GArray *frames;               /* OctoFrameRecord */
  GArray *levels;               /* guint */
  GArray *keyframe;             /* gboolean, for the temporal model */
  GArray *temporal_layer;       /* guint8 */
  SimResult *result;
} SimStream;

/* Loads @video and sets up the app for @flow (before the world exists);
 * @down_trace gives a non-adapting app its fixed level; @slack_ms (-1: the
 * preset's) goes on every message it tags. */
gboolean sim_stream_prepare (SimStream *st, const SimScheme *scheme,
    OctoSourceKind kind, guint flow, const gchar *video,
    const OctoTrace *down_trace, OctoTime one_way, gint slack_ms,
    GError **error);
/* Hooks the stream's endpoint into @world. */
void sim_stream_start (SimStream *st, SimWorld *world);
/* The app with the frame captured at @capture, encoded at @now: decides
 * the frame and submits it. */
void sim_stream_submit_frame (SimStream *st, OctoTime capture, OctoTime now);
/* When the endpoint's transport feedback needs running (GCC), or
 * OCTO_TIME_NONE. */
OctoTime sim_stream_run (SimStream *st, OctoTime now);
/* The level of the newest frame (0 before the first). */
guint sim_stream_level (const SimStream *st);
/* Computes the metrics of the run that ended at @end into st->result. */
void sim_stream_finish (SimStream *st, OctoTime end);
/* Frees everything but a result taken out of st->result. */
void sim_stream_clear (SimStream *st);

G_END_DECLS
