/* gst-octopus core: Mahimahi link traces.
 *
 * A trace is one non-negative integer per line: the millisecond offset of a
 * delivery opportunity for 1500 bytes.  Offsets never decrease; the trace
 * repeats with a period equal to its last offset, exactly as Mahimahi's
 * mm-link replays it. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_TRACE_ERROR (octo_trace_error_quark ())
GQuark octo_trace_error_quark (void);

typedef enum {
  OCTO_TRACE_ERROR_IO,
  OCTO_TRACE_ERROR_SYNTAX,      /* not a non-negative integer */
  OCTO_TRACE_ERROR_ORDER,       /* a timestamp smaller than the previous one */
  OCTO_TRACE_ERROR_EMPTY,       /* no opportunity at all */
  OCTO_TRACE_ERROR_PERIOD,      /* the last timestamp is 0: no period to loop */
  OCTO_TRACE_ERROR_TOO_LARGE,   /* beyond OCTO_TRACE_MAX_* */
} OctoTraceError;

/* Bounds that keep a hostile file from exhausting memory or overflowing. */
#define OCTO_TRACE_MAX_LINES (16u * 1024 * 1024)
#define OCTO_TRACE_MAX_MS ((guint64) 1 << 40)

typedef struct {
  guint64 *ms;          /* opportunity offsets, non-decreasing */
  guint n;              /* number of opportunities */
  guint64 period_ms;    /* = ms[n - 1] > 0 */
} OctoTrace;

/* Parses @len bytes; @name prefixes error messages ("NAME:LINE: reason").
 * Lines may end in "\n" or "\r\n"; blank lines are errors, as in Mahimahi. */
OctoTrace *octo_trace_parse (const gchar *data, gsize len, const gchar *name,
    GError **error);
OctoTrace *octo_trace_load (const gchar *path, GError **error);
void octo_trace_free (OctoTrace *trace);

/* Mean capacity in bits/s of 1500-byte opportunities over one period. */
guint64 octo_trace_mean_bps (const OctoTrace *trace);

G_END_DECLS
