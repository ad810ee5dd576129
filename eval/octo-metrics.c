/* octo-metrics: the metrics of a real run, computed by the same code and
 * written in the same format as the simulator's (frames.csv, summary.json),
 * from two logs on one clock:
 *
 *   sent log (the sender's application, e.g. octopustracesrc sent-log=):
 *     frame,index,capture_ns,keyframe,temporal_layer,level,quality
 *   received log (the receiver, e.g. octopusframelog location=):
 *     frame,index,arrival_ns
 *
 * One row per message; index = position within the frame in send order;
 * quality is linear (see octo-metrics.h for each case's meaning). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim-output.h"

static gint case_id = 0, rtt_ms = 60;
static gchar *sent_path = NULL, *received_path = NULL, *out_dir = NULL;
static gchar *scheme = NULL, *trace = NULL, *video = NULL;
static gint64 end_ns = -1, captured_until_ns = -1;

static GOptionEntry entries[] = {
  {"case", 'c', 0, G_OPTION_ARG_INT, &case_id,
      "Case study (decodability model): 1 temporal, 2 layered, 3 independent",
      "N"},
  {"sent", 0, 0, G_OPTION_ARG_FILENAME, &sent_path, "Sender log", "FILE"},
  {"received", 0, 0, G_OPTION_ARG_FILENAME, &received_path, "Receiver log",
      "FILE"},
  {"end-ns", 0, 0, G_OPTION_ARG_INT64, &end_ns,
      "End of the run for the last AoI sample (default: one frame interval "
      "after the last capture)", "NS"},
  {"captured-until-ns", 0, 0, G_OPTION_ARG_INT64, &captured_until_ns,
      "Score only the frames captured at or before this time (a run's end "
      "without its last frames; default: every frame)", "NS"},
  {"out", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
      "Directory for frames.csv, summary.json and details.json", "DIR"},
  {"scheme", 0, 0, G_OPTION_ARG_STRING, &scheme, "Label", "NAME"},
  {"trace", 0, 0, G_OPTION_ARG_STRING, &trace, "Label", "NAME"},
  {"video", 0, 0, G_OPTION_ARG_STRING, &video, "Label", "NAME"},
  {"rtt-ms", 0, 0, G_OPTION_ARG_INT, &rtt_ms, "Label", "MS"},
  G_OPTION_ENTRY_NULL
};

/* Reads @path as CSV with a header line and @n_fields numeric fields per
 * row; calls @row for each.  Errors name the file and line. */
static gboolean
read_csv (const gchar *path, guint n_fields,
    gboolean (*row) (const gdouble *v, gpointer data, GError **error),
    gpointer data, GError **error)
{
  gchar *contents, **lines;
  gboolean ok = TRUE;

  if (!g_file_get_contents (path, &contents, NULL, error))
    return FALSE;
  lines = g_strsplit (contents, "\n", -1);
  g_free (contents);
  for (guint i = 1; ok && lines[0] && lines[i]; i++) {
    gchar **fields;
    gdouble v[16];
    GError *row_error = NULL;
    guint n;

    g_strstrip (lines[i]);
    if (lines[i][0] == '\0' || lines[i][0] == '#')
      continue;
    fields = g_strsplit (lines[i], ",", -1);
    n = g_strv_length (fields);
    if (n != n_fields) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
          "%s:%u: expected %u fields, found %u", path, i + 1, n_fields, n);
      ok = FALSE;
    }
    for (guint k = 0; ok && k < n; k++) {
      gchar *end;
      v[k] = g_ascii_strtod (fields[k], &end);
      if (end == fields[k] || *end != '\0') {
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
            "%s:%u: field %u '%s' is not a number", path, i + 1, k + 1,
            fields[k]);
        ok = FALSE;
      }
    }
    if (ok && !row (v, data, &row_error)) {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s",
          path, i + 1, row_error->message);
      g_error_free (row_error);
      ok = FALSE;
    }
    g_strfreev (fields);
  }
  g_strfreev (lines);
  return ok;
}

typedef struct {
  GArray *frames;               /* OctoFrameRecord, by frame id */
  GArray *keyframe, *temporal_layer, *levels;
} Logs;

static OctoFrameRecord *
frame_at (Logs *logs, guint64 id)
{
  while (logs->frames->len <= id) {
    OctoFrameRecord rec = { .ref = -1 };
    gboolean no = FALSE;
    guint8 tl = 0;
    guint level = 0;
    for (guint k = 0; k < OCTO_METRICS_MAX_LAYERS; k++)
      rec.arrival[k] = OCTO_TIME_NONE;
    g_array_append_val (logs->frames, rec);
    g_array_append_val (logs->keyframe, no);
    g_array_append_val (logs->temporal_layer, tl);
    g_array_append_val (logs->levels, level);
  }
  return &g_array_index (logs->frames, OctoFrameRecord, id);
}

static gboolean
sent_row (const gdouble *v, gpointer data, GError **error)
{
  Logs *logs = data;
  OctoFrameRecord *f;
  guint index = (guint) v[1];

  if (v[0] < 0 || v[0] > 10000000 || v[1] < 0
      || index >= OCTO_METRICS_MAX_LAYERS) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "frame id or index out of range");
    return FALSE;
  }
  if (v[2] < 0) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "capture time %.0f ns is negative", v[2]);
    return FALSE;
  }
  f = frame_at (logs, (guint64) v[0]);
  f->capture = (OctoTime) v[2];
  f->n_layers = MAX (f->n_layers, index + 1);
  f->quality[index] = v[6];
  /* a layer's key frame references no earlier frame: a key picture, a
   * spatial sync's upper layers, an intra base sync's base */
  if (v[3] != 0)
    f->layer_start |= 1u << index;
  if (index == 0) {
    f->gop_start = v[3] != 0;
    g_array_index (logs->keyframe, gboolean, (guint64) v[0]) = v[3] != 0;
    g_array_index (logs->temporal_layer, guint8, (guint64) v[0]) = v[4];
    g_array_index (logs->levels, guint, (guint64) v[0]) = v[5];
  }
  return TRUE;
}

static gboolean
received_row (const gdouble *v, gpointer data, GError **error)
{
  Logs *logs = data;
  OctoFrameRecord *f;
  guint index = (guint) v[1];

  if (v[0] < 0 || v[0] >= logs->frames->len || v[1] < 0
      || index >= OCTO_METRICS_MAX_LAYERS) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "frame %.0f / index %.0f was never sent", v[0], v[1]);
    return FALSE;
  }
  f = &g_array_index (logs->frames, OctoFrameRecord, (guint64) v[0]);
  if (v[2] < 0 || (OctoTime) v[2] < f->capture) {
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
        "frame %.0f arrived at %.0f ns, before its capture at %" G_GUINT64_FORMAT
        " ns: both logs must use the same clock", v[0], v[2], f->capture);
    return FALSE;
  }
  if (index < f->n_layers)
    f->arrival[index] = MIN (f->arrival[index], (OctoTime) v[2]);
  return TRUE;
}

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("- metrics of a real run");
  GError *error = NULL;
  Logs logs = {
    g_array_new (FALSE, TRUE, sizeof (OctoFrameRecord)),
    g_array_new (FALSE, TRUE, sizeof (gboolean)),
    g_array_new (FALSE, TRUE, sizeof (guint8)),
    g_array_new (FALSE, TRUE, sizeof (guint)),
  };
  SimResult r = { 0 };
  SimLabels labels;
  OctoDecodeModel model;
  OctoTime end;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error)
      || case_id < 1 || case_id > 3 || !sent_path || !received_path
      || !out_dir) {
    g_printerr ("octo-metrics: %s\n%s", error ? error->message :
        "need --case 1..3, --sent, --received and --out",
        g_option_context_get_help (ctx, TRUE, NULL));
    return 2;
  }
  if (!read_csv (sent_path, 7, sent_row, &logs, &error)
      || !read_csv (received_path, 3, received_row, &logs, &error)) {
    g_printerr ("octo-metrics: %s\n", error->message);
    return 1;
  }
  if (logs.frames->len == 0) {
    g_printerr ("octo-metrics: %s: no frames\n", sent_path);
    return 1;
  }

  r.n_frames = logs.frames->len;
  r.frames = (OctoFrameRecord *) logs.frames->data;
  /* frames are in capture order: the first ones up to the time */
  if (captured_until_ns >= 0) {
    guint n = 0;
    while (n < r.n_frames && r.frames[n].capture <= (OctoTime) captured_until_ns)
      n++;
    if (n == 0) {
      g_printerr ("octo-metrics: %s: no frame captured by %" G_GINT64_FORMAT
          " ns\n", sent_path, captured_until_ns);
      return 1;
    }
    r.n_frames = n;
  }
  model = case_id == 1 ? OCTO_DECODE_TEMPORAL : case_id == 2 ?
      OCTO_DECODE_LAYERED : OCTO_DECODE_INDEPENDENT;
  if (model == OCTO_DECODE_TEMPORAL)
    octo_metrics_temporal_refs (r.frames, r.n_frames,
        (gboolean *) logs.keyframe->data, (guint8 *) logs.temporal_layer->data);
  end = end_ns >= 0 ? (OctoTime) end_ns : r.frames[r.n_frames - 1].capture +
      (r.n_frames > 1 ? r.frames[r.n_frames - 1].capture -
      r.frames[r.n_frames - 2].capture : 0);
  r.outcomes = g_new0 (OctoFrameOutcome, r.n_frames);
  r.levels = (guint *) logs.levels->data;
  octo_metrics_compute (r.frames, r.n_frames, model, end, r.outcomes,
      &r.summary);
  r.utilization = NAN;          /* the link is not observed here */

  labels = (SimLabels) { case_id, scheme ? scheme : "real",
    trace ? trace : "unknown", video ? video : "unknown", rtt_ms };
  if (g_mkdir_with_parents (out_dir, 0755) != 0
      || !sim_output_write (out_dir, "frames.csv", sim_output_frames_csv (&r),
          &error)
      || !sim_output_write (out_dir, "summary.json",
          sim_output_summary_json (&r, &labels), &error)) {
    g_printerr ("octo-metrics: cannot write to %s: %s\n", out_dir,
        error ? error->message : g_strerror (errno));
    return 1;
  }
  g_free (r.outcomes);
  g_array_free (logs.frames, TRUE);
  g_array_free (logs.keyframe, TRUE);
  g_array_free (logs.temporal_layer, TRUE);
  g_array_free (logs.levels, TRUE);
  g_option_context_free (ctx);
  return 0;
}
