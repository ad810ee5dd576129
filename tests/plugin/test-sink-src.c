/* octopussink -> octopussrc over loopback UDP. */
#include <string.h>
#include <gst/check/gstcheck.h>
#include <gio/gio.h>
#include <gst/check/gstharness.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gst/octopus/gstoctopusmeta.h"
#include <gst/video/video.h>

static GstHarness *
start_receiver (gint *port)
{
  GstHarness *h = gst_harness_new_parse ("octopussrc port=0 stats-interval=0");
  GstElement *src = gst_harness_find_element (h, "octopussrc");

  gst_harness_play (h);
  g_object_get (src, "bound-port", port, NULL);
  fail_unless (*port > 0);
  gst_object_unref (src);
  return h;
}

static GstHarness *
start_sender (const gchar *options, gint port)
{
  gchar *desc = g_strdup_printf ("octopussink host=127.0.0.1 port=%d "
      "stats-interval=0 %s", port, options);
  GstHarness *h = gst_harness_new_parse (desc);
  g_free (desc);
  gst_harness_set_src_caps_str (h, "application/octet-stream");
  return h;
}

static GstBuffer *
message (gsize size, guint32 frame_id, GRand *rand)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, size, NULL);
  GstMapInfo map;
  GstOctopusMeta *m;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < size; i++)
    map.data[i] = g_rand_int (rand);
  gst_buffer_unmap (buf, &map);
  m = gst_buffer_add_octopus_meta (buf);
  m->stream_id = 3;
  m->priority = 2;
  m->drop = TRUE;
  m->priority_threshold = 4;
  m->link_bitrate_threshold_bps = 1000;
  m->slack_ms = 250;
  m->frame_id = frame_id;
  m->spatial_layer = 1;
  m->temporal_layer = 2;
  m->cell_id = 3;
  m->density_layer = 4;
  m->keyframe = frame_id % 2;
  m->capture_time = 1000 + frame_id;
  return buf;
}

static void
count_notify (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  (void) object;
  (void) pspec;
  g_atomic_int_inc ((gint *) user_data);
}

GST_START_TEST (test_round_trip_is_byte_exact_from_1_byte_to_1_megabyte)
{
  const gsize sizes[] = { 1, 2, 100, 1347, 1348, 1349, 1400, 5000, 65536,
    100000, 500000, 1000000
  };
  GRand *rand = g_rand_new_with_seed (11);
  guint32 last_msg_id = 0;
  gint port;
  GstHarness *rx = start_receiver (&port);
  /* The send buffer must hold the largest message. */
  GstHarness *tx = start_sender ("buffer-size=4000000", port);
  GstElement *sink = gst_harness_find_element (tx, "octopussink");
  gint notified = 0, notified_deprecated = 0;

  g_signal_connect (sink, "notify::estimated-bitrate",
      G_CALLBACK (count_notify), &notified);
  g_signal_connect (sink, "notify::bandwidth", G_CALLBACK (count_notify),
      &notified_deprecated);

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    GstBuffer *in = message (sizes[i], i, rand), *out;
    GstOctopusMeta *m;
    GstMapInfo a, b;

    gst_buffer_ref (in);
    fail_unless_equals_int (gst_harness_push (tx, in), GST_FLOW_OK);
    out = gst_harness_pull (rx);
    fail_unless (out != NULL, "message %u (%" G_GSIZE_FORMAT " bytes) lost",
        i, sizes[i]);
    gst_buffer_map (in, &a, GST_MAP_READ);
    gst_buffer_map (out, &b, GST_MAP_READ);
    fail_unless_equals_uint64 (b.size, a.size);
    fail_unless (memcmp (a.data, b.data, a.size) == 0);
    gst_buffer_unmap (in, &a);
    gst_buffer_unmap (out, &b);

    m = gst_buffer_get_octopus_meta (out);
    fail_unless (m != NULL);
    fail_unless_equals_int (m->stream_id, 3);
    /* msg_ids increase; padding between messages may skip some */
    fail_unless (i == 0 || m->msg_id > last_msg_id);
    last_msg_id = m->msg_id;
    fail_unless_equals_int (m->priority, 2);
    fail_unless (m->drop);
    fail_unless_equals_int (m->priority_threshold, 4);
    fail_unless_equals_int (m->slack_ms, 250);
    fail_unless (m->link_bitrate_threshold_bps >= 996 &&
        m->link_bitrate_threshold_bps <= 1004);
    fail_unless_equals_int (m->frame_id, i);
    fail_unless_equals_int (m->spatial_layer, 1);
    fail_unless_equals_int (m->temporal_layer, 2);
    fail_unless_equals_int (m->cell_id, 3);
    fail_unless_equals_int (m->density_layer, 4);
    fail_unless_equals_int (m->keyframe, i % 2);
    fail_unless_equals_uint64 (m->capture_time, 1000 + i);
    gst_buffer_unref (in);
    gst_buffer_unref (out);
  }

  /* The estimate reached upstream, as a property (under its deprecated
   * name too) and as an event. */
  guint bw = 0;
  guint64 event_bw = 0, deprecated_bw = 0;
  g_object_get (sink, "estimated-bitrate", &bw, "bandwidth", &deprecated_bw,
      NULL);
  fail_unless (bw > 0);
  fail_unless_equals_uint64 (deprecated_bw, bw);
  fail_unless (g_atomic_int_get (&notified) > 0);
  fail_unless (g_atomic_int_get (&notified_deprecated) > 0);
  GstEvent *ev;
  while ((ev = gst_harness_try_pull_upstream_event (tx))) {
    gst_octopus_event_parse_bandwidth (ev, &event_bw);
    gst_event_unref (ev);
  }
  fail_unless (event_bw > 0);

  GstStructure *stats;
  guint64 sent = 0, lost = 1;
  g_object_get (sink, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "packets-sent", &sent);
  gst_structure_get_uint64 (stats, "packets-lost", &lost);
  fail_unless (sent > 1000);
  gst_structure_free (stats);
  gst_object_unref (sink);

  GstElement *src = gst_harness_find_element (rx, "octopussrc");
  guint64 delivered = 0;
  g_object_get (src, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "messages-delivered", &delivered);
  fail_unless_equals_uint64 (delivered, G_N_ELEMENTS (sizes));
  gst_structure_free (stats);
  gst_object_unref (src);

  gst_harness_teardown (tx);
  gst_harness_teardown (rx);
  g_rand_free (rand);
}

GST_END_TEST;

/* A free UDP port on the loopback interface. */
static gint
free_udp_port (void)
{
  struct sockaddr_in addr = {.sin_family = AF_INET,
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK)
  };
  socklen_t len = sizeof addr;
  gint fd = socket (AF_INET, SOCK_DGRAM, 0);

  fail_unless (fd >= 0);
  fail_unless (bind (fd, (struct sockaddr *) &addr, sizeof addr) == 0);
  fail_unless (getsockname (fd, (struct sockaddr *) &addr, &len) == 0);
  close (fd);
  return ntohs (addr.sin_port);
}

/* Pulls a buffer, waiting at most @timeout_us. */
static GstBuffer *
pull_within (GstHarness *h, gint64 timeout_us)
{
  gint64 end = g_get_monotonic_time () + timeout_us;
  GstBuffer *buf;

  while (!(buf = gst_harness_try_pull (h)) && g_get_monotonic_time () < end)
    g_usleep (1000);
  return buf;
}

/* Issue 16 item 3: a sender that stops without a word (as after kill -9)
 * and starts again on the same bind-port is a new connection to
 * octopussrc, whose first message is delivered at once, not taken for a
 * late message of the old one. */
GST_START_TEST (test_restarted_sender_on_the_same_port_is_heard_at_once)
{
  GRand *rand = g_rand_new_with_seed (5);
  gint port, bind_port = free_udp_port ();
  GstHarness *rx = start_receiver (&port);
  gchar *options = g_strdup_printf ("bind-port=%d", bind_port);
  GstHarness *tx = start_sender (options, port);
  GstBuffer *out;

  for (guint i = 0; i < 20; i++) {
    fail_unless_equals_int (gst_harness_push (tx, message (500, i, rand)),
        GST_FLOW_OK);
    out = gst_harness_pull (rx);
    fail_unless (out != NULL);
    gst_buffer_unref (out);
  }
  gst_harness_teardown (tx);

  tx = start_sender (options, port);
  gint64 start = g_get_monotonic_time ();
  fail_unless_equals_int (gst_harness_push (tx, message (500, 100, rand)),
      GST_FLOW_OK);
  out = pull_within (rx, G_USEC_PER_SEC);
  fail_unless (out != NULL, "the restarted sender's first message was lost");
  GST_INFO ("delivered after %" G_GINT64_FORMAT " us",
      g_get_monotonic_time () - start);
  GstOctopusMeta *m = gst_buffer_get_octopus_meta (out);
  fail_unless_equals_int (m->frame_id, 100);
  gst_buffer_unref (out);

  GstElement *src = gst_harness_find_element (rx, "octopussrc");
  GstStructure *stats;
  guint64 replaced = 0;
  guint peers = 0;
  g_object_get (src, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "connections-replaced", &replaced);
  gst_structure_get_uint (stats, "peers", &peers);
  fail_unless_equals_uint64 (replaced, 1);
  fail_unless_equals_int (peers, 1);
  gst_structure_free (stats);
  gst_object_unref (src);

  gst_harness_teardown (tx);
  gst_harness_teardown (rx);
  g_free (options);
  g_rand_free (rand);
}

GST_END_TEST;

/* The force-key-unit events octopussink sent upstream since the last call
 * (each asks for all headers, as a PLI does), other events dropped. */
static guint
take_key_unit_requests (GstHarness *tx)
{
  GstEvent *ev;
  guint n = 0;

  while ((ev = gst_harness_try_pull_upstream_event (tx))) {
    if (gst_video_event_is_force_key_unit (ev)) {
      gboolean all_headers = FALSE;

      gst_video_event_parse_upstream_force_key_unit (ev, NULL, &all_headers,
          NULL);
      fail_unless (all_headers);
      n++;
    }
    gst_event_unref (ev);
  }
  return n;
}

/* A decoder behind octopussrc lost a reference and asks upstream for a key
 * frame: the request crosses the network on the ACKs, and octopussink asks
 * its encoder once (the receiver repeats it on its ACKs for a while). */
GST_START_TEST (test_keyframe_request_reaches_the_encoder)
{
  GRand *rand = g_rand_new_with_seed (9);
  gint port;
  GstHarness *rx = start_receiver (&port);
  GstHarness *tx = start_sender ("", port);
  GstElement *src = gst_harness_find_element (rx, "octopussrc");
  GstElement *sink = gst_harness_find_element (tx, "octopussink");
  GstStructure *stats;
  guint64 asked = 0, heard = 0;
  guint forced = 0;

  for (guint i = 0; i < 5; i++) {
    fail_unless_equals_int (gst_harness_push (tx, message (500, i, rand)),
        GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (rx));
  }
  fail_unless (gst_harness_push_upstream_event (rx,
          gst_video_event_new_upstream_force_key_unit (GST_CLOCK_TIME_NONE,
              TRUE, 0)));
  /* messages for 1 s, so ACKs carry the request and then stop carrying it */
  for (guint i = 5; i < 55; i++) {
    fail_unless_equals_int (gst_harness_push (tx, message (500, i, rand)),
        GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (rx));
    g_usleep (20000);
    forced += take_key_unit_requests (tx);
  }
  fail_unless_equals_int (forced, 1);
  g_object_get (src, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "keyframe-requests", &asked);
  gst_structure_free (stats);
  g_object_get (sink, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "keyframe-requests", &heard);
  gst_structure_free (stats);
  fail_unless_equals_uint64 (asked, 1);
  fail_unless_equals_uint64 (heard, 1);

  gst_object_unref (src);
  gst_object_unref (sink);
  gst_harness_teardown (tx);
  gst_harness_teardown (rx);
  g_rand_free (rand);
}

GST_END_TEST;

/* The receiver goes silent after acknowledging a few messages (an outage):
 * octopussink asks its encoder for one key frame, outage-restart ms after
 * the first packet nobody acknowledged, however long the outage lasts. */
GST_START_TEST (test_outage_asks_the_encoder_for_one_key_frame)
{
  GRand *rand = g_rand_new_with_seed (11);
  gint port;
  GstHarness *rx = start_receiver (&port);
  GstHarness *tx = start_sender ("outage-restart=200", port);
  GstElement *sink = gst_harness_find_element (tx, "octopussink");
  GstStructure *stats;
  guint64 restarts = 0;
  guint forced = 0;

  for (guint i = 0; i < 5; i++) {
    fail_unless_equals_int (gst_harness_push (tx, message (500, i, rand)),
        GST_FLOW_OK);
    gst_buffer_unref (gst_harness_pull (rx));
  }
  gst_harness_teardown (rx);
  /* 1.5 s of messages nobody acknowledges */
  for (guint i = 5; i < 80; i++) {
    fail_unless_equals_int (gst_harness_push (tx, message (500, i, rand)),
        GST_FLOW_OK);
    g_usleep (20000);
    forced += take_key_unit_requests (tx);
  }
  fail_unless_equals_int (forced, 1);
  g_object_get (sink, "stats", &stats, NULL);
  gst_structure_get_uint64 (stats, "restarts", &restarts);
  gst_structure_free (stats);
  fail_unless_equals_uint64 (restarts, 1);

  gst_object_unref (sink);
  gst_harness_teardown (tx);
  g_rand_free (rand);
}

GST_END_TEST;

/* Frames tagged as in case 1 (key frame, then TL0/TL1/TL2 droppers). */
static GstBuffer *
case1_frame (guint f)
{
  static const guint8 prio[] = { 1, 3, 2, 3 }, thr[] = { 2, 3, 2, 3 };
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 10000, NULL);
  GstOctopusMeta *m = gst_buffer_add_octopus_meta (buf);

  gst_buffer_memset (buf, 0, f, 10000);
  m->frame_id = f;
  m->drop = TRUE;
  if (f == 0) {
    m->keyframe = TRUE;
  } else {
    m->priority = prio[f % 4];
    m->priority_threshold = thr[f % 4];
  }
  return buf;
}

static GstStructure *
burst (const gchar *options)
{
  /* Nobody listens on the port: the send buffer alone decides. */
  GstHarness *tx = start_sender (options, 9);
  GstElement *sink = gst_harness_find_element (tx, "octopussink");
  GstStructure *stats;

  for (guint f = 0; f < 60; f++)
    fail_unless_equals_int (gst_harness_push (tx, case1_frame (f)),
        GST_FLOW_OK);
  /* EOS returns once the send buffer drained: the rules decide at its head. */
  fail_unless (gst_harness_push_event (tx, gst_event_new_eos ()));
  g_object_get (sink, "stats", &stats, NULL);
  gst_object_unref (sink);
  gst_harness_teardown (tx);
  return stats;
}

static guint64
dropped (const GstStructure *s, const gchar *reason, guint priority)
{
  gchar *field = g_strdup_printf ("messages-dropped-%s-by-priority", reason);
  const GValue *array = gst_structure_get_value (s, field);
  g_free (field);
  fail_unless (array != NULL);
  return g_value_get_uint64 (gst_value_array_get_value (array, priority));
}

/* A source far faster than the sending rate: render() never blocks, the
 * send buffer fills and the rules shed TL2 before TL1 before TL0, never the
 * key frame; without rules the same burst overflows a drop-tail buffer. */
GST_START_TEST (test_fast_source_fills_send_buffer_and_rules_drop)
{
  GstStructure *rules = burst ("congestion-control=fixed max-bitrate=1000000 "
      "buffer-size=300000");
  GstStructure *fifo = burst ("congestion-control=fixed max-bitrate=1000000 "
      "buffer-size=300000 rules=false");
  guint64 submitted = 0;

  gst_structure_get_uint64 (rules, "messages-submitted", &submitted);
  fail_unless_equals_uint64 (submitted, 60);
  fail_unless (dropped (rules, "dropper", 3) > 0);
  fail_unless_equals_uint64 (dropped (rules, "dropper", 0), 0);
  fail_unless_equals_uint64 (dropped (rules, "overflow", 0), 0);

  fail_unless_equals_uint64 (dropped (fifo, "dropper", 3), 0);
  guint64 overflow = 0;
  gst_structure_get_uint64 (fifo, "packets-dropped-overflow", &overflow);
  fail_unless (overflow > 0);
  gst_structure_free (rules);
  gst_structure_free (fifo);
}

GST_END_TEST;

GST_START_TEST (test_bitrate_properties_and_their_deprecated_aliases_agree)
{
  GstElement *sink = gst_element_factory_make ("octopussink", NULL);
  guint max_bitrate, estimated;
  guint64 max_rate, bandwidth;

  g_object_set (sink, "max-bitrate", 2000000, NULL);
  g_object_get (sink, "max-rate", &max_rate, "max-bitrate", &max_bitrate,
      NULL);
  fail_unless_equals_uint64 (max_rate, 2000000);
  fail_unless_equals_int (max_bitrate, 2000000);

  g_object_set (sink, "max-rate", (guint64) 3000000, NULL);
  g_object_get (sink, "max-rate", &max_rate, "max-bitrate", &max_bitrate,
      NULL);
  fail_unless_equals_uint64 (max_rate, 3000000);
  fail_unless_equals_int (max_bitrate, 3000000);

  g_object_get (sink, "estimated-bitrate", &estimated, "bandwidth",
      &bandwidth, NULL);
  fail_unless_equals_int (estimated, 0);
  fail_unless_equals_uint64 (bandwidth, 0);

  GParamSpec *old = g_object_class_find_property (G_OBJECT_GET_CLASS (sink),
      "max-rate");
  fail_unless (old->flags & G_PARAM_DEPRECATED);
  fail_unless_equals_string (g_param_spec_get_blurb (old),
      "Deprecated: use max-bitrate");
  old = g_object_class_find_property (G_OBJECT_GET_CLASS (sink), "bandwidth");
  fail_unless (old->flags & G_PARAM_DEPRECATED);
  fail_unless_equals_string (g_param_spec_get_blurb (old),
      "Deprecated: use estimated-bitrate");
  gst_object_unref (sink);
}

GST_END_TEST;

GST_START_TEST (test_fixed_rate_without_max_rate_is_an_error)
{
  GstElement *sink = gst_element_factory_make ("octopussink", NULL);
  g_object_set (sink, "congestion-control", 2, NULL);
  fail_unless_equals_int (gst_element_set_state (sink, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (sink, GST_STATE_NULL);
  gst_object_unref (sink);
}

GST_END_TEST;

/* A second receiver on a port another one holds fails to start, saying
 * why, instead of running and getting nothing; reuse=true shares it. */
GST_START_TEST (test_busy_port_is_an_error_unless_reuse)
{
  GstElement *first = gst_element_factory_make ("octopussrc", NULL);
  GstElement *second = gst_element_factory_make ("octopussrc", NULL);
  GstBus *bus = gst_bus_new ();
  GstMessage *msg;
  GError *err = NULL;
  gint port;

  g_object_set (first, "port", 0, "reuse", TRUE, NULL);
  fail_unless (gst_element_set_state (first, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  g_object_get (first, "bound-port", &port, NULL);
  fail_unless (port > 0);

  gst_element_set_bus (second, bus);
  g_object_set (second, "port", port, NULL);
  fail_unless_equals_int (gst_element_set_state (second, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "Could not bind UDP port") != NULL,
      "message: %s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_state (second, GST_STATE_NULL);

  g_object_set (second, "reuse", TRUE, NULL);
  fail_unless (gst_element_set_state (second, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (second, GST_STATE_NULL);
  gst_element_set_state (first, GST_STATE_NULL);
  gst_element_set_bus (second, NULL);
  gst_object_unref (bus);
  gst_object_unref (first);
  gst_object_unref (second);
}

GST_END_TEST;

/* Runs octopussink to @port in a pipeline for @seconds; returns the first
 * warning's message text (or NULL) and the final stats. */
static gchar *
first_warning (gint port, guint seconds, GstStructure **stats)
{
  gchar *desc = g_strdup_printf ("videotestsrc is-live=true "
      "! video/x-raw,width=64,height=48,framerate=30/1 ! octopussink "
      "name=snk host=127.0.0.1 port=%d stats-interval=0", port);
  GstElement *pipe = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipe), "snk");
  GstBus *bus = gst_element_get_bus (pipe);
  GstMessage *msg;
  gchar *text = NULL;

  g_free (desc);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, seconds * GST_SECOND,
      GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
    GError *err;
    gst_message_parse_warning (msg, &err, NULL);
    text = g_strdup (err->message);
    g_error_free (err);
  }
  if (msg)
    gst_message_unref (msg);
  g_object_get (sink, "stats", stats, NULL);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipe);
  return text;
}

/* A port nobody listens on answers with ICMP port unreachable: one warning
 * naming the peer, and the refusals counted. */
GST_START_TEST (test_closed_port_is_a_warning)
{
  GSocket *probe = g_socket_new (G_SOCKET_FAMILY_IPV4,
      G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_UDP, NULL);
  GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *addr = g_inet_socket_address_new (lo, 0), *bound;
  GstStructure *stats;
  guint64 refused = 0;
  gchar *text, *expected;
  gint port;

  /* a port that was free a moment ago */
  fail_unless (g_socket_bind (probe, addr, FALSE, NULL));
  bound = g_socket_get_local_address (probe, NULL);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_object_unref (probe);

  text = first_warning (port, 5, &stats);
  expected = g_strdup_printf ("No receiver at 127.0.0.1:%d: connection "
      "refused; is octopussrc running?", port);
  fail_unless_equals_string (text, expected);
  fail_unless (gst_structure_get_uint64 (stats, "connection-refused",
          &refused));
  fail_unless (refused > 0);
  gst_structure_free (stats);
  g_free (text);
  g_free (expected);
  g_object_unref (bound);
  g_object_unref (addr);
  g_object_unref (lo);
}

GST_END_TEST;

/* Something listens but never answers (a stale plain UDP socket): a
 * warning 3 s after the first packet. */
GST_START_TEST (test_no_ack_is_a_warning)
{
  GSocket *mute = g_socket_new (G_SOCKET_FAMILY_IPV4,
      G_SOCKET_TYPE_DATAGRAM, G_SOCKET_PROTOCOL_UDP, NULL);
  GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *addr = g_inet_socket_address_new (lo, 0), *bound;
  GstStructure *stats;
  guint64 acks = 1;
  gchar *text;
  gint port;

  fail_unless (g_socket_bind (mute, addr, FALSE, NULL));
  bound = g_socket_get_local_address (mute, NULL);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));

  text = first_warning (port, 8, &stats);
  fail_unless (text != NULL);
  fail_unless (g_str_has_prefix (text, "No ACK from 127.0.0.1:"), "%s", text);
  fail_unless (gst_structure_get_uint64 (stats, "acks-received", &acks));
  fail_unless_equals_uint64 (acks, 0);
  gst_structure_free (stats);
  g_free (text);
  g_object_unref (bound);
  g_object_unref (addr);
  g_object_unref (lo);
  g_object_unref (mute);
}

GST_END_TEST;

static Suite *
octopus_sink_src_suite (void)
{
  Suite *s = suite_create ("octopus-sink-src");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_round_trip_is_byte_exact_from_1_byte_to_1_megabyte);
  tcase_add_test (tc, test_fast_source_fills_send_buffer_and_rules_drop);
  tcase_add_test (tc,
      test_bitrate_properties_and_their_deprecated_aliases_agree);
  tcase_add_test (tc, test_fixed_rate_without_max_rate_is_an_error);
  tcase_add_test (tc, test_busy_port_is_an_error_unless_reuse);
  tcase_add_test (tc, test_closed_port_is_a_warning);
  tcase_add_test (tc, test_no_ack_is_a_warning);
  tcase_add_test (tc, test_restarted_sender_on_the_same_port_is_heard_at_once);
  tcase_add_test (tc, test_keyframe_request_reaches_the_encoder);
  tcase_add_test (tc, test_outage_asks_the_encoder_for_one_key_frame);
  return s;
}

GST_CHECK_MAIN (octopus_sink_src);
