/* octopussrc against junk, forged senders, partial floods and absurd
 * capture times, fed from plain UDP sockets on loopback. */
#include <arpa/inet.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "transport/octo-packet.h"

#define MTU 1400
/* Generous: conditions are polled for, never waited for with a margin. */
#define WAIT_SECONDS 20

typedef struct {
  GstHarness *h;
  GstElement *src;
  GstBus *bus;
  gint port;
} Receiver;

static void
receiver_start (Receiver *r, const gchar *options)
{
  gchar *desc = g_strdup_printf ("octopussrc port=0 stats-interval=0 %s",
      options);
  r->h = gst_harness_new_parse (desc);
  g_free (desc);
  r->src = gst_harness_find_element (r->h, "octopussrc");
  r->bus = gst_bus_new ();
  gst_element_set_bus (r->src, r->bus);
  gst_harness_play (r->h);
  g_object_get (r->src, "bound-port", &r->port, NULL);
  fail_unless (r->port > 0);
}

static void
receiver_stop (Receiver *r)
{
  gst_element_set_bus (r->src, NULL);
  gst_object_unref (r->bus);
  gst_object_unref (r->src);
  gst_harness_teardown (r->h);
}

static guint64
get_stat (Receiver *r, const gchar *field)
{
  GstStructure *s;
  guint64 v = 0;
  guint u;

  g_object_get (r->src, "stats", &s, NULL);
  if (!gst_structure_get_uint64 (s, field, &v) &&
      gst_structure_get_uint (s, field, &u))
    v = u;
  gst_structure_free (s);
  return v;
}

/* Polls stats until @field is within [@min, @max]; FALSE after
 * WAIT_SECONDS. */
static gboolean
wait_stat_between (Receiver *r, const gchar *field, guint64 min, guint64 max)
{
  gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;
  for (;;) {
    guint64 v = get_stat (r, field);
    if (v >= min && v <= max)
      return TRUE;
    if (g_get_monotonic_time () > end)
      return FALSE;
    g_usleep (10000);
  }
}

static gboolean
wait_stat (Receiver *r, const gchar *field, guint64 at_least)
{
  return wait_stat_between (r, field, at_least, G_MAXUINT64);
}

static gint
sender_socket (void)
{
  gint fd = socket (AF_INET, SOCK_DGRAM, 0);
  fail_unless (fd >= 0);
  return fd;
}

static void
send_to (gint fd, gint port, const guint8 *data, gsize len)
{
  struct sockaddr_in to = {.sin_family = AF_INET,.sin_port = htons (port) };
  to.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  fail_unless (sendto (fd, data, len, 0, (struct sockaddr *) &to,
          sizeof to) == (gssize) len);
}

/* Sends fragment @index of message @id, @msg_len bytes, on stream 0 of
 * connection @conn (a sender's own; several addresses naming one are one
 * multipath sender). */
static void
send_fragment (gint fd, gint port, guint32 conn, guint32 seq, guint32 id,
    gsize msg_len, guint32 index, OctoTime capture_time)
{
  static guint8 *zeros;
  OctoHeader h = {.msg_id = id };
  OctoMsgInfo info;
  guint8 pkt[MTU];

  if (!zeros)
    zeros = g_malloc0 (16 * 1024 * 1024);
  fail_unless (msg_len <= 16 * 1024 * 1024);
  octo_msg_info_init (&info);
  info.capture_time = capture_time;
  gsize n = octo_fragment_write (&h, &info, zeros, msg_len, MTU, index,
      octo_fragment_count (msg_len, MTU), pkt);
  octo_data_stamp (pkt, conn, seq, 0);
  send_to (fd, port, pkt, n);
}

static void
pull_messages (Receiver *r, guint n)
{
  for (guint i = 0; i < n; i++) {
    GstBuffer *buf = gst_harness_pull (r->h);
    fail_unless (buf != NULL, "message %u of %u not received", i, n);
    gst_buffer_unref (buf);
  }
}

static gboolean
warning_posted (Receiver *r)
{
  GstMessage *m = gst_bus_pop_filtered (r->bus, GST_MESSAGE_WARNING);
  if (m)
    gst_message_unref (m);
  return m != NULL;
}

/* One byte from each of 20 sockets, then the first fragment of a message
 * that never completes (a valid header: CRC-8 is easily forged) from 16
 * more, each naming its own connection (a forger cannot know another's):
 * a real sender still gets every message, the junk made no peers
 * and the forged senders made room, with a warning. */
GST_START_TEST (test_junk_and_forged_senders_do_not_lock_out_a_sender)
{
  Receiver r;
  gint junk[20], forged[16], real = sender_socket ();
  const guint8 byte = 0x42;

  receiver_start (&r, "");
  for (guint i = 0; i < G_N_ELEMENTS (junk); i++) {
    junk[i] = sender_socket ();
    send_to (junk[i], r.port, &byte, 1);
  }
  fail_unless (wait_stat (&r, "packets-invalid", G_N_ELEMENTS (junk)));
  fail_unless_equals_uint64 (get_stat (&r, "peers"), 0);

  for (guint i = 0; i < G_N_ELEMENTS (forged); i++) {
    forged[i] = sender_socket ();
    send_fragment (forged[i], r.port, i + 1, 0, 0, 3 * MTU, 0, OCTO_TIME_NONE);
  }
  fail_unless (wait_stat (&r, "packets-received", G_N_ELEMENTS (forged)));
  fail_unless_equals_uint64 (get_stat (&r, "peers"), 16);

  for (guint i = 0; i < 5; i++)
    send_fragment (real, r.port, 100, i, i, 100, 0, OCTO_TIME_NONE);
  pull_messages (&r, 5);
  fail_unless_equals_uint64 (get_stat (&r, "peers-evicted"), 1);
  fail_unless_equals_uint64 (get_stat (&r, "peers-refused"), 0);
  fail_unless (warning_posted (&r));

  for (guint i = 0; i < G_N_ELEMENTS (junk); i++)
    close (junk[i]);
  for (guint i = 0; i < G_N_ELEMENTS (forged); i++)
    close (forged[i]);
  close (real);
  receiver_stop (&r);
}

GST_END_TEST;

/* A sender silent for peer-timeout is forgotten, which frees its place. */
GST_START_TEST (test_idle_sender_expires_and_frees_its_place)
{
  Receiver r;
  gint first = sender_socket (), second = sender_socket ();

  receiver_start (&r, "max-peers=1 peer-timeout=50");
  send_fragment (first, r.port, 1, 0, 0, 100, 0, OCTO_TIME_NONE);
  pull_messages (&r, 1);
  fail_unless (wait_stat (&r, "peers-expired", 1));
  fail_unless_equals_uint64 (get_stat (&r, "peers"), 0);
  /* Counters of a forgotten sender stay in stats. */
  fail_unless_equals_uint64 (get_stat (&r, "messages-delivered"), 1);

  send_fragment (second, r.port, 2, 0, 0, 100, 0, OCTO_TIME_NONE);
  pull_messages (&r, 1);
  fail_unless_equals_uint64 (get_stat (&r, "peers-refused"), 0);
  fail_unless_equals_uint64 (get_stat (&r, "peers-evicted"), 0);
  close (first);
  close (second);
  receiver_stop (&r);
}

GST_END_TEST;

/* Sixteen senders each start an 8 MiB message and stop: the element holds
 * at most max-total-partial-bytes, refuses the rest, and holds nothing
 * once the partials time out. */
GST_START_TEST (test_partials_of_many_senders_stay_within_total_and_expire)
{
  Receiver r;
  gint fd[16];
  const guint64 total = 32 * 1024 * 1024;

  receiver_start (&r, "timeout=200 max-total-partial-bytes=33554432");
  for (guint i = 0; i < G_N_ELEMENTS (fd); i++) {
    fd[i] = sender_socket ();
    send_fragment (fd[i], r.port, i + 1, 0, 0, 8 * 1024 * 1024, 0, OCTO_TIME_NONE);
    send_fragment (fd[i], r.port, i + 1, 1, 0, 8 * 1024 * 1024, 1, OCTO_TIME_NONE);
  }
  fail_unless (wait_stat (&r, "packets-received", 2 * G_N_ELEMENTS (fd)));
  fail_unless (get_stat (&r, "partial-bytes") <= total);
  fail_unless (get_stat (&r, "partial-bytes") >= total / 2);
  fail_unless (get_stat (&r, "messages-refused") > 0);

  fail_unless (wait_stat (&r, "messages-timed-out", 4));
  fail_unless (wait_stat (&r, "partial-messages", 0));
  while (get_stat (&r, "partial-bytes") > 0)
    g_usleep (10000);
  for (guint i = 0; i < G_N_ELEMENTS (fd); i++)
    close (fd[i]);
  receiver_stop (&r);
}

GST_END_TEST;

/* A capture time in the future or minutes in the past gives no latency
 * sample; the rejected ones are counted. */
GST_START_TEST (test_absurd_capture_times_are_rejected_from_latency)
{
  Receiver r;
  gint fd = sender_socket ();
  GstClock *clock = gst_system_clock_obtain ();
  OctoTime now = gst_clock_get_time (clock);

  gst_object_unref (clock);
  fail_unless (now > 120 * GST_SECOND, "clock too young for this test");
  receiver_start (&r, "");
  send_fragment (fd, r.port, 0, 0, 0, 100, 0, now + 3600 * GST_SECOND);
  send_fragment (fd, r.port, 0, 1, 1, 100, 0, now - 120 * GST_SECOND);
  send_fragment (fd, r.port, 0, 2, 2, 100, 0, now);
  pull_messages (&r, 3);
  fail_unless_equals_uint64 (get_stat (&r, "latency-samples-rejected"), 2);
  fail_unless (get_stat (&r, "latency-p50") < 60 * GST_SECOND);
  fail_unless (get_stat (&r, "latency-p50") > 0);
  close (fd);
  receiver_stop (&r);
}

GST_END_TEST;

static Suite *
octopus_src_robustness_suite (void)
{
  Suite *s = suite_create ("octopus_src_robustness");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_junk_and_forged_senders_do_not_lock_out_a_sender);
  tcase_add_test (tc, test_idle_sender_expires_and_frees_its_place);
  tcase_add_test (tc,
      test_partials_of_many_senders_stay_within_total_and_expire);
  tcase_add_test (tc, test_absurd_capture_times_are_rejected_from_latency);
  return s;
}

GST_CHECK_MAIN (octopus_src_robustness);
