#include "octo-video-trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_QUARK (octo-video-trace-error-quark, octo_video_trace_error)

/* One file split into lines of whitespace-separated numeric fields. */
typedef struct {
  const gchar *path;
  gchar **lines;
  guint line;                   /* 1-based number of the current line */
  guint next;                   /* index of the next line to read */
  gchar **tokens;               /* owned: the current line split */
  const gchar **fields;         /* its non-empty tokens */
  guint n_fields;
} Reader;

/* The shortest line an entry can take: one digit per field, separators. */
#define MIN_ENTRY_LINE_BYTES(n_fields) (2 * (n_fields))

static gboolean
fail (const gchar *name, guint line, GError **error, const gchar *reason)
{
  g_set_error (error, OCTO_VIDEO_TRACE_ERROR, 0, "%s:%u: %s", name, line,
      reason);
  return FALSE;
}

static gboolean
reader_init (Reader *r, const gchar *name, const gchar *text, gsize len,
    GError **error)
{
  const gchar *nul;
  gchar *contents;

  /* empty data may come as a NULL pointer */
  if (len == 0)
    text = "";
  nul = memchr (text, '\0', len);

  memset (r, 0, sizeof (*r));
  r->path = name;
  /* a binary file: say where, rather than read up to its first NUL */
  if (nul) {
    guint line = 1;
    for (const gchar *c = text; c < nul; c++)
      line += *c == '\n';
    return fail (name, line, error, "a NUL byte: not a text trace");
  }
  contents = g_strndup (text, len);
  r->lines = g_strsplit (contents, "\n", -1);
  g_free (contents);
  return TRUE;
}

static void
reader_close (Reader *r)
{
  g_strfreev (r->lines);
  g_strfreev (r->tokens);
  g_free (r->fields);
}

static gboolean
fail_at (Reader *r, GError **error, const gchar *reason)
{
  return fail (r->path, r->line, error, reason);
}

/* Advances to the next non-empty line; FALSE at the end of the file, where
 * errors then point at the last line read. */
static gboolean
reader_next (Reader *r)
{
  while (r->lines[r->next] != NULL) {
    gchar *text = g_strstrip (r->lines[r->next++]);
    if (*text == '\0')
      continue;
    r->line = r->next;
    g_strfreev (r->tokens);
    g_free (r->fields);
    r->tokens = g_strsplit_set (text, " \t\r", -1);
    r->fields = g_new (const gchar *, g_strv_length (r->tokens) + 1);
    r->n_fields = 0;
    for (guint i = 0; r->tokens[i]; i++)
      if (*r->tokens[i])
        r->fields[r->n_fields++] = r->tokens[i];
    return TRUE;
  }
  return FALSE;
}

static gboolean
expect_fields (Reader *r, guint n, GError **error)
{
  gchar *msg;
  gboolean ok;

  if (r->n_fields == n)
    return TRUE;
  msg = g_strdup_printf ("expected %u fields, found %u", n, r->n_fields);
  ok = fail_at (r, error, msg);
  g_free (msg);
  return ok;
}

static gboolean
field_uint (Reader *r, guint i, guint64 max, guint64 *out, GError **error)
{
  gchar *msg, *text;

  if (g_ascii_string_to_unsigned (r->fields[i], 10, 0, max, out, NULL))
    return TRUE;
  text = g_strescape (r->fields[i], NULL);
  msg = g_strdup_printf ("field %u: '%s' is not an integer in 0..%"
      G_GUINT64_FORMAT, i + 1, text, max);
  g_free (text);
  fail_at (r, error, msg);
  g_free (msg);
  return FALSE;
}

/* A header's optional last field, the frame rate: @n_fields without it. */
static gboolean
header_fps (Reader *r, guint n_fields, guint *fps, GError **error)
{
  guint64 v;

  *fps = OCTO_VIDEO_TRACE_DEFAULT_FPS;
  if (r->n_fields <= n_fields)
    return expect_fields (r, n_fields, error);
  if (!expect_fields (r, n_fields + 1, error)
      || !field_uint (r, n_fields, OCTO_VIDEO_TRACE_MAX_FPS, &v, error))
    return FALSE;
  if (v == 0)
    return fail_at (r, error, "the frame rate must be at least 1");
  *fps = v;
  return TRUE;
}

static gboolean
field_double (Reader *r, guint i, gdouble *out, GError **error)
{
  gchar *end;
  gchar *msg, *text;

  *out = g_ascii_strtod (r->fields[i], &end);
  if (end != r->fields[i] && *end == '\0' && isfinite (*out))
    return TRUE;
  /* escaped: a binary file's bytes are no valid UTF-8 message */
  text = g_strescape (r->fields[i], NULL);
  msg = g_strdup_printf ("field %u: '%s' is not a finite number", i + 1,
      text);
  g_free (text);
  fail_at (r, error, msg);
  g_free (msg);
  return FALSE;
}

typedef gpointer (*TraceParser) (const gchar *name, const gchar *text,
    gsize len, GError **error);

static gpointer
load_file (const gchar *path, TraceParser parse, GError **error)
{
  gchar *contents;
  gsize len;
  gpointer trace;

  if (!g_file_get_contents (path, &contents, &len, error))
    return NULL;
  trace = parse (path, contents, len, error);
  g_free (contents);
  return trace;
}

/* ---- temporal ---- */

void
octo_temporal_trace_free (OctoTemporalTrace *trace)
{
  if (!trace)
    return;
  g_free (trace->frames);
  g_free (trace);
}

OctoTemporalTrace *
octo_temporal_trace_load (const gchar *path, GError **error)
{
  return load_file (path, (TraceParser) octo_temporal_trace_parse, error);
}

OctoTemporalTrace *
octo_temporal_trace_parse (const gchar *name, const gchar *text, gsize len,
    GError **error)
{
  Reader r;
  OctoTemporalTrace *t = g_new0 (OctoTemporalTrace, 1);
  GArray *frames = g_array_new (FALSE, TRUE, sizeof (OctoTemporalFrame));
  guint64 v;

  if (!reader_init (&r, name, text, len, error))
    goto failed_open;
  if (!reader_next (&r)) {
    fail_at (&r, error, "empty file: expected 'gop_len [fps]'");
    goto failed;
  }
  if (!header_fps (&r, 1, &t->fps, error)
      || !field_uint (&r, 0, 1024, &v, error))
    goto failed;
  if (v == 0) {
    fail_at (&r, error, "GoP length must be at least 1");
    goto failed;
  }
  t->gop_len = v;
  while (reader_next (&r)) {
    OctoTemporalFrame f = { 0 };
    guint pos;
    if (!expect_fields (&r, 3, error) || !field_uint (&r, 0, G_MAXUINT32, &v,
            error))
      goto failed;
    if (v != frames->len) {
      fail_at (&r, error, "frame ids must count up from 0 without gaps");
      goto failed;
    }
    if (!field_uint (&r, 1, G_MAXUINT32, &v, error)
        || !field_double (&r, 2, &f.ssim_db, error))
      goto failed;
    f.size = v;
    pos = frames->len % t->gop_len;
    /* docs/design.md's framerate structure: period 4 inside the GoP */
    f.keyframe = pos == 0;
    f.temporal_layer = pos % 4 == 0 ? 0 : pos % 2 == 0 ? 1 : 2;
    g_array_append_val (frames, f);
  }
  if (frames->len == 0) {
    fail_at (&r, error, "no frames");
    goto failed;
  }
  reader_close (&r);
  t->n_frames = frames->len;
  t->frames = (OctoTemporalFrame *) g_array_free (frames, FALSE);
  return t;

failed:
  reader_close (&r);
failed_open:
  g_array_free (frames, TRUE);
  g_free (t);
  return NULL;
}

/* ---- quality ---- */

void
octo_quality_trace_free (OctoQualityTrace *trace)
{
  if (!trace)
    return;
  for (guint i = 0; i < trace->n_levels; i++)
    g_free (trace->levels[i].frames);
  g_free (trace->levels);
  g_free (trace);
}

static int
compare_level (const void *a, const void *b)
{
  const OctoQualityLevel *x = a, *y = b;
  return x->aggregate_kbps < y->aggregate_kbps ? -1 :
      x->aggregate_kbps > y->aggregate_kbps;
}

/* Ends the level being read (complete frames, as many as the others) and
 * takes @frames; on failure @frames stays the caller's. */
static gboolean
close_level (Reader *r, OctoQualityTrace *t, OctoQualityLevel *level,
    GArray *frames, guint next_layer, GError **error)
{
  if (next_layer != 0)
    return fail_at (r, error, "the previous level ends in the middle of a frame");
  if (t->n_frames == 0)
    t->n_frames = frames->len;
  if (frames->len != t->n_frames)
    return fail_at (r, error, "every level must have the same number of frames");
  level->frames = (OctoQualityFrame *) g_array_free (frames, FALSE);
  return TRUE;
}

OctoQualityTrace *
octo_quality_trace_load (const gchar *path, GError **error)
{
  return load_file (path, (TraceParser) octo_quality_trace_parse, error);
}

OctoQualityTrace *
octo_quality_trace_parse (const gchar *name, const gchar *text, gsize len,
    GError **error)
{
  Reader r;
  OctoQualityTrace *t = g_new0 (OctoQualityTrace, 1);
  GArray *levels = g_array_new (FALSE, TRUE, sizeof (OctoQualityLevel));
  GArray *frames = NULL;        /* of the level being read */
  guint next_frame = 0, next_layer = 0;
  OctoQualityLevel *level = NULL;
  guint64 v;

  if (!reader_init (&r, name, text, len, error))
    goto failed_open;
  if (!reader_next (&r)) {
    fail_at (&r, error, "empty file: expected 'gop_len num_layers [fps]'");
    goto failed;
  }
  if (!header_fps (&r, 2, &t->fps, error)
      || !field_uint (&r, 0, 1024, &v, error))
    goto failed;
  t->gop_len = v;
  if (!field_uint (&r, 1, OCTO_QUALITY_MAX_LAYERS, &v, error))
    goto failed;
  t->n_layers = v;
  if (t->gop_len == 0 || t->n_layers == 0) {
    fail_at (&r, error, "GoP length and layer count must be at least 1");
    goto failed;
  }

  while (reader_next (&r)) {
    guint64 agg, frame, layer, bytes, cum;
    gdouble ssim;
    OctoQualityFrame *f;

    if (!expect_fields (&r, 6, error)
        || !field_uint (&r, 0, G_MAXUINT32, &agg, error)
        || !field_uint (&r, 1, G_MAXUINT32, &frame, error)
        || !field_uint (&r, 2, t->n_layers - 1, &layer, error)
        || !field_uint (&r, 3, G_MAXUINT32, &bytes, error)
        || !field_uint (&r, 4, G_MAXUINT32, &cum, error)
        || !field_double (&r, 5, &ssim, error))
      goto failed;
    if (!level || level->aggregate_kbps != agg) {
      OctoQualityLevel fresh = { .aggregate_kbps = agg };
      if (level && !close_level (&r, t, level, frames, next_layer, error))
        goto failed;
      frames = NULL;
      g_array_append_val (levels, fresh);
      level = &g_array_index (levels, OctoQualityLevel, levels->len - 1);
      frames = g_array_new (FALSE, TRUE, sizeof (OctoQualityFrame));
      next_frame = next_layer = 0;
    }
    /* lines run frame by frame, layer by layer, within each level */
    if (frame != next_frame || layer != next_layer) {
      fail_at (&r, error, "expected the next layer of the current frame, or "
          "layer 0 of the next frame");
      goto failed;
    }
    if (++next_layer == t->n_layers) {
      next_layer = 0;
      next_frame++;
    }
    if (layer == 0)
      g_array_set_size (frames, frames->len + 1);
    f = &g_array_index (frames, OctoQualityFrame, frames->len - 1);
    f->bytes[layer] = bytes;
    f->ssim_db[layer] = ssim;
    level->cumulative_kbps[layer] = cum;
  }
  if (!level) {
    fail_at (&r, error, "no frames");
    goto failed;
  }
  if (!close_level (&r, t, level, frames, next_layer, error))
    goto failed;
  frames = NULL;
  t->n_levels = levels->len;
  reader_close (&r);
  t->levels = (OctoQualityLevel *) g_array_free (levels, FALSE);
  qsort (t->levels, t->n_levels, sizeof (OctoQualityLevel), compare_level);
  return t;

failed:
  reader_close (&r);
  if (frames)
    g_array_free (frames, TRUE);
  for (guint i = 0; i < levels->len; i++)
    g_free (g_array_index (levels, OctoQualityLevel, i).frames);
failed_open:
  g_array_free (levels, TRUE);
  g_free (t);
  return NULL;
}


/* ---- point cloud ---- */

void
octo_cloud_trace_free (OctoCloudTrace *trace)
{
  if (!trace)
    return;
  g_free (trace->bytes);
  g_free (trace->cumulative_kbps);
  g_free (trace);
}

guint32
octo_cloud_trace_bytes (const OctoCloudTrace *t, guint frame, guint layer,
    guint cell)
{
  return t->bytes[((gsize) frame * t->n_layers + layer) * t->n_cells + cell];
}

OctoCloudTrace *
octo_cloud_trace_load (const gchar *path, GError **error)
{
  return load_file (path, (TraceParser) octo_cloud_trace_parse, error);
}

OctoCloudTrace *
octo_cloud_trace_parse (const gchar *name, const gchar *text, gsize len,
    GError **error)
{
  Reader r;
  OctoCloudTrace *t = g_new0 (OctoCloudTrace, 1);
  guint8 *seen = NULL;
  gsize n_entries = 0;
  guint64 v[5];

  if (!reader_init (&r, name, text, len, error))
    goto failed_open;
  if (!reader_next (&r)) {
    fail_at (&r, error, "empty file: expected 'num_layers num_cells num_frames'");
    goto failed;
  }
  if (!expect_fields (&r, 3, error) || !field_uint (&r, 0, 64, &v[0], error)
      || !field_uint (&r, 1, 64, &v[1], error)
      || !field_uint (&r, 2, 1000000, &v[2], error))
    goto failed;
  if (v[0] == 0 || v[1] == 0 || v[2] == 0) {
    fail_at (&r, error, "layer, cell and frame counts must be at least 1");
    goto failed;
  }
  t->n_layers = v[0];
  t->n_cells = v[1];
  t->n_frames = v[2];
  n_entries = (gsize) t->n_frames * t->n_layers * t->n_cells;
  /* every entry has its line: a header claiming more than the file can
   * hold must not size the tables */
  if (n_entries > len / MIN_ENTRY_LINE_BYTES (5)) {
    gchar *msg = g_strdup_printf ("%" G_GSIZE_FORMAT " (frame, layer, cell) "
        "entries cannot fit in %" G_GSIZE_FORMAT " bytes", n_entries, len);
    fail_at (&r, error, msg);
    g_free (msg);
    goto failed;
  }
  t->bytes = g_new0 (guint32, n_entries);
  t->cumulative_kbps = g_new0 (guint32, t->n_layers);
  seen = g_new0 (guint8, n_entries);

  while (reader_next (&r)) {
    gsize index;
    if (!expect_fields (&r, 5, error)
        || !field_uint (&r, 0, t->n_frames - 1, &v[0], error)
        || !field_uint (&r, 1, t->n_layers - 1, &v[1], error)
        || !field_uint (&r, 2, t->n_cells - 1, &v[2], error)
        || !field_uint (&r, 3, G_MAXUINT32, &v[3], error)
        || !field_uint (&r, 4, G_MAXUINT32, &v[4], error))
      goto failed;
    index = (v[0] * t->n_layers + v[1]) * t->n_cells + v[2];
    if (seen[index]) {
      fail_at (&r, error, "duplicate (frame, layer, cell)");
      goto failed;
    }
    seen[index] = 1;
    t->bytes[index] = v[3];
    t->cumulative_kbps[v[1]] = v[4];
  }
  for (gsize i = 0; i < n_entries; i++)
    if (!seen[i]) {
      fail_at (&r, error, "missing (frame, layer, cell) entries");
      goto failed;
    }
  reader_close (&r);
  g_free (seen);
  return t;

failed:
  reader_close (&r);
  g_free (seen);
failed_open:
  octo_cloud_trace_free (t);
  return NULL;
}

