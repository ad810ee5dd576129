/* End to end through octopus-shim: a case-1 stream (VP8 temporal-layer
 * trace, framerate tags) at about twice the rate of a constant link.  The
 * shim's Octopus queue sheds low-priority frames so base frames arrive and
 * latency stays bounded; two shim links side by side carry one multipath
 * stream.  Needs OCTOPUS_SHIM and OCTOPUS_TRACE_DIR. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gio/gio.h>
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

static gint
free_udp_port (void)
{
  GSocket *sock = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_DATAGRAM,
      G_SOCKET_PROTOCOL_UDP, NULL);
  GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *any = g_inet_socket_address_new (lo, 0), *bound;
  gint port;

  fail_unless (g_socket_bind (sock, any, FALSE, NULL));
  bound = g_socket_get_local_address (sock, NULL);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_object_unref (bound);
  g_object_unref (any);
  g_object_unref (lo);
  g_object_unref (sock);
  return port;
}

/* One 1200-byte message of stream 0; every 4th a dropper of priority >= 1. */
static GstBuffer *
restart_message (guint32 frame_id, gboolean dropper)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 1200, NULL);
  GstOctopusMeta *m = gst_buffer_add_octopus_meta (buf);

  gst_buffer_memset (buf, 0, 0x5a, 1200);
  m->frame_id = frame_id;
  m->priority = dropper ? 0 : 1;
  m->drop = dropper;
  m->priority_threshold = 1;
  return buf;
}

static GstHarness *
restart_sender (gint bind_port, gint port, const gchar *options)
{
  gchar *desc = g_strdup_printf ("octopussink host=127.0.0.1 port=%d "
      "bind-port=%d stats-interval=0 %s", port, bind_port, options);
  GstHarness *h = gst_harness_new_parse (desc);

  g_free (desc);
  gst_harness_set_src_caps_str (h, "application/octet-stream");
  return h;
}

/* Issue 16 item 3 through the shim: a sender overruns a constant 1.5 Mbit/s
 * link so the shim's Octopus queue drops messages by droppers, stops
 * without a word and starts again on the same address within the queue's
 * record age.  Its message ids start from 0 again; the queue knows the new
 * connection id at once, so new messages whose ids the old connection had
 * dropped are delivered, not discarded as "once dropped, always dropped". */
GST_START_TEST (test_restarted_sender_through_the_shim_is_judged_afresh)
{
  GstHarness *rx = gst_harness_new_parse ("octopussrc port=0 stats-interval=0");
  GstElement *src = gst_harness_find_element (rx, "octopussrc");
  gint rx_port, bind_port = free_udp_port ();
  gboolean got[16] = { FALSE };
  guint delivered = 0, lost_then_sent = 0;
  gchar *trace_path;
  Shim shim;

  gst_harness_play (rx);
  g_object_get (src, "bound-port", &rx_port, NULL);
  gint fd = g_file_open_tmp ("octo-link-XXXXXX", &trace_path, NULL);
  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (trace_path, "8\n", -1, NULL));
  start_shim (&shim, trace_path, rx_port);

  /* the old connection: 16 messages at twice the link's rate (fewer than
   * the 32 decided records a stream keeps, so none is forgotten early) */
  GstHarness *tx = restart_sender (bind_port, shim.port,
      "congestion-control=fixed max-bitrate=3000000 rules=false");
  for (guint i = 0; i < 16; i++)
    fail_unless_equals_int (gst_harness_push (tx,
            restart_message (i, i % 4 == 3)), GST_FLOW_OK);
  gint64 quiet_since = g_get_monotonic_time ();
  while (g_get_monotonic_time () - quiet_since < 300000) {
    GstBuffer *buf = gst_harness_try_pull (rx);
    if (!buf) {
      g_usleep (5000);
      continue;
    }
    quiet_since = g_get_monotonic_time ();
    got[gst_buffer_get_octopus_meta (buf)->msg_id % 16] = TRUE;
    delivered++;
    gst_buffer_unref (buf);
  }
  gst_harness_teardown (tx);
  fail_unless (delivered > 0 && delivered < 16,
      "the shim dropped none of the old connection's messages (%u)",
      delivered);

  /* the new connection, paced by BBR, one message at a time: ids 0..15 */
  gint64 restart = g_get_monotonic_time ();
  tx = restart_sender (bind_port, shim.port, "probe=false");
  for (guint i = 0; i < 16; i++) {
    gint64 pushed = g_get_monotonic_time ();
    fail_unless_equals_int (gst_harness_push (tx,
            restart_message (100 + i, FALSE)), GST_FLOW_OK);
    GstBuffer *buf = NULL;
    while (!(buf = gst_harness_try_pull (rx))
        && g_get_monotonic_time () - pushed < G_USEC_PER_SEC)
      g_usleep (1000);
    fail_unless (buf != NULL, "new message %u (msg id %u, %s by the old "
        "connection) was not delivered", 100 + i, i,
        got[i] ? "delivered" : "dropped");
    GstOctopusMeta *m = gst_buffer_get_octopus_meta (buf);
    fail_unless_equals_int (m->frame_id, 100 + i);
    if (i == 0)
      GST_INFO ("first message of the new connection after %" G_GINT64_FORMAT
          " us", g_get_monotonic_time () - pushed);
    lost_then_sent += !got[i];
    gst_buffer_unref (buf);
  }
  /* within the engine's record age (2 s), or age alone would explain it */
  fail_unless (g_get_monotonic_time () - restart < 1500000,
      "the new connection took too long to test the restart itself");
  fail_unless (lost_then_sent > 0);

  gst_harness_teardown (tx);
  stop_shim (&shim);
  g_unlink (trace_path);
  g_free (trace_path);
  gst_object_unref (src);
  gst_harness_teardown (rx);
}

GST_END_TEST;

/* A scripted constant link: one 1500-byte opportunity every @every_ms. */
static gchar *
constant_trace (guint every_ms)
{
  gchar *path, *line = g_strdup_printf ("%u\n", every_ms);
  gint fd = g_file_open_tmp ("octo-link-XXXXXX", &path, NULL);

  fail_unless (fd >= 0);
  close (fd);
  fail_unless (g_file_set_contents (path, line, -1, NULL));
  g_free (line);
  return path;
}

static guint64
stat_u64 (GstElement *element, const gchar *field)
{
  GstStructure *stats;
  guint64 v = 0;

  g_object_get (element, "stats", &stats, NULL);
  fail_unless (gst_structure_get_uint64 (stats, field, &v), "no %s", field);
  gst_structure_free (stats);
  return v;
}

/* Two shim links side by side (1.5 and 3 Mbit/s scripted traces), one
 * octopussink sending over both (min-cost) into one octopussrc: the
 * receiver takes both shims' addresses as one sender, every key frame
 * arrives, and more arrives than the slower link alone could carry. */
GST_START_TEST (test_two_shim_links_carry_one_stream)
{
  GstHarness *rx = gst_harness_new_parse ("octopussrc port=0 stats-interval=0");
  GstElement *src = gst_harness_find_element (rx, "octopussrc");
  gchar *traces[2] = { constant_trace (8), constant_trace (4) };
  Shim shims[2];
  GError *err = NULL;
  gint rx_port;
  guint key_frames = 0;

  gst_harness_play (rx);
  g_object_get (src, "bound-port", &rx_port, NULL);
  for (guint i = 0; i < 2; i++)
    start_shim (&shims[i], traces[i], rx_port);

  gchar *desc = g_strdup_printf ("octopustracesrc kind=temporal tag=false "
      "num-buffers=150 location=%s/mot17-10-temp.trace ! "
      "octopustag policy=framerate ! octopussink name=sink stats-interval=0 "
      "scheduler=min-cost paths=\"127.0.0.1:%d,127.0.0.1:%d\"",
      g_getenv ("OCTOPUS_TRACE_DIR"), shims[0].port, shims[1].port);
  GstElement *tx = gst_parse_launch (desc, &err);
  fail_unless (tx != NULL, "%s", err ? err->message : "");
  gint64 start = g_get_monotonic_time ();
  gst_element_set_state (tx, GST_STATE_PLAYING);
  GstMessage *msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (tx),
      30 * GST_SECOND, GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);

  gint64 quiet_since = g_get_monotonic_time ();
  while (g_get_monotonic_time () - quiet_since < 500000) {
    GstBuffer *buf = gst_harness_try_pull (rx);
    if (!buf) {
      g_usleep (10000);
      continue;
    }
    quiet_since = g_get_monotonic_time ();
    key_frames += gst_buffer_get_octopus_meta (buf)->priority == 0;
    gst_buffer_unref (buf);
  }
  gdouble seconds = (quiet_since - start) / 1e6;

  GstElement *sink = gst_bin_get_by_name (GST_BIN (tx), "sink");
  GstStructure *stats;
  g_object_get (sink, "stats", &stats, NULL);
  const GValue *paths = gst_structure_get_value (stats, "paths");
  fail_unless (paths && gst_value_array_get_size (paths) == 2);
  for (guint i = 0; i < 2; i++) {
    const GstStructure *p = gst_value_get_structure
        (gst_value_array_get_value (paths, i));
    guint64 acked = 0;

    fail_unless (gst_structure_get_uint64 (p, "packets-acked", &acked));
    fail_unless (acked > 0, "nothing acked over link %u", i);
  }
  gst_structure_free (stats);
  gst_object_unref (sink);
  gst_element_set_state (tx, GST_STATE_NULL);
  gst_object_unref (tx);
  for (guint i = 0; i < 2; i++)
    stop_shim (&shims[i]);

  guint64 delivered = stat_u64 (src, "bytes-delivered");
  GST_INFO ("%u key frames, %" G_GUINT64_FORMAT " bytes in %.1f s",
      key_frames, delivered, seconds);
  fail_unless_equals_uint64 (stat_u64 (src, "addresses-joined"), 1);
  fail_unless (key_frames >= 18, "key frames lost: %u of 19", key_frames);
  /* the 1.5 Mbit/s link alone: 187,500 bytes a second, headers included */
  fail_unless (delivered > 187500 * seconds, "%" G_GUINT64_FORMAT
      " bytes in %.1f s fit the slower link alone", delivered, seconds);

  g_free (desc);
  for (guint i = 0; i < 2; i++) {
    g_unlink (traces[i]);
    g_free (traces[i]);
  }
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
  tcase_add_test (tc, test_restarted_sender_through_the_shim_is_judged_afresh);
  tcase_add_test (tc, test_two_shim_links_carry_one_stream);
  return s;
}

GST_CHECK_MAIN (octopus_shim_e2e);
