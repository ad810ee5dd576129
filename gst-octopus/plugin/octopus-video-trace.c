/* Video trace parsing (see octopus-video-trace.h). */
#include "octopus-video-trace.h"

#include <math.h>
#include <stdlib.h>

#define TRACE_MAX_FRAMES 1000000
#define TRACE_MAX_LAYERS 64
#define TRACE_MAX_LEVELS 64

static gboolean
parse_fields (const gchar *line, gdouble *v, guint want, guint *got)
{
  gchar **tok = g_strsplit_set (line, " \t", -1);
  guint n = 0;
  gboolean ok = TRUE;

  for (guint i = 0; tok[i]; i++) {
    gchar *end;
    if (!*tok[i])
      continue;
    if (n == want) {
      ok = FALSE;
      break;
    }
    v[n] = g_ascii_strtod (tok[i], &end);
    if (*end || !isfinite (v[n]) || v[n] < 0) {
      ok = FALSE;
      break;
    }
    n++;
  }
  g_strfreev (tok);
  *got = n;
  return ok;
}

static gboolean
fail (GError **error, const gchar *path, guint line, const gchar *what)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s", path,
      line, what);
  return FALSE;
}

static gint
cmp_u32 (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

static guint
level_index (const OctopusTrace *t, guint32 kbps)
{
  guint32 *hit = bsearch (&kbps, t->level_kbps, t->n_levels, sizeof (guint32),
      cmp_u32);
  return hit - t->level_kbps;
}

static gboolean
parse_body (OctopusTrace *t, gchar **lines, const gchar *path, GError **error)
{
  guint want = t->kind == OCTOPUS_TRACE_TEMPORAL ? 3 :
      t->kind == OCTOPUS_TRACE_QUALITY ? 6 : 5;
  gdouble v[6];
  guint got;

  /* Quality traces: first pass collects the levels and the frame count. */
  if (t->kind == OCTOPUS_TRACE_QUALITY) {
    GArray *levels = g_array_new (FALSE, FALSE, sizeof (guint32));
    for (guint i = 1; lines[i]; i++) {
      if (!*g_strstrip (lines[i]))
        continue;
      if (!parse_fields (lines[i], v, want, &got) || got != want) {
        g_array_unref (levels);
        return fail (error, path, i + 1, "expected 6 non-negative numbers: "
            "level_kbps frame layer bytes cum_kbps ssim_dB");
      }
      guint32 level = v[0];
      gboolean seen = FALSE;
      for (guint k = 0; k < levels->len; k++)
        seen |= g_array_index (levels, guint32, k) == level;
      if (!seen)
        g_array_append_val (levels, level);
      t->n_frames = MAX (t->n_frames, (guint) v[1] + 1);
      if (levels->len > TRACE_MAX_LEVELS || t->n_frames > TRACE_MAX_FRAMES) {
        g_array_unref (levels);
        return fail (error, path, i + 1, "too many levels or frames");
      }
    }
    g_array_sort (levels, cmp_u32);
    t->n_levels = levels->len;
    t->level_kbps = (guint32 *) g_array_free (levels, FALSE);
  }

  gsize n_entries = t->kind == OCTOPUS_TRACE_TEMPORAL ? TRACE_MAX_FRAMES :
      t->kind == OCTOPUS_TRACE_QUALITY ?
      (gsize) t->n_levels * t->n_frames * t->n_layers :
      (gsize) t->n_frames * t->n_layers * t->n_cells;
  GArray *entries = g_array_new (FALSE, TRUE, sizeof (OctopusTraceEntry));
  if (t->kind != OCTOPUS_TRACE_TEMPORAL)
    g_array_set_size (entries, n_entries);
  gboolean *filled = t->kind == OCTOPUS_TRACE_TEMPORAL ? NULL :
      g_new0 (gboolean, n_entries);

  for (guint i = 1; lines[i]; i++) {
    if (!*g_strstrip (lines[i]))
      continue;
    if (!parse_fields (lines[i], v, want, &got) || got != want) {
      g_array_unref (entries);
      g_free (filled);
      return fail (error, path, i + 1, t->kind == OCTOPUS_TRACE_TEMPORAL ?
          "expected 3 non-negative numbers: frame bytes ssim_dB" :
          t->kind == OCTOPUS_TRACE_QUALITY ? "expected 6 numbers" :
          "expected 5 non-negative numbers: frame layer cell bytes cum_kbps");
    }
    OctopusTraceEntry e = { (guint32) v[want == 3 ? 1 : 3], 0, NAN };
    gsize idx;
    if (t->kind == OCTOPUS_TRACE_TEMPORAL) {
      if ((guint) v[0] != entries->len) {
        g_array_unref (entries);
        return fail (error, path, i + 1, "frame ids must count up from 0");
      }
      e.ssim_db = v[2];
      g_array_append_val (entries, e);
      if (entries->len > TRACE_MAX_FRAMES) {
        g_array_unref (entries);
        return fail (error, path, i + 1, "too many frames");
      }
      continue;
    }
    if (t->kind == OCTOPUS_TRACE_QUALITY) {
      guint layer = v[2];
      if (layer >= t->n_layers) {
        g_array_unref (entries);
        g_free (filled);
        return fail (error, path, i + 1, "layer id >= the header's layers");
      }
      e.cum_kbps = v[4];
      e.ssim_db = v[5];
      idx = ((gsize) level_index (t, v[0]) * t->n_frames + (guint) v[1]) *
          t->n_layers + layer;
    } else {
      guint frame = v[0], layer = v[1], cell = v[2];
      if (frame >= t->n_frames || layer >= t->n_layers || cell >= t->n_cells) {
        g_array_unref (entries);
        g_free (filled);
        return fail (error, path, i + 1,
            "frame, layer or cell beyond the header's counts");
      }
      e.cum_kbps = v[4];
      idx = ((gsize) frame * t->n_layers + layer) * t->n_cells + cell;
    }
    g_array_index (entries, OctopusTraceEntry, idx) = e;
    filled[idx] = TRUE;
  }
  if (filled) {
    for (gsize k = 0; k < n_entries; k++)
      if (!filled[k]) {
        g_array_unref (entries);
        g_free (filled);
        return fail (error, path, 1, "the trace misses some frame/layer "
            "entries the header announces");
      }
    g_free (filled);
  } else {
    t->n_frames = entries->len;
  }
  if (t->n_frames == 0) {
    g_array_unref (entries);
    return fail (error, path, 2, "no frames");
  }
  t->entries = (OctopusTraceEntry *) g_array_free (entries, FALSE);
  return TRUE;
}

OctopusTrace *
octopus_trace_load (const gchar *path, GError **error)
{
  gchar *text;
  gdouble v[3];
  guint got;

  if (!g_file_get_contents (path, &text, NULL, error))
    return NULL;
  gchar **lines = g_strsplit (text, "\n", -1);
  g_free (text);
  OctopusTrace *t = g_new0 (OctopusTrace, 1);

  if (!lines[0] || !parse_fields (g_strstrip (lines[0]), v, 3, &got) ||
      got == 0) {
    fail (error, path, 1, "header must be 'GOP', 'GOP LAYERS' or "
        "'LAYERS CELLS FRAMES'");
    goto error;
  }
  if (got == 1) {
    t->kind = OCTOPUS_TRACE_TEMPORAL;
    t->gop = v[0];
    t->n_layers = 1;
    t->fps = 30;
  } else if (got == 2) {
    t->kind = OCTOPUS_TRACE_QUALITY;
    t->gop = v[0];
    t->n_layers = v[1];
    t->fps = 30;
  } else {
    t->kind = OCTOPUS_TRACE_POINTCLOUD;
    t->n_layers = v[0];
    t->n_cells = v[1];
    t->n_frames = v[2];
    t->fps = 20;
  }
  if ((t->kind != OCTOPUS_TRACE_POINTCLOUD && t->gop == 0) ||
      t->n_layers == 0 || t->n_layers > TRACE_MAX_LAYERS ||
      (t->kind == OCTOPUS_TRACE_POINTCLOUD && (t->n_cells == 0 ||
              t->n_cells > 255 || t->n_frames == 0 ||
              t->n_frames > TRACE_MAX_FRAMES))) {
    fail (error, path, 1, "GOP, layer, cell and frame counts must be "
        "positive and within limits");
    goto error;
  }
  if (!parse_body (t, lines, path, error))
    goto error;
  g_strfreev (lines);
  return t;

error:
  g_strfreev (lines);
  octopus_trace_free (t);
  return NULL;
}

void
octopus_trace_free (OctopusTrace *trace)
{
  if (!trace)
    return;
  g_free (trace->level_kbps);
  g_free (trace->entries);
  g_free (trace);
}

const OctopusTraceEntry *
octopus_trace_entry (const OctopusTrace *t, guint level, guint frame,
    guint layer, guint cell)
{
  switch (t->kind) {
    case OCTOPUS_TRACE_TEMPORAL:
      return &t->entries[frame];
    case OCTOPUS_TRACE_QUALITY:
      return &t->entries[((gsize) level * t->n_frames + frame) * t->n_layers +
          layer];
    case OCTOPUS_TRACE_POINTCLOUD:
    default:
      return &t->entries[((gsize) frame * t->n_layers + layer) * t->n_cells +
          cell];
  }
}
