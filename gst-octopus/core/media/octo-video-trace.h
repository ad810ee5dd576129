/* gst-octopus core: the encoded-video traces of the Octopus artifact
 * (data/traces/video/, format in data/traces/README.md).  Parsing reads a
 * whole file; errors name the file, the line and the reason. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_VIDEO_TRACE_ERROR (octo_video_trace_error_quark ())
GQuark octo_video_trace_error_quark (void);

/* *-temp.trace: VP8, 3 temporal layers, one message per frame. */
typedef struct {
  guint32 size;
  gdouble ssim_db;
  gboolean keyframe;            /* GoP start */
  guint8 temporal_layer;        /* from the GoP position: 0, 1 or 2 */
} OctoTemporalFrame;

/* Frames per second of the 2D traces when their header does not say: the
 * artifact's MOT17 encodings are 30 fps. */
#define OCTO_VIDEO_TRACE_DEFAULT_FPS 30
#define OCTO_VIDEO_TRACE_MAX_FPS 240

typedef struct {
  guint gop_len;
  guint fps;
  guint n_frames;
  OctoTemporalFrame *frames;
} OctoTemporalTrace;

/* *-quality.trace: 3 spatial layers, pre-encoded at several levels. */
#define OCTO_QUALITY_MAX_LAYERS 8
typedef struct {
  guint32 bytes[OCTO_QUALITY_MAX_LAYERS];
  gdouble ssim_db[OCTO_QUALITY_MAX_LAYERS];     /* decoded up to this layer */
} OctoQualityFrame;

typedef struct {
  guint32 aggregate_kbps;
  guint32 cumulative_kbps[OCTO_QUALITY_MAX_LAYERS];
  OctoQualityFrame *frames;     /* n_frames */
} OctoQualityLevel;

typedef struct {
  guint gop_len, n_layers, fps, n_frames, n_levels;
  OctoQualityLevel *levels;     /* ascending aggregate rate */
} OctoQualityTrace;

/* dance.trace: point-cloud cells x density layers, frames 50 ms apart. */
typedef struct {
  guint n_layers, n_cells, n_frames;
  guint32 *bytes;               /* [frame][layer][cell] */
  guint32 *cumulative_kbps;     /* [layer]: rate of layers 0..layer, all cells */
} OctoCloudTrace;

OctoTemporalTrace *octo_temporal_trace_load (const gchar *path, GError **error);
/* The same from @len bytes of @text, errors naming @name. */
OctoTemporalTrace *octo_temporal_trace_parse (const gchar *name,
    const gchar *text, gsize len, GError **error);
void octo_temporal_trace_free (OctoTemporalTrace *trace);

OctoQualityTrace *octo_quality_trace_load (const gchar *path, GError **error);
/* The same from @len bytes of @text, errors naming @name. */
OctoQualityTrace *octo_quality_trace_parse (const gchar *name,
    const gchar *text, gsize len, GError **error);
void octo_quality_trace_free (OctoQualityTrace *trace);

OctoCloudTrace *octo_cloud_trace_load (const gchar *path, GError **error);
/* The same from @len bytes of @text, errors naming @name. */
OctoCloudTrace *octo_cloud_trace_parse (const gchar *name,
    const gchar *text, gsize len, GError **error);
void octo_cloud_trace_free (OctoCloudTrace *trace);
guint32 octo_cloud_trace_bytes (const OctoCloudTrace *trace, guint frame,
    guint layer, guint cell);

G_END_DECLS
