/* End to end through octopus-shim: a case-1 stream (VP8 temporal-layer
 * trace, framerate tags) at about twice the rate of a constant link.  The
 * shim's Octopus queue sheds low-priority frames so base frames arrive and
 * latency stays bounded.  Needs OCTOPUS_SHIM and OCTOPUS_TRACE_DIR. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gst/octopus/gstoctopusmeta.h"

typedef struct {
  GPid pid;
  gint port;
} Shim;

static void
start_shim (Shim *shim, const gchar *trace, gint forward_port)
{
  const gchar *exe = g_getenv ("OCTOPUS_SHIM");
  gchar *forward = g_strdup_printf ("--forward=127.0.0.1:%d", forward_port);
  gchar *down = g_strdup_printf ("--down-trace=%s", trace);
  const gchar *argv[] = { exe, "--listen=127.0.0.1:0", forward, down,
    "--delay-ms=20", "--duration=30", NULL
  };
  gint out;
  GError *err = NULL;
  gchar line[512];
  gsize n = 0;

  fail_unless (exe != NULL, "set OCTOPUS_SHIM to the octopus-shim binary");
  fail_unless (g_spawn_async_with_pipes (NULL, (gchar **) argv, NULL,
          G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &shim->pid, NULL, &out, NULL,
          &err), "cannot start %s: %s", exe, err ? err->message : "");
  /* "octopus-shim: user 0: listening on 127.0.0.1:PORT, ..." */
  while (n < sizeof line - 1 && read (out, line + n, 1) == 1 &&
      line[n] != '\n')
    n++;
  line[n] = '\0';
  const gchar *at = strstr (line, "listening on 127.0.0.1:");
  fail_unless (at != NULL, "unexpected shim output '%s'", line);
  shim->port = atoi (at + strlen ("listening on 127.0.0.1:"));
  close (out);
  g_free (forward);
  g_free (down);
}

static void
stop_shim (Shim *shim)
{
  kill (shim->pid, SIGTERM);
  waitpid (shim->pid, NULL, 0);
  g_spawn_close_pid (shim->pid);
}

GST_START_TEST (test_octopus_queue_sheds_low_priority_on_slow_link)
{
  GstHarness *rx = gst_harness_new_parse ("octopussrc port=0 stats-interval=0");
  GstElement *src = gst_harness_find_element (rx, "octopussrc");
  gchar *trace_path;
  gint rx_port;
  Shim shim;
  GError *err = NULL;

  gst_harness_play (rx);
  g_object_get (src, "bound-port", &rx_port, NULL);
  /* One 1500-byte opportunity every 8 ms: 1.5 Mbit/s, about half of the
   * trace's 3.3 Mbit/s. */
  gint fd = g_file_open_tmp ("octo-link-XXXXXX", &trace_path, NULL);
  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (trace_path, "8\n", -1, NULL));
  start_shim (&shim, trace_path, rx_port);

  gchar *desc = g_strdup_printf ("octopustracesrc kind=temporal tag=false "
      "num-buffers=150 location=%s/mot17-10-temp.trace ! "
      "octopustag policy=framerate ! "
      "octopussink host=127.0.0.1 port=%d stats-interval=0",
      g_getenv ("OCTOPUS_TRACE_DIR"), shim.port);
  GstElement *tx = gst_parse_launch (desc, &err);
  fail_unless (tx != NULL, "%s", err ? err->message : "");
  gst_element_set_state (tx, GST_STATE_PLAYING);
  GstMessage *msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (tx),
      30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);

  /* Collect what arrives until the path has been quiet for 500 ms. */
  guint received[8] = { 0 };
  gint64 quiet_since = g_get_monotonic_time ();
  while (g_get_monotonic_time () - quiet_since < 500000) {
    GstBuffer *buf = gst_harness_try_pull (rx);
    if (!buf) {
      g_usleep (10000);
      continue;
    }
    quiet_since = g_get_monotonic_time ();
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
    received[m->priority]++;
    gst_buffer_unref (buf);
  }
  gst_element_set_state (tx, GST_STATE_NULL);
  gst_object_unref (tx);
  stop_shim (&shim);

  /* Latency as octopussrc measured it on arrival (capture -> complete). */
  GstStructure *stats;
  guint64 p99 = G_MAXUINT64;
  g_object_get (src, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "latency-p99", &p99);
  gst_structure_free (stats);
  GST_INFO ("received by priority %u %u %u %u, latency p99 %"
      G_GUINT64_FORMAT " ms", received[0], received[1], received[2],
      received[3], p99 / GST_MSECOND);

  /* 150 frames, GoP 8: 19 key frames, 19 TL0, 37 TL1, 75 TL2.  The base
   * layer arrives; the more important a layer, the larger the share of it
   * that arrives (a key frame's dropper may legitimately take queued TL0
   * frames with it); TL2 is shed. */
  static const guint sent[] = { 19, 19, 37, 75 };
  fail_unless (received[0] >= 18, "key frames lost: %u", received[0]);
  for (guint p = 1; p < 4; p++)
    fail_unless (received[p] * sent[p - 1] <= received[p - 1] * sent[p],
        "priority %u kept more than priority %u (%u/%u vs %u/%u)", p, p - 1,
        received[p], sent[p], received[p - 1], sent[p - 1]);
  fail_unless (received[3] < 75, "no TL2 frame was dropped");
  /* A 375 KB drop-tail buffer at 1.5 Mbit/s would reach 2 s. */
  fail_unless (p99 < 600 * GST_MSECOND, "latency p99 %" G_GUINT64_FORMAT
      " ms", p99 / GST_MSECOND);

  g_free (desc);
  g_unlink (trace_path);
  g_free (trace_path);
  gst_object_unref (src);
  gst_harness_teardown (rx);
}

GST_END_TEST;

static Suite *
octopus_shim_e2e_suite (void)
{
  Suite *s = suite_create ("octopus-shim-e2e");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 90);
  tcase_add_test (tc, test_octopus_queue_sheds_low_priority_on_slow_link);
  return s;
}

GST_CHECK_MAIN (octopus_shim_e2e);
