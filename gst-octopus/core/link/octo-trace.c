/* Mahimahi trace parsing: strict, bounded, and exact about where it failed. */
#include "octo-trace.h"

#include <string.h>

G_DEFINE_QUARK (octo-trace-error-quark, octo_trace_error)

static gboolean
parse_line (const gchar *line, gsize len, guint64 *out, const gchar **reason)
{
  guint64 value = 0;

  if (len == 0) {
    *reason = "empty line (expected a timestamp in ms)";
    return FALSE;
  }
  for (gsize i = 0; i < len; i++) {
    if (line[i] < '0' || line[i] > '9') {
      *reason = "not a non-negative integer timestamp in ms";
      return FALSE;
    }
    value = value * 10 + (guint64) (line[i] - '0');
    if (value > OCTO_TRACE_MAX_MS) {
      *reason = "timestamp too large";
      return FALSE;
    }
  }
  *out = value;
  return TRUE;
}

OctoTrace *
octo_trace_parse (const gchar *data, gsize len, const gchar *name,
    GError **error)
{
  GArray *ms = g_array_new (FALSE, FALSE, sizeof (guint64));
  gsize pos = 0;
  guint line_no = 0;
  guint64 prev = 0;

  while (pos < len) {
    const gchar *line = data + pos;
    const gchar *nl = memchr (line, '\n', len - pos);
    gsize line_len = nl ? (gsize) (nl - line) : len - pos;
    const gchar *reason = NULL;
    guint64 value;

    pos += line_len + (nl ? 1 : 0);
    line_no++;
    if (line_len > 0 && line[line_len - 1] == '\r')
      line_len--;
    if (!parse_line (line, line_len, &value, &reason)) {
      g_set_error (error, OCTO_TRACE_ERROR, OCTO_TRACE_ERROR_SYNTAX,
          "%s:%u: %s", name, line_no, reason);
      goto fail;
    }
    if (value < prev) {
      g_set_error (error, OCTO_TRACE_ERROR, OCTO_TRACE_ERROR_ORDER,
          "%s:%u: timestamp %" G_GUINT64_FORMAT " is smaller than the "
          "previous one (%" G_GUINT64_FORMAT ")", name, line_no, value, prev);
      goto fail;
    }
    if (ms->len >= OCTO_TRACE_MAX_LINES) {
      g_set_error (error, OCTO_TRACE_ERROR, OCTO_TRACE_ERROR_TOO_LARGE,
          "%s:%u: more than %u opportunities", name, line_no,
          OCTO_TRACE_MAX_LINES);
      goto fail;
    }
    g_array_append_val (ms, value);
    prev = value;
  }
  if (ms->len == 0) {
    g_set_error (error, OCTO_TRACE_ERROR, OCTO_TRACE_ERROR_EMPTY,
        "%s:1: trace has no delivery opportunity", name);
    goto fail;
  }
  if (prev == 0) {
    g_set_error (error, OCTO_TRACE_ERROR, OCTO_TRACE_ERROR_PERIOD,
        "%s:%u: last timestamp must be > 0 (it is the period of the loop)",
        name, line_no);
    goto fail;
  }

  OctoTrace *trace = g_new0 (OctoTrace, 1);
  trace->n = ms->len;
  trace->period_ms = prev;
  trace->ms = (guint64 *) g_array_free (ms, FALSE);
  return trace;

fail:
  g_array_free (ms, TRUE);
  return NULL;
}

OctoTrace *
octo_trace_load (const gchar *path, GError **error)
{
  gchar *contents;
  gsize len;
  GError *io_error = NULL;

  if (!g_file_get_contents (path, &contents, &len, &io_error)) {
    g_set_error (error, OCTO_TRACE_ERROR, OCTO_TRACE_ERROR_IO,
        "%s:0: cannot read trace: %s", path, io_error->message);
    g_error_free (io_error);
    return NULL;
  }
  OctoTrace *trace = octo_trace_parse (contents, len, path, error);
  g_free (contents);
  return trace;
}

void
octo_trace_free (OctoTrace *trace)
{
  if (trace == NULL)
    return;
  g_free (trace->ms);
  g_free (trace);
}

guint64
octo_trace_mean_bps (const OctoTrace *trace)
{
  return (guint64) trace->n * 1500 * 8 * 1000 / trace->period_ms;
}
