/* GCC's probe controller: start-up clusters at 3x the start rate, then 2x
 * each result while results keep up; afterwards a cluster at 2x the target
 * every 5 s, only while the app sends well below the target. */
#include "octo-gcc-probe.h"

#define MBPS G_GUINT64_CONSTANT (1000000)

static void
test_cluster_lasts_15_ms_with_at_least_5_packets (void)
{
  g_assert_cmpuint (octo_gcc_probe_cluster_bytes (10 * MBPS), ==, 18750);
  g_assert_cmpuint (octo_gcc_probe_cluster_bytes (1 * MBPS), ==, 5 * 1200);
}

static void
test_start_up_doubles_while_results_keep_up (void)
{
  OctoGccProbe p;

  octo_gcc_probe_init (&p);
  g_assert_cmpuint (octo_gcc_probe_poll (&p, 0, 1 * MBPS), ==, 3 * MBPS);
  /* nothing more while the cluster is out */
  g_assert_cmpuint (octo_gcc_probe_poll (&p, OCTO_SECOND, 1 * MBPS), ==, 0);
  /* over 70 % of the cluster's rate keeps the start-up going */
  g_assert_cmpuint (octo_gcc_probe_on_result (&p, 2200000, OCTO_SECOND), ==,
      2 * 2200000);
  g_assert_cmpuint (octo_gcc_probe_next_poll (&p, OCTO_SECOND), ==,
      OCTO_TIME_NONE);
  /* less ends it; the next cluster waits for the application-limited test */
  g_assert_cmpuint (octo_gcc_probe_on_result (&p, 2 * MBPS, 2 * OCTO_SECOND),
      ==, 0);
  g_assert_cmpuint (octo_gcc_probe_next_poll (&p, 2 * OCTO_SECOND), ==,
      7 * OCTO_SECOND);
}

static void
test_alr_probe_only_while_the_app_sends_little (void)
{
  OctoGccProbe p;

  octo_gcc_probe_init (&p);
  octo_gcc_probe_poll (&p, 0, 1 * MBPS);
  octo_gcc_probe_on_result (&p, 1 * MBPS, OCTO_SECOND);
  /* 2 Mbit/s of frames over a full window, against a 2 Mbit/s target */
  for (guint i = 0; i <= 25; i++)
    octo_gcc_probe_on_app_bytes (&p, 10000,
        OCTO_SECOND + i * 40 * OCTO_MSECOND);
  octo_gcc_probe_on_app_bytes (&p, 10000, 2 * OCTO_SECOND + 40 * OCTO_MSECOND);
  g_assert_cmpuint (octo_gcc_probe_poll (&p, 5 * OCTO_SECOND, 2 * MBPS), ==,
      0);
  g_assert_cmpuint (octo_gcc_probe_poll (&p, 6 * OCTO_SECOND, 2 * MBPS), ==,
      0);
  /* the same app against a 4 Mbit/s target is application-limited */
  g_assert_cmpuint (octo_gcc_probe_poll (&p, 6 * OCTO_SECOND, 4 * MBPS), ==,
      8 * MBPS);
  g_assert_cmpuint (octo_gcc_probe_poll (&p, 7 * OCTO_SECOND, 4 * MBPS), ==,
      0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gcc-probe/cluster-size",
      test_cluster_lasts_15_ms_with_at_least_5_packets);
  g_test_add_func ("/gcc-probe/start-up-doubles",
      test_start_up_doubles_while_results_keep_up);
  g_test_add_func ("/gcc-probe/alr-only-while-app-limited",
      test_alr_probe_only_while_the_app_sends_little);
  return g_test_run ();
}
