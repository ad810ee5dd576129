/* gst-octopus core: the per-message logs octo-metrics scores, one format
 * for every writer (the trace source, the SVC and point-cloud encoders'
 * sent logs, the receivers' logs, the simulator).
 *
 *   sent:     frame,index,capture_ns,keyframe,temporal_layer,level,quality
 *   received: frame,index,arrival_ns
 *
 * index is the message's place in its frame (layer or send order); quality
 * is linear SSIM (or the point-cloud proxy) of the frame shown up to it. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_FRAME_LOG_SENT_HEADER \
  "frame,index,capture_ns,keyframe,temporal_layer,level,quality\n"
#define OCTO_FRAME_LOG_RECEIVED_HEADER "frame,index,arrival_ns\n"
/* Room for the longest row either function writes. */
#define OCTO_FRAME_LOG_ROW_MAX 160

typedef struct {
  guint64 frame;
  guint index;
  OctoTime capture;
  gboolean keyframe;
  guint temporal_layer;
  guint level;
  gdouble quality;
} OctoSentRow;

/* Write one row with its newline into @out (OCTO_FRAME_LOG_ROW_MAX bytes);
 * return its length.  Quality keeps 17 significant digits, so a re-scored
 * log gives the same numbers as the run that wrote it. */
gsize octo_frame_log_sent_row (const OctoSentRow *row, gchar *out);
gsize octo_frame_log_received_row (guint64 frame, guint index,
    OctoTime arrival, gchar *out);

G_END_DECLS
