/* The shim's latency histogram: bucket bounds and percentiles. */
#include "shim-hist.h"

static void
test_hist_small_values_are_exact (void)
{
  ShimHist h = { 0 };
  for (guint64 v = 1; v <= 50; v++)
    shim_hist_add (&h, v);
  g_assert_cmpuint (h.count, ==, 50);
  g_assert_cmpfloat (shim_hist_quantile (&h, 0.5), ==, 25);
  /* Rank floor (q (n - 1)) + 1: the 49th of 50. */
  g_assert_cmpfloat (shim_hist_quantile (&h, 0.99), ==, 49);
  g_assert_cmpfloat (shim_hist_quantile (&h, 0.0), ==, 1);
}

static void
test_hist_large_values_within_3_percent (void)
{
  ShimHist h = { 0 };
  for (guint i = 0; i < 99; i++)
    shim_hist_add (&h, 20000);          /* 20 ms */
  shim_hist_add (&h, 987654);
  gdouble p50 = shim_hist_quantile (&h, 0.5);
  g_assert_cmpfloat (p50, >=, 20000 * 0.97);
  g_assert_cmpfloat (p50, <=, 20000 * 1.03);
  /* The top value is capped at the exact maximum. */
  g_assert_cmpfloat (shim_hist_quantile (&h, 1.0), ==, 987654);
  g_assert_cmpuint (h.max, ==, 987654);
}

static void
test_hist_empty_and_huge (void)
{
  ShimHist h = { 0 };
  g_assert_cmpfloat (shim_hist_quantile (&h, 0.99), ==, 0);
  shim_hist_add (&h, G_MAXUINT64);
  g_assert_cmpuint (h.count, ==, 1);
  g_assert_cmpfloat (shim_hist_quantile (&h, 0.5), >, 1e12);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shim/hist/small-values-are-exact",
      test_hist_small_values_are_exact);
  g_test_add_func ("/shim/hist/large-values-within-3-percent",
      test_hist_large_values_within_3_percent);
  g_test_add_func ("/shim/hist/empty-and-huge", test_hist_empty_and_huge);
  return g_test_run ();
}
