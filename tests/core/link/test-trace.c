/* Mahimahi trace parsing: accepted shapes and exact error messages. */
#include "link/octo-trace.h"

#include <string.h>

static void
test_trace_parses_lines_and_period (void)
{
  const gchar text[] = "0\n0\n3\r\n10\n";
  OctoTrace *trace = octo_trace_parse (text, sizeof text - 1, "t", NULL);

  g_assert_nonnull (trace);
  g_assert_cmpuint (trace->n, ==, 4);
  g_assert_cmpuint (trace->ms[2], ==, 3);
  g_assert_cmpuint (trace->period_ms, ==, 10);
  /* 4 x 1500 bytes every 10 ms = 4.8 Mbit/s. */
  g_assert_cmpuint (octo_trace_mean_bps (trace), ==, 4800000);
  octo_trace_free (trace);
}

static void
test_trace_last_line_without_newline (void)
{
  OctoTrace *trace = octo_trace_parse ("1\n2", 3, "t", NULL);
  g_assert_nonnull (trace);
  g_assert_cmpuint (trace->n, ==, 2);
  octo_trace_free (trace);
}

static void
expect_error (const gchar *text, gint code, const gchar *message)
{
  GError *error = NULL;
  OctoTrace *trace = octo_trace_parse (text, strlen (text), "x.trace",
      &error);

  g_assert_null (trace);
  g_assert_error (error, OCTO_TRACE_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
  g_error_free (error);
}

static void
test_trace_errors_name_file_line_and_reason (void)
{
  expect_error ("1\n2\nabc\n", OCTO_TRACE_ERROR_SYNTAX,
      "x.trace:3: not a non-negative integer timestamp in ms");
  expect_error ("1\n-2\n", OCTO_TRACE_ERROR_SYNTAX,
      "x.trace:2: not a non-negative integer timestamp in ms");
  expect_error ("1\n\n3\n", OCTO_TRACE_ERROR_SYNTAX,
      "x.trace:2: empty line (expected a timestamp in ms)");
  expect_error ("1 \n", OCTO_TRACE_ERROR_SYNTAX,
      "x.trace:1: not a non-negative integer timestamp in ms");
  expect_error ("5\n4\n", OCTO_TRACE_ERROR_ORDER,
      "x.trace:2: timestamp 4 is smaller than the previous one (5)");
  expect_error ("", OCTO_TRACE_ERROR_EMPTY,
      "x.trace:1: trace has no delivery opportunity");
  expect_error ("0\n0\n", OCTO_TRACE_ERROR_PERIOD,
      "x.trace:2: last timestamp must be > 0 (it is the period of the loop)");
  expect_error ("99999999999999999999\n", OCTO_TRACE_ERROR_SYNTAX,
      "x.trace:1: timestamp too large");
}

static void
test_trace_load_missing_file_fails (void)
{
  GError *error = NULL;
  g_assert_null (octo_trace_load ("/nonexistent/dir/x.trace", &error));
  g_assert_error (error, OCTO_TRACE_ERROR, OCTO_TRACE_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message,
          "/nonexistent/dir/x.trace:0: cannot read trace: "));
  g_error_free (error);
}

static void
test_trace_loads_shipped_traces (void)
{
  const gchar *dir = g_getenv ("OCTO_TRACE_DIR");
  const gchar *names[] = { "Verizon-LTE-short.down", "5G-driving-1.down",
    "TMobile-LTE-short.up", NULL };

  g_assert_nonnull (dir);
  for (guint i = 0; names[i]; i++) {
    gchar *path = g_build_filename (dir, names[i], NULL);
    GError *error = NULL;
    OctoTrace *trace = octo_trace_load (path, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (trace->n, >, 1000);
    octo_trace_free (trace);
    g_free (path);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shim/trace/parses-lines-and-period",
      test_trace_parses_lines_and_period);
  g_test_add_func ("/shim/trace/last-line-without-newline",
      test_trace_last_line_without_newline);
  g_test_add_func ("/shim/trace/errors-name-file-line-and-reason",
      test_trace_errors_name_file_line_and_reason);
  g_test_add_func ("/shim/trace/load-missing-file-fails",
      test_trace_load_missing_file_fails);
  g_test_add_func ("/shim/trace/loads-shipped-traces",
      test_trace_loads_shipped_traces);
  return g_test_run ();
}
