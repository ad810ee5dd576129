/* Writers of a run's files, shared by octo-sim and octo-metrics so the
 * simulator and the real pipeline report in exactly the same format. */
#include "sim-output.h"

#include "octo-frame-log.h"
#include "octo-json.h"

#include <math.h>

static void
json_number (GString *s, gdouble v)
{
  if (isnan (v) || isinf (v))
    g_string_append (s, "null");
  else
    g_string_append_printf (s, "%.6f", v);
}

gchar *
sim_output_summary_json (const SimResult *r, const SimLabels *l)
{
  GString *s = g_string_new ("{");
  gboolean first = TRUE;

  g_string_append_printf (s, "\"case\": %d, \"scheme\": ", l->case_id);
  octo_json_append_string (s, l->scheme);
  g_string_append (s, ", \"trace\": ");
  octo_json_append_string (s, l->trace);
  g_string_append_printf (s, ", \"rtt_ms\": %d, \"video\": ", l->rtt_ms);
  octo_json_append_string (s, l->video);
  g_string_append (s, ", ");
  g_string_append (s, "\"median_aoi_ms\": ");
  json_number (s, r->summary.median_aoi_ms);
  g_string_append (s, ", \"p99_aoi_ms\": ");
  json_number (s, r->summary.p99_aoi_ms);
  g_string_append (s, ", \"p50_latency_ms\": ");
  json_number (s, r->summary.p50_latency_ms);
  g_string_append (s, ", \"p99_latency_ms\": ");
  json_number (s, r->summary.p99_latency_ms);
  g_string_append (s, ", \"sqi_ssim\": ");
  json_number (s, r->summary.sqi_ssim[0]);
  g_string_append (s, ", \"utilization\": ");
  json_number (s, r->utilization);
  g_string_append (s, ", \"drops\": {");
  for (guint i = 0; i < OCTO_DROP_N_REASONS; i++) {
    guint64 n = r->sender_drops[i] + r->network_drops[i];
    g_string_append_printf (s, "%s\"%s\": %" G_GUINT64_FORMAT,
        first ? "" : ", ", octo_drop_reason_to_string (i), n);
    first = FALSE;
  }
  g_string_append (s, "}}\n");
  return g_string_free (s, FALSE);
}

gchar *
sim_output_details_json (const SimResult *r)
{
  GString *s = g_string_new ("{\n");

  g_string_append_printf (s, "  \"frames\": %u, \"frames_shown\": %u,\n",
      r->n_frames, r->summary.n_shown);
  g_string_append (s, "  \"sqi_ssim_by_tau_s\": {");
  for (guint t = 0; t < OCTO_METRICS_N_TAUS; t++) {
    g_string_append_printf (s, "%s\"%.1f\": ", t ? ", " : "",
        octo_metrics_taus[t]);
    json_number (s, r->summary.sqi_ssim[t]);
  }
  g_string_append_printf (s, "},\n  \"capacity_bytes\": %" G_GUINT64_FORMAT
      ", \"delivered_link_bytes\": %" G_GUINT64_FORMAT
      ", \"padding_delivered_link_bytes\": %" G_GUINT64_FORMAT
      ", \"whole_message_link_bytes\": %" G_GUINT64_FORMAT ",\n",
      r->capacity_bytes, r->delivered_bytes, r->padding_delivered_bytes,
      r->whole_message_bytes);
  g_string_append_printf (s, "  \"messages_sent\": %" G_GUINT64_FORMAT
      ", \"messages_delivered\": %" G_GUINT64_FORMAT ",\n", r->messages_sent,
      r->messages_delivered);
  g_string_append_printf (s, "  \"cross_sent_link_bytes\": %" G_GUINT64_FORMAT
      ", \"cross_delivered_link_bytes\": %" G_GUINT64_FORMAT ",\n",
      r->cross_sent_bytes, r->cross_delivered_bytes);
  g_string_append_printf (s, "  \"bytes_sent\": %" G_GUINT64_FORMAT
      ", \"bytes_delivered\": %" G_GUINT64_FORMAT ",\n", r->bytes_sent,
      r->bytes_delivered);
  for (guint where = 0; where < 2; where++) {
    const guint64 *drops = where ? r->network_drops : r->sender_drops;
    g_string_append_printf (s, "  \"%s_packet_drops\": {",
        where ? "network" : "sender");
    for (guint i = 0; i < OCTO_DROP_N_REASONS; i++)
      g_string_append_printf (s, "%s\"%s\": %" G_GUINT64_FORMAT, i ? ", " : "",
          octo_drop_reason_to_string (i), drops[i]);
    g_string_append (s, "},\n");
  }
  g_string_append (s, "  \"sender_message_drops_by_priority\": {");
  for (guint i = 0; i < OCTO_DROP_N_REASONS; i++) {
    g_string_append_printf (s, "%s\"%s\": [", i ? ", " : "",
        octo_drop_reason_to_string (i));
    for (guint p = 0; p < OCTO_N_PRIORITIES; p++)
      g_string_append_printf (s, "%s%" G_GUINT64_FORMAT, p ? ", " : "",
          r->sender_message_drops[i][p]);
    g_string_append (s, "]");
  }
  g_string_append (s, "}\n}\n");
  return g_string_free (s, FALSE);
}

gchar *
sim_output_frames_csv (const SimResult *r)
{
  GString *s = g_string_new ("frame,capture_ms,messages,received,level,"
      "shown,show_ms,latency_ms,layers_used,quality\n");

  for (guint f = 0; f < r->n_frames; f++) {
    const OctoFrameRecord *fr = &r->frames[f];
    const OctoFrameOutcome *o = &r->outcomes[f];
    guint received = 0;

    for (guint k = 0; k < fr->n_layers; k++)
      received += fr->arrival[k] != OCTO_TIME_NONE;
    g_string_append_printf (s, "%u,%.3f,%u,%u,%u,%d,", f,
        fr->capture / 1e6, fr->n_layers, received, r->levels[f], o->shown);
    if (o->shown)
      g_string_append_printf (s, "%.3f,%.3f,", o->show_time / 1e6,
          (o->show_time - fr->capture) / 1e6);
    else
      g_string_append (s, ",,");
    g_string_append_printf (s, "0x%x,%.6f\n", o->layers_used, o->quality);
  }
  return g_string_free (s, FALSE);
}

gchar *
sim_output_sent_log (const SimResult *r)
{
  GString *s = g_string_new (OCTO_FRAME_LOG_SENT_HEADER);
  gchar line[OCTO_FRAME_LOG_ROW_MAX];

  for (guint f = 0; f < r->n_frames; f++)
    for (guint k = 0; k < r->frames[f].n_layers; k++) {
      OctoSentRow row = {
        .frame = f, .index = k, .capture = r->frames[f].capture,
        .keyframe = r->frames[f].gop_start,
        .temporal_layer = r->temporal_layers ? r->temporal_layers[f] : 0,
        .level = r->levels[f], .quality = r->frames[f].quality[k],
      };
      g_string_append_len (s, line, octo_frame_log_sent_row (&row, line));
    }
  return g_string_free (s, FALSE);
}

gchar *
sim_output_received_log (const SimResult *r)
{
  GString *s = g_string_new (OCTO_FRAME_LOG_RECEIVED_HEADER);
  gchar line[OCTO_FRAME_LOG_ROW_MAX];

  for (guint f = 0; f < r->n_frames; f++)
    for (guint k = 0; k < r->frames[f].n_layers; k++)
      if (r->frames[f].arrival[k] != OCTO_TIME_NONE)
        g_string_append_len (s, line, octo_frame_log_received_row (f, k,
                r->frames[f].arrival[k], line));
  return g_string_free (s, FALSE);
}

gboolean
sim_output_write (const gchar *dir, const gchar *name, gchar *contents,
    GError **error)
{
  gchar *path = g_build_filename (dir, name, NULL);
  gboolean ok = g_file_set_contents (path, contents, -1, error);

  g_free (path);
  g_free (contents);
  return ok;
}
