/* A run's output files (results/<run>/runs/<name>/): frames.csv,
 * summary.json (the record of docs/design.md's keys), details.json. */
#pragma once

#include "sim-run.h"

G_BEGIN_DECLS

typedef struct {
  gint case_id;
  const gchar *scheme, *trace, *video;
  gint rtt_ms;
} SimLabels;

gchar *sim_output_summary_json (const SimResult *result,
    const SimLabels *labels);
gchar *sim_output_details_json (const SimResult *result);
gchar *sim_output_frames_csv (const SimResult *result);
/* The per-message logs octo-metrics reads (see octo-metrics.c), so a
 * simulated run can be re-scored exactly as a real one. */
gchar *sim_output_sent_log (const SimResult *result);
gchar *sim_output_received_log (const SimResult *result);
/* Writes @contents (freed) to @dir/@name. */
gboolean sim_output_write (const gchar *dir, const gchar *name,
    gchar *contents, GError **error);

G_END_DECLS
