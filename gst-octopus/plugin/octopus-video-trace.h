/* Video traces from the Octopus artifact (data/traces/video, see the
 * traces README): per-frame or per-layer sizes and SSIM of real encodings.
 *
 *  temporal   "GOP" then "frame size ssim_dB"        (VP8, 3 temporal layers)
 *  quality    "GOP LAYERS" then "level_kbps frame layer bytes cum_kbps ssim_dB"
 *  pointcloud "LAYERS CELLS FRAMES" then "frame layer cell bytes cum_kbps"
 *
 * The format is recognised from the first line's field count. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  OCTOPUS_TRACE_TEMPORAL,
  OCTOPUS_TRACE_QUALITY,
  OCTOPUS_TRACE_POINTCLOUD,
} OctopusTraceKind;

typedef struct {
  guint32 size;
  guint32 cum_kbps;             /* cumulative rate up to this layer; 0 if n/a */
  gdouble ssim_db;              /* NaN if the trace has none */
} OctopusTraceEntry;

typedef struct {
  OctopusTraceKind kind;
  guint gop;                    /* temporal, quality */
  guint n_layers;               /* quality: per frame; pointcloud: density */
  guint n_cells;                /* pointcloud */
  guint n_frames;
  guint n_levels;               /* quality: bitrate levels, ascending */
  guint32 *level_kbps;
  guint fps;                    /* frames per second */
  OctopusTraceEntry *entries;
} OctopusTrace;

OctopusTrace *octopus_trace_load (const gchar *path, GError **error);
void octopus_trace_free (OctopusTrace *trace);

/* temporal: (frame); quality: (level, frame, layer); pointcloud:
 * (frame, layer, cell).  Unused indices are 0. */
const OctopusTraceEntry *octopus_trace_entry (const OctopusTrace *trace,
    guint level, guint frame, guint layer, guint cell);

G_END_DECLS
