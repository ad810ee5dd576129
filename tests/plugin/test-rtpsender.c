/* octopusrtpsender in a GstHarness on a GstTestClock: RTP packets carrying
 * the Octopus and transport-cc extensions in, synthetic RTPTWCCPackets
 * feedback (as rtpsession sends it upstream) back.  Pacing and the window
 * are checked to the nanosecond; a simulated bottleneck that changes rate
 * drives the estimate up and down, and the send buffer's rules drop the
 * upper temporal layers once the path is slow. */
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/check/gsttestclock.h>
#include <gst/rtp/rtp.h>
#include <gst/video/video.h>

#include "octo-rtpext.h"
#include "transport/octo-rtp-sender.h"

#define TWCC_URI \
  "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"
#define TWCC_ID 1
#define OCTOPUS_ID 3
#define SSRC 0x11223344
/* 1238 link bytes a packet: BBR's default full packet. */
#define PAYLOAD_BYTES 1168
#define START (1 * GST_SECOND)
#define REMOTE_EPOCH (777 * GST_SECOND)

static GstHarness *
new_harness (void)
{
  GstHarness *h = gst_harness_new ("octopusrtpsender");

  gst_harness_use_testclock (h);
  gst_harness_set_src_caps_str (h, "application/x-rtp,media=video,"
      "encoding-name=VP8,payload=96,clock-rate=90000,"
      "extmap-1=(string)" TWCC_URI ",extmap-3=(string)" OCTO_RTPEXT_URI);
  gst_harness_set_time (h, START);
  return h;
}

/* One RTP packet; @header NULL: no Octopus extension. */
static GstBuffer *
rtp_packet (guint16 seq, const OctoHeader *header)
{
  GstBuffer *buf = gst_rtp_buffer_new_allocate (PAYLOAD_BYTES, 0, 0);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  guint8 twcc[2] = { 0xff, 0xff };
  guint8 ext[OCTO_RTPEXT_LEN];

  gst_rtp_buffer_map (buf, GST_MAP_WRITE, &rtp);
  gst_rtp_buffer_set_ssrc (&rtp, SSRC);
  gst_rtp_buffer_set_seq (&rtp, seq);
  gst_rtp_buffer_set_payload_type (&rtp, 96);
  fail_unless (gst_rtp_buffer_add_extension_onebyte_header (&rtp, TWCC_ID,
          twcc, sizeof twcc));
  if (header) {
    fail_unless (octo_header_pack (header, ext));
    fail_unless (gst_rtp_buffer_add_extension_onebyte_header (&rtp,
            OCTOPUS_ID, ext, sizeof ext));
  }
  gst_rtp_buffer_unmap (&rtp);
  return buf;
}

static guint32
link_bytes (GstBuffer *buf)
{
  return gst_buffer_get_size (buf) + OCTO_RTP_LINK_OVERHEAD;
}

typedef struct {
  guint16 twcc_seq;
  guint16 rtp_seq;
  guint32 size;
} Sent;

static Sent
read_sent (GstBuffer *buf)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  gpointer data;
  guint size;
  Sent s;

  fail_unless (gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp));
  fail_unless (gst_rtp_buffer_get_extension_onebyte_header (&rtp, TWCC_ID, 0,
          &data, &size));
  fail_unless_equals_int (size, 2);
  s.twcc_seq = ((const guint8 *) data)[0] << 8 | ((const guint8 *) data)[1];
  s.rtp_seq = gst_rtp_buffer_get_seq (&rtp);
  s.size = gst_rtp_buffer_get_payload_len (&rtp);
  gst_rtp_buffer_unmap (&rtp);
  return s;
}

static guint64
stats_uint64 (GstElement *e, const gchar *field)
{
  GstStructure *s;
  guint64 v = 0;

  g_object_get (e, "stats", &s, NULL);
  fail_unless (gst_structure_get_uint64 (s, field, &v), "no %s", field);
  gst_structure_free (s);
  return v;
}

/* rtpsession's event: RTPTWCCPacket structures in a GValueArray. */
static GstEvent *
twcc_event (const guint16 *seqnums, const GstClockTime *remote, guint n,
    guint size)
{
  GValueArray *array;
  GstStructure *s = gst_structure_new_empty ("RTPTWCCPackets");

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  array = g_value_array_new (n);
  for (guint i = 0; i < n; i++) {
    GValue v = G_VALUE_INIT;
    g_value_init (&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&v, gst_structure_new ("RTPTWCCPacket",
            "seqnum", G_TYPE_UINT, (guint) seqnums[i],
            "local-ts", G_TYPE_UINT64, (guint64) 0,
            "remote-ts", G_TYPE_UINT64, (guint64) remote[i],
            "payload-type", G_TYPE_UCHAR, 96,
            "size", G_TYPE_UINT, size,
            "lost", G_TYPE_BOOLEAN, !GST_CLOCK_TIME_IS_VALID (remote[i]),
            NULL));
    g_value_array_append (array, &v);
    g_value_unset (&v);
  }
  GValue av = G_VALUE_INIT;
  g_value_init (&av, g_value_array_get_type ());
  g_value_take_boxed (&av, array);
  gst_structure_take_value (s, "packets", &av);
  G_GNUC_END_IGNORE_DEPRECATIONS;
  return gst_event_new_custom (GST_EVENT_CUSTOM_UPSTREAM, s);
}

/* Waits until the element's task waits on the clock (it has pushed all it
 * could at this time) and returns that wait's time. */
static GstClockTime
settle (GstHarness *h)
{
  GstTestClock *clock = gst_harness_get_testclock (h);
  GstClockID id;
  GstClockTime t;

  gst_test_clock_wait_for_next_pending_id (clock, &id);
  t = gst_clock_id_get_time (id);
  gst_clock_id_unref (id);
  gst_object_unref (clock);
  return t;
}

/* Sends one packet and lets the pacer's gap after it pass (1238 link bytes
 * at 2.5 times the default initial bitrate). */
static void
send_one_past_its_gap (GstHarness *h, const OctoHeader *header)
{
  gst_harness_push (h, rtp_packet (100, header));
  gst_buffer_unref (gst_harness_pull (h));
  fail_unless_equals_uint64 (settle (h), START + 3961600);
  gst_harness_crank_single_clock_wait (h);
}

GST_START_TEST (test_paces_at_initial_bitrate_before_feedback)
{
  GstHarness *h = new_harness ();
  OctoHeader header = {.priority = 1,.first = 1,.last = 1 };
  /* 1238 link bytes at 2.5 times the default 1 Mbit/s. */
  const GstClockTime gap = 3961600;

  for (guint i = 0; i < 12; i++) {
    header.msg_id = i;
    gst_harness_push (h, rtp_packet (100 + i, &header));
  }
  /* No window before the first feedback: all 12 leave, one gap apart. */
  for (guint i = 0; i < 12; i++) {
    if (i > 0) {
      fail_unless_equals_uint64 (settle (h), START + i * gap);
      gst_harness_crank_single_clock_wait (h);
    }
    GstBuffer *buf = gst_harness_pull (h);
    fail_unless_equals_int (read_sent (buf).twcc_seq, i);
    gst_buffer_unref (buf);
  }
  fail_unless_equals_uint64 (stats_uint64 (h->element, "pacing-rate"),
      2500000);
  fail_unless_equals_uint64 (stats_uint64 (h->element, "packets-lost"), 0);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_paces_at_bbr_startup_within_the_window)
{
  GstHarness *h = new_harness ();
  GstElement *e = h->element;
  OctoHeader header = {.priority = 1,.first = 1,.last = 1 };
  GstClockTime next;

  /* no outage restart: its wake would come before the loss timeout */
  g_object_set (e, "initial-bitrate", 0, "outage-restart", 0, NULL);

  for (guint i = 0; i < 12; i++) {
    header.msg_id = i;
    gst_harness_push (h, rtp_packet (100 + i, &header));
  }
  guint64 rate = stats_uint64 (e, "pacing-rate");
  guint32 size = OCTO_RTP_SENDER_DEFAULT_MSS;
  GstClockTime gap = (GstClockTime) size * 8 * GST_SECOND / rate;
  fail_unless (gap > 0);

  /* BBR's initial window is 10 full packets: 10 leave, paced one gap
   * apart and numbered 0..9 for transport-cc; the 11th waits for the
   * window (its wait is the 1 s loss timeout of the oldest in flight). */
  for (guint i = 0; i < 10; i++) {
    next = settle (h);
    GstBuffer *buf = gst_harness_pull (h);
    Sent s = read_sent (buf);
    fail_unless_equals_int (s.twcc_seq, i);
    fail_unless_equals_int (s.rtp_seq, 100 + i);
    fail_unless_equals_int (link_bytes (buf), size);
    gst_buffer_unref (buf);
    if (i < 9) {
      fail_unless_equals_uint64 (next, START + (i + 1) * gap);
      gst_harness_crank_single_clock_wait (h);
    }
  }
  fail_unless_equals_uint64 (next, START + GST_SECOND);
  fail_unless_equals_int (gst_harness_buffers_in_queue (h), 0);
  fail_unless_equals_uint64 (stats_uint64 (e, "inflight"), 10 * size);
  fail_unless_equals_uint64 (stats_uint64 (e, "queued-bytes"), 2 * size);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Like octopussink, the stats go on the bus every stats-interval: at once
 * when the first packet arrives (before it leaves), then on the clock. */
GST_START_TEST (test_posts_stats_every_stats_interval)
{
  GstHarness *h = new_harness ();
  GstBus *bus = gst_bus_new ();
  OctoHeader header = {.priority = 1,.first = 1,.last = 1 };
  guint n = 0;

  gst_element_set_bus (h->element, bus);
  g_object_set (h->element, "stats-interval", 100, NULL);
  send_one_past_its_gap (h, &header);
  fail_unless_equals_uint64 (settle (h), START + 100 * GST_MSECOND);
  gst_harness_crank_single_clock_wait (h);
  fail_unless_equals_uint64 (settle (h), START + 200 * GST_MSECOND);

  GstMessage *msg;
  while (n < 2 && (msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *st = gst_message_get_structure (msg);
    guint64 sent = 0;

    fail_unless (gst_structure_has_name (st,
            "application/x-octopus-rtp-sender-stats"));
    fail_unless (gst_structure_get_uint64 (st, "packets-sent", &sent));
    fail_unless_equals_uint64 (sent, n);
    fail_unless (gst_structure_has_field (st, "feedbacks"));
    fail_unless (gst_structure_has_field (st,
            "messages-dropped-dropper-by-priority"));
    gst_message_unref (msg);
    n++;
  }
  fail_unless_equals_int (n, 2);
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* congestion-control=fixed, as on octopussink: max-bitrate is the rate,
 * from the first packet, with no window; without a rate it is an error. */
GST_START_TEST (test_fixed_paces_at_max_bitrate)
{
  GstHarness *h = new_harness ();
  OctoHeader header = {.priority = 1,.first = 1,.last = 1 };
  /* 1238 link bytes at 2 Mbit/s. */
  const GstClockTime gap = 4952 * GST_USECOND;

  gst_harness_set (h, "octopusrtpsender", "congestion-control", 2,
      "max-bitrate", 2000000, NULL);
  for (guint i = 0; i < 12; i++) {
    header.msg_id = i;
    gst_harness_push (h, rtp_packet (100 + i, &header));
  }
  for (guint i = 0; i < 12; i++) {
    if (i > 0) {
      fail_unless_equals_uint64 (settle (h), START + i * gap);
      gst_harness_crank_single_clock_wait (h);
    }
    gst_buffer_unref (gst_harness_pull (h));
  }
  fail_unless_equals_uint64 (stats_uint64 (h->element, "pacing-rate"),
      2000000);
  fail_unless_equals_uint64 (stats_uint64 (h->element, "cwnd"), 0);
  gst_harness_teardown (h);

  GstElement *e = gst_element_factory_make ("octopusrtpsender", NULL);
  g_object_set (e, "congestion-control", 2, NULL);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
}

GST_END_TEST;

/* outage-restart 300 ms; a packet acknowledged, then one that never is
 * (@sent: when it left); cranks the clock to outage-restart after it and
 * returns the time the element's last wait ended. */
static GstClockTime
crank_into_an_outage (GstHarness *h, GstClockTime *sent)
{
  GstTestClock *clock = gst_harness_get_testclock (h);
  OctoHeader header = {.first = 1,.last = 1 };
  const guint16 first_seq = 0;
  const GstClockTime first_arrival = REMOTE_EPOCH;
  GstClockTime t;

  g_object_set (h->element, "outage-restart", 300, NULL);
  send_one_past_its_gap (h, &header);
  fail_unless (gst_harness_push_upstream_event (h,
          twcc_event (&first_seq, &first_arrival, 1, PAYLOAD_BYTES)));
  gst_harness_push (h, rtp_packet (101, &header));
  *sent = gst_clock_get_time (GST_CLOCK (clock));
  gst_buffer_unref (gst_harness_pull (h));
  do {
    t = settle (h);
    gst_harness_crank_single_clock_wait (h);
  } while (t < *sent + 300 * GST_MSECOND);
  gst_object_unref (clock);
  return t;
}

/* outage-restart ms after a packet left with no feedback since, one
 * upstream force-key-unit event (all headers), and only one; not before
 * the first feedback (a receiver may not report yet). */
GST_START_TEST (test_outage_asks_upstream_for_one_key_unit)
{
  GstHarness *h = new_harness ();
  GstTestClock *clock = gst_harness_get_testclock (h);
  GstClockTime sent, t;
  GstEvent *event;
  gboolean all_headers = FALSE;
  guint key_units = 0;

  t = crank_into_an_outage (h, &sent);
  fail_unless_equals_uint64 (t, sent + 300 * GST_MSECOND);
  /* the task sends it after that wait: block for it */
  while (!gst_video_event_is_force_key_unit (event =
          gst_harness_pull_upstream_event (h)))
    gst_event_unref (event);
  fail_unless (gst_video_event_parse_upstream_force_key_unit (event, NULL,
          &all_headers, NULL));
  fail_unless (all_headers);
  gst_event_unref (event);
  fail_unless_equals_uint64 (stats_uint64 (h->element, "restarts"), 1);
  while ((event = gst_harness_try_pull_upstream_event (h))) {
    key_units += gst_video_event_is_force_key_unit (event);
    gst_event_unref (event);
  }
  fail_unless_equals_int (key_units, 0);
  gst_object_unref (clock);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* On the element's sink pad, in the task's thread while its lock is
 * released: flushes the element as a seek would at that moment. */
static GstPadProbeReturn
flush_at_the_key_unit_request (GstPad *pad, GstPadProbeInfo *info,
    gpointer user_data)
{
  (void) user_data;
  if (gst_video_event_is_force_key_unit (GST_PAD_PROBE_INFO_EVENT (info)))
    gst_pad_send_event (pad, gst_event_new_flush_start ());
  return GST_PAD_PROBE_OK;
}

/* A flush that begins while the task is outside its lock (here, asking
 * upstream for a key unit) finds no wait to cut short; the task must not
 * begin one afterwards.  The task runs its function with the src pad's
 * stream lock held, so taking that lock waits for the iteration to end; one
 * that began a wait after the flush never ends (nothing but the test clock
 * could end it), and the test hangs until meson's timeout fails it. */
GST_START_TEST (test_flush_during_the_key_unit_request_leaves_no_wait)
{
  GstHarness *h = new_harness ();
  GstPad *sinkpad = gst_element_get_static_pad (h->element, "sink");
  GstPad *srcpad = gst_element_get_static_pad (h->element, "src");
  GstClockTime sent;

  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM,
      flush_at_the_key_unit_request, NULL, NULL);
  crank_into_an_outage (h, &sent);
  GST_PAD_STREAM_LOCK (srcpad);
  GST_PAD_STREAM_UNLOCK (srcpad);
  gst_object_unref (srcpad);
  gst_object_unref (sinkpad);
  gst_harness_teardown (h);
}

GST_END_TEST;

GST_START_TEST (test_packets_without_extension_pass_as_fifo)
{
  GstHarness *h = new_harness ();

  gst_harness_push (h, rtp_packet (7, NULL));
  GstBuffer *buf = gst_harness_pull (h);
  Sent s = read_sent (buf);
  gst_buffer_unref (buf);
  fail_unless_equals_int (s.rtp_seq, 7);
  fail_unless_equals_int (s.twcc_seq, 0);
  fail_unless_equals_uint64 (stats_uint64 (h->element, "packets-untagged"), 1);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* A trace-free bottleneck: packets leave the element at the clock's time,
 * cross a link of @rate bits/s with ONE_WAY delay, and every
 * FEEDBACK_INTERVAL the arrivals seen ONE_WAY ago come back as feedback.
 * The source sends FRAME_PACKETS packets 25 times a second (about 5 Mbit/s:
 * always more than the link), tagged as case 1's temporal layers. */
#define ONE_WAY (20 * GST_MSECOND)
#define FEEDBACK_INTERVAL (25 * GST_MSECOND)
#define FRAME_INTERVAL (40 * GST_MSECOND)
#define FRAME_PACKETS 20

typedef struct {
  GstHarness *h;
  GstClockTime now, link_free, next_frame, next_feedback;
  guint64 rate;
  guint32 frame;
  guint16 rtp_seq;
  GArray *arrivals;             /* Arrival, in sending order */
  guint reported;
  guint notifies;
  guint64 sent_by_priority[8];  /* packets */
} Link;

typedef struct {
  guint16 twcc_seq;
  guint32 size;
  GstClockTime arrival;
} Arrival;

static void
tag_frame (guint32 frame, OctoHeader *h)
{
  guint pos = frame % 8;

  h->drop = TRUE;
  h->priority = pos == 0 ? 0 : pos == 4 ? 1 : pos % 2 == 0 ? 2 : 3;
  h->priority_threshold = pos == 0 ? 0 : pos % 2 == 0 ? 2 : 3;
}

static void
on_notify (GObject *obj, GParamSpec *pspec, gpointer user_data)
{
  Link *l = user_data;
  (void) obj;
  (void) pspec;
  l->notifies++;
}

static void
drain (Link *l)
{
  GstBuffer *buf;

  while ((buf = gst_harness_try_pull (l->h))) {
    Sent s = read_sent (buf);
    OctoRtpPacket rtp;
    OctoHeader header;
    GstMapInfo map;
    guint32 size = link_bytes (buf);
    GstClockTime start = MAX (l->now, l->link_free);

    gst_buffer_map (buf, &map, GST_MAP_READ);
    fail_unless (octo_rtp_parse (map.data, map.size, &rtp) == OCTO_RTP_PARSE_OK);
    fail_unless (octo_rtp_get_header (&rtp, OCTOPUS_ID, &header) == OCTO_PARSE_OK);
    l->sent_by_priority[header.priority]++;
    gst_buffer_unmap (buf, &map);
    l->link_free = start + (GstClockTime) size * 8 * GST_SECOND / l->rate;
    Arrival a = { s.twcc_seq, s.size, l->link_free + ONE_WAY };
    g_array_append_val (l->arrivals, a);
    gst_buffer_unref (buf);
  }
}

static void
push_frame (Link *l)
{
  OctoHeader header = { 0 };

  tag_frame (l->frame, &header);
  header.msg_id = l->frame++;
  for (guint i = 0; i < FRAME_PACKETS; i++) {
    header.first = i == 0;
    header.last = i == FRAME_PACKETS - 1;
    gst_harness_push (l->h, rtp_packet (l->rtp_seq++, &header));
  }
}

static void
push_feedback (Link *l)
{
  guint n = 0;

  while (l->reported + n < l->arrivals->len &&
      g_array_index (l->arrivals, Arrival, l->reported + n).arrival + ONE_WAY
      <= l->now)
    n++;
  if (n == 0)
    return;
  guint16 *seqnums = g_new (guint16, n);
  GstClockTime *remote = g_new (GstClockTime, n);
  for (guint i = 0; i < n; i++) {
    Arrival *a = &g_array_index (l->arrivals, Arrival, l->reported + i);
    seqnums[i] = a->twcc_seq;
    remote[i] = REMOTE_EPOCH + a->arrival;
  }
  fail_unless (gst_harness_push_upstream_event (l->h,
          twcc_event (seqnums, remote, n, PAYLOAD_BYTES)));
  l->reported += n;
  g_free (seqnums);
  g_free (remote);
}

/* Runs the call until @until; the link's rate is @rate meanwhile. */
static void
run_link (Link *l, guint64 rate, GstClockTime until)
{
  GstTestClock *clock = gst_harness_get_testclock (l->h);

  l->rate = rate;
  while (l->now < until) {
    GstClockID id;
    gst_test_clock_wait_for_next_pending_id (clock, &id);
    GstClockTime wake = gst_clock_id_get_time (id);
    drain (l);
    GstClockTime next = MIN (MIN (l->next_frame, l->next_feedback), wake);
    fail_unless (next >= l->now);
    l->now = next;
    gst_test_clock_set_time (clock, next);
    if (next == wake) {
      /* Only pacing waits may fire: a loss timeout would mean the
       * feedback came too late. */
      fail_unless (wake < l->next_feedback + GST_SECOND / 10);
      gst_test_clock_process_id (clock, id);    /* takes the reference */
      continue;
    }
    if (next == l->next_frame) {
      push_frame (l);
      l->next_frame += FRAME_INTERVAL;
    } else {
      push_feedback (l);
      l->next_feedback += FEEDBACK_INTERVAL;
    }
    gst_clock_id_unref (id);
  }
  gst_object_unref (clock);
}

GST_START_TEST (test_estimate_follows_feedback_and_rules_drop)
{
  Link l = {
    .h = new_harness (),
    .now = START,
    .next_frame = START,
    .next_feedback = START + FEEDBACK_INTERVAL,
    .arrivals = g_array_new (FALSE, FALSE, sizeof (Arrival)),
  };
  GstElement *e = l.h->element;
  guint estimate;

  g_signal_connect (e, "notify::estimated-bitrate", G_CALLBACK (on_notify), &l);
  /* Prime the task's first wait with the first frame. */
  push_frame (&l);
  l.next_frame += FRAME_INTERVAL;

  run_link (&l, 3000000, START + 6 * GST_SECOND);
  g_object_get (e, "estimated-bitrate", &estimate, NULL);
  GST_INFO ("3 Mbit/s link: estimate %u, %u notifies", estimate, l.notifies);
  fail_unless (estimate >= 2850000 && estimate <= 3300000,
      "estimate %u on a 3 Mbit/s link", estimate);
  fail_unless (l.notifies > 0);
  guint64 tl2_fast = l.sent_by_priority[3];
  guint64 key_fast = l.sent_by_priority[0];
  guint notifies_fast = l.notifies;

  run_link (&l, 1000000, START + 14 * GST_SECOND);
  g_object_get (e, "estimated-bitrate", &estimate, NULL);
  GST_INFO ("1 Mbit/s link: estimate %u", estimate);
  fail_unless (estimate >= 900000 && estimate <= 1150000,
      "estimate %u on a 1 Mbit/s link", estimate);
  fail_unless (l.notifies > notifies_fast);

  /* 8 s at 1 Mbit/s carry about 800 of the 1238-byte packets: the 25 key
   * frames (500 packets) go whole; the rules shed TL2 (priority 3) first. */
  guint64 key_slow = l.sent_by_priority[0] - key_fast;
  guint64 tl2_slow = l.sent_by_priority[3] - tl2_fast;
  GST_INFO ("slow phase: %" G_GUINT64_FORMAT " key, %" G_GUINT64_FORMAT
      " TL2 packets sent", key_slow, tl2_slow);
  fail_unless (key_slow >= 24 * FRAME_PACKETS);
  fail_unless (tl2_slow < key_slow / 4);
  fail_unless (stats_uint64 (e, "messages-dropped-dropper") > 100);
  fail_unless_equals_uint64 (stats_uint64 (e, "packets-lost"), 0);
  fail_unless_equals_uint64 (stats_uint64 (e, "twcc-size-mismatches"), 0);

  g_array_unref (l.arrivals);
  gst_harness_teardown (l.h);
}

GST_END_TEST;

static Suite *
rtpsender_suite (void)
{
  Suite *s = suite_create ("octopusrtpsender");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_paces_at_initial_bitrate_before_feedback);
  tcase_add_test (tc, test_paces_at_bbr_startup_within_the_window);
  tcase_add_test (tc, test_packets_without_extension_pass_as_fifo);
  tcase_add_test (tc, test_outage_asks_upstream_for_one_key_unit);
  tcase_add_test (tc, test_flush_during_the_key_unit_request_leaves_no_wait);
  tcase_add_test (tc, test_posts_stats_every_stats_interval);
  tcase_add_test (tc, test_fixed_paces_at_max_bitrate);
  tcase_add_test (tc, test_estimate_follows_feedback_and_rules_drop);
  return s;
}

GST_CHECK_MAIN (rtpsender);
