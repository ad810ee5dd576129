/* gst-octopus core: the per-message log rows (see octo-frame-log.h). */
#include "octo-frame-log.h"

#include <stdio.h>

gsize
octo_frame_log_sent_row (const OctoSentRow *row, gchar *out)
{
  return (gsize) g_snprintf (out, OCTO_FRAME_LOG_ROW_MAX, "%" G_GUINT64_FORMAT
      ",%u,%" G_GUINT64_FORMAT ",%d,%u,%u,%.17g\n", row->frame, row->index,
      row->capture, row->keyframe ? 1 : 0, row->temporal_layer, row->level,
      row->quality);
}

gsize
octo_frame_log_received_row (guint64 frame, guint index, OctoTime arrival,
    gchar *out)
{
  return (gsize) g_snprintf (out, OCTO_FRAME_LOG_ROW_MAX, "%" G_GUINT64_FORMAT
      ",%u,%" G_GUINT64_FORMAT "\n", frame, index, arrival);
}
