/* libFuzzer target: Mahimahi trace parsing never crashes, and what it
 * accepts is a valid trace (non-decreasing, positive period). */
#include "link/octo-trace.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  GError *error = NULL;
  OctoTrace *trace = octo_trace_parse ((const gchar *) data, size, "fuzz",
      &error);

  if (trace == NULL) {
    g_assert_nonnull (error);
    g_error_free (error);
    return 0;
  }
  g_assert_cmpuint (trace->n, >, 0);
  g_assert_cmpuint (trace->period_ms, ==, trace->ms[trace->n - 1]);
  g_assert_cmpuint (trace->period_ms, >, 0);
  for (guint i = 1; i < trace->n; i++)
    g_assert_cmpuint (trace->ms[i - 1], <=, trace->ms[i]);
  octo_trace_free (trace);
  return 0;
}
