/* gst-octopus core: an application that plays an encoded-video trace, as
 * the papers' experiments do: frame by frame, each frame's messages with
 * their sizes, quality and the preset's dropping fields.  The quality
 * trace's level is chosen per GoP and the point cloud's layer count per
 * frame, from the bandwidth estimate the caller passes (the transport's).
 * The trace loops; a restart (octo_trace_source_restart) skips to its next
 * GoP start.  Used by the trace-replay element and by the simulator. */
#pragma once

#include "octo-preset.h"
#include "octo-video-trace.h"

G_BEGIN_DECLS

typedef enum {
  OCTO_SOURCE_TEMPORAL,         /* case 1: *-temp.trace, 30 fps */
  OCTO_SOURCE_QUALITY,          /* case 2: *-quality.trace, 30 fps */
  OCTO_SOURCE_CLOUD,            /* case 3: dance.trace, 20 fps */
} OctoSourceKind;

typedef struct {
  OctoSourceKind kind;
  const OctoTemporalTrace *temporal;    /* borrowed; the one for @kind */
  const OctoQualityTrace *quality;
  const OctoCloudTrace *cloud;
  gboolean tag;                 /* FALSE: no dropping parameters (policy none) */
  gboolean adapt;               /* FALSE: a fixed level, never the estimate */
  guint fixed_level;            /* quality level / cloud top layer when !adapt */
  /* quality only: the endpoint baselines' single-layer encoding: one
   * message per frame, the level re-chosen every frame, the size of the
   * level's layers scaled by @single_layer_size (< 1: no SVC overhead) */
  gboolean single_layer;
  gdouble single_layer_size;
  guint payload;                /* per-packet payload and header overhead, */
  guint overhead;               /* to turn media rates into link rates */
  /* slack_ms of every tagged message, as octopustag's slack property: a
   * message is droppable only after its head waited that long; -1 (the
   * default): the preset's (quality: OCTO_PRESET_QUALITY_SLACK_MS, else 0) */
  gint slack_ms;
} OctoTraceSourceConfig;

void octo_trace_source_config_init (OctoTraceSourceConfig *config,
    OctoSourceKind kind);

typedef struct {
  guint64 frame;                /* frame id, counting across loops */
  guint index;                  /* position within the frame, send order */
  guint layer;                  /* temporal, spatial or density layer */
  guint cell;
  guint32 size;                 /* bytes */
  OctoTime capture;
  gboolean keyframe;            /* a GoP start (temporal, quality) */
  gdouble quality;              /* linear; see octo-metrics.h models */
  OctoHeader header;            /* the preset's dropping fields, rest zero */
} OctoSourceMessage;

#define OCTO_SOURCE_MAX_MESSAGES 24

typedef struct _OctoTraceSource OctoTraceSource;

OctoTraceSource *octo_trace_source_new (const OctoTraceSourceConfig *config,
    GError **error);
void octo_trace_source_free (OctoTraceSource *source);

OctoTime octo_trace_source_frame_interval (const OctoTraceSource *source);
/* Capture time of frame @frame from the start, without rounding drift. */
OctoTime octo_trace_source_capture_time (const OctoTraceSource *source,
    guint64 frame);
/* Produces frame @frame (frames must be asked in order from 0) captured at
 * @capture, given the current estimate; returns the number of messages
 * written to @out (<= OCTO_SOURCE_MAX_MESSAGES). */
guint octo_trace_source_next_frame (OctoTraceSource *source,
    OctoTime capture, guint64 estimate_bps, OctoSourceMessage *out);
/* Asks for a key frame (an encoder's force-key-unit): the next frame starts
 * a GoP.  The trace skips ahead to its next GoP start (quality: the next
 * multiple of gop_len; temporal: the next key frame), so the next frame and
 * the ones after it are the trace's frames from there, and a quality
 * source re-chooses its level there.  A point cloud has no GoP: nothing
 * changes. */
void octo_trace_source_restart (OctoTraceSource *source);
/* The highest quality level, or the highest cloud layer, whose cumulative
 * link rate is <= @estimate_bps (0 if none): the apps' choice rule. */
guint octo_trace_source_pick_level (const OctoTraceSourceConfig *config,
    guint64 estimate_bps);
/* The level (quality) or top layer (cloud) in use. */
guint octo_trace_source_level (const OctoTraceSource *source);

G_END_DECLS
