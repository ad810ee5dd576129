/* gst-octopus core: the quality-of-experience metrics of docs/design.md, one
 * implementation for the simulator and for per-frame logs of real runs.
 *
 * A run is the frames one sender produced, in capture order, with the time
 * each of their layers (messages) arrived whole at the receiver.  From it:
 *
 *  - decodability, by one of three reference models (the presets');
 *  - which frames are shown: a frame is shown if it becomes decodable (its
 *    base layer) before any newer frame was shown; it is shown at its highest
 *    decodable layer among those decodable by the time the next newer frame
 *    was shown, and its show time is when that layer became decodable;
 *  - frame latency (show - capture), AoI (at each show, just before it, now -
 *    capture of the newest frame shown so far; plus one sample at the end of
 *    the run), and SQI-SSIM (a frame not shown scores the last shown frame's
 *    SSIM x exp(-dt / tau), dt between their capture times).
 *
 * Percentiles interpolate linearly between order statistics (numpy's
 * default), so scripts can cross-check. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_METRICS_MAX_LAYERS 24

typedef enum {
  /* framerate preset: one layer per frame; decodable = arrived and its
   * reference frame (ref) decodable; ref < 0 for key frames */
  OCTO_DECODE_TEMPORAL,
  /* quality preset: layer k of frame f needs layers 0..k-1 of f and layer k
   * of f-1 unless f starts a GoP; quality[k] = SSIM when shown up to k */
  OCTO_DECODE_LAYERED,
  /* volumetric: every layer decodes on its own; a frame's quality is the sum
   * of quality[k] over the layers it used (e.g. fractions of points) */
  OCTO_DECODE_INDEPENDENT,
} OctoDecodeModel;

typedef struct {
  OctoTime capture;
  guint n_layers;
  OctoTime arrival[OCTO_METRICS_MAX_LAYERS];    /* OCTO_TIME_NONE: never whole */
  gdouble quality[OCTO_METRICS_MAX_LAYERS];     /* linear SSIM (see model) */
  gint32 ref;                   /* TEMPORAL: index of the referenced frame */
  gboolean gop_start;           /* LAYERED: no reference to the previous frame */
  /* LAYERED: bit k: layer k references no earlier frame, only the layers
   * below it (a spatial sync: octopussvcenc spatial-sync) */
  guint32 layer_start;
} OctoFrameRecord;

typedef struct {
  gboolean shown;
  OctoTime show_time;
  guint32 layers_used;          /* bit k: layer k used */
  gdouble quality;              /* as shown; 0 if not shown */
} OctoFrameOutcome;

#define OCTO_METRICS_N_TAUS 3
/* SQI decay constants: the headline (1 s) first, then the sensitivity pair. */
extern const gdouble octo_metrics_taus[OCTO_METRICS_N_TAUS];

typedef struct {
  guint n_frames, n_shown;
  gdouble p50_latency_ms, p99_latency_ms;
  gdouble median_aoi_ms, p99_aoi_ms;
  gdouble sqi_ssim[OCTO_METRICS_N_TAUS];        /* at octo_metrics_taus */
} OctoMetricsSummary;

/* Fills @ref of every frame of a framerate-preset stream from key flags and
 * temporal layer ids: TL0 -> the previous TL0 or key frame, TL1 -> the most
 * recent TL0/key, TL2 -> the most recent TL0/TL1/key; key frames -> -1. */
void octo_metrics_temporal_refs (OctoFrameRecord *frames, guint n,
    const gboolean *keyframe, const guint8 *temporal_layer);

/* Computes @outcomes (n entries) and the summary; @end is the run's end,
 * for the last AoI sample. */
void octo_metrics_compute (const OctoFrameRecord *frames, guint n,
    OctoDecodeModel model, OctoTime end, OctoFrameOutcome *outcomes,
    OctoMetricsSummary *summary);

/* Linear-interpolated percentile (0..100) of @n samples; sorts @samples. */
gdouble octo_percentile (gdouble *samples, guint n, gdouble pct);

/* Link utilisation, the project's one definition: the link bytes (IP
 * datagrams) of the messages delivered whole over the capacity the link
 * offered in the same span.  A message that lost a packet counts nothing,
 * and bandwidth probes (padding) are not messages; 0 without capacity. */
gdouble octo_utilisation (guint64 whole_message_link_bytes,
    guint64 capacity_bytes);

/* SSIM from the traces' dB form: 1 - 10^(-dB/10). */
gdouble octo_ssim_from_db (gdouble db);

G_END_DECLS
