/* The sender end to end on a simulated link (virtual clock). */
#include "sim-world.h"

#include <math.h>

typedef struct {
  guint64 bytes;
  guint32 size;
  OctoTime interval;
} Backlog;

/* Keeps the send buffer non-empty: a fixed-size message every @interval. */
static OctoTime
backlog_app (SimWorld *sim, OctoTime now, gpointer user_data)
{
  Backlog *b = user_data;
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  octo_msg_info_init (&info);
  g_assert_true (sim_world_submit (sim, &h, &info, b->size));
  b->bytes += b->size;
  return now + b->interval;
}

static void
ignore_message (OctoMessage *msg, gpointer user_data)
{
  (void) user_data;
  g_free (msg->data);
}

static void
check_estimate_on_constant_link (guint packets_per_ms, OctoSenderCc cc)
{
  SimWorldConfig c;
  OctoTrace *trace;
  /* 2x the link rate in 10 kB messages: always backlogged. */
  Backlog b = { 0, 10000, 10000 * 8 * OCTO_SECOND / 24000000 / packets_per_ms };
  guint64 link_bps = packets_per_ms * 12000000ull;

  sim_world_config_init (&c);
  c.sender.cc = cc;
  c.down_trace = trace = sim_constant_trace (packets_per_ms);
  c.one_way_delay = 20 * OCTO_MSECOND;
  SimWorld *sim = sim_world_new (&c, ignore_message, NULL, NULL);
  sim_world_set_app (sim, backlog_app, &b, 0);

  guint64 sum = 0, n = 0;
  for (OctoTime t = 2 * OCTO_SECOND; t <= 20 * OCTO_SECOND;
      t += 100 * OCTO_MSECOND) {
    sim_world_run_until (sim, t);
    sum += octo_sender_bandwidth (sim_world_sender (sim));
    n++;
  }
  gdouble mean = (gdouble) sum / n;
  OctoSenderStats st;
  octo_sender_get_stats (sim_world_sender (sim), &st);
  g_test_message ("%s on %" G_GUINT64_FORMAT " bit/s: mean estimate %.0f "
      "(%.2f %%), min_rtt %" G_GUINT64_FORMAT " us, buffer drops %"
      G_GUINT64_FORMAT, cc == OCTO_SENDER_BBR ? "bbr" : "delay-bbr",
      link_bps, mean, 100.0 * (mean - link_bps) / link_bps,
      st.session.min_rtt / OCTO_USECOND,
      st.session.buffer->packets_dropped[OCTO_DROP_OVERFLOW]);
  g_assert_cmpfloat (mean, >=, link_bps * 0.95);
  g_assert_cmpfloat (mean, <=, link_bps * 1.05);
  g_assert_cmpuint (st.session.min_rtt, >=, 40 * OCTO_MSECOND);
  g_assert_cmpuint (st.session.min_rtt, <=, 43 * OCTO_MSECOND);
  sim_world_free (sim);
  octo_trace_free (trace);
}

static void
test_bbr_estimate_on_constant_12mbps (void)
{
  check_estimate_on_constant_link (1, OCTO_SENDER_BBR);
}

static void
test_bbr_estimate_on_constant_24mbps (void)
{
  check_estimate_on_constant_link (2, OCTO_SENDER_BBR);
}

static void
test_delay_bbr_estimate_on_constant_12mbps (void)
{
  check_estimate_on_constant_link (1, OCTO_SENDER_DELAY_BBR);
}

/* A fixed-rate sender on an unconstrained link transmits at its rate. */
static void
test_pacing_rate_is_accurate (void)
{
  SimWorldConfig c;
  OctoTrace *trace;
  Backlog b = { 0, 20000, 10 * OCTO_MSECOND };      /* 16 Mbps offered */
  SimSendMeter m = SIM_SEND_METER_INIT;

  sim_world_config_init (&c);
  c.sender.cc = OCTO_SENDER_FIXED;
  c.sender.max_rate = 8000000;
  c.down_trace = trace = sim_constant_trace (0);
  SimWorld *sim = sim_world_new (&c, ignore_message, NULL, NULL);
  sim_world_set_app (sim, backlog_app, &b, 0);
  sim_world_set_sent_func (sim, sim_send_meter_sent, &m);
  sim_world_run_until (sim, 10 * OCTO_SECOND);

  gdouble rate = sim_send_meter_rate (&m);
  g_test_message ("paced %.0f bit/s for 8000000 (%.3f %%)", rate,
      100.0 * (rate - 8e6) / 8e6);
  g_assert_cmpfloat (rate, >=, 8e6 * 0.98);
  g_assert_cmpfloat (rate, <=, 8e6 * 1.02);
  sim_world_free (sim);
  octo_trace_free (trace);
}

/* Case 1's tags on a 30 fps stream at twice the sending rate. */
typedef struct {
  guint frame;
  guint32 size;
  guint delivered_by_priority[OCTO_N_PRIORITIES];
  guint sent_by_priority[OCTO_N_PRIORITIES];
  OctoTime max_latency;
} LiveSource;

static guint8
frame_layer (guint f)
{
  return f % 2 ? 2 : (f % 4 ? 1 : 0);
}

static OctoTime
live_app (SimWorld *sim, OctoTime now, gpointer user_data)
{
  LiveSource *src = user_data;
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  guint f = src->frame++;
  guint8 layer = frame_layer (f);
  static const guint8 prio[] = { 1, 2, 3 }, thr[] = { 2, 2, 3 };

  octo_msg_info_init (&info);
  info.frame_id = f;
  info.capture_time = now;
  h.drop = 1;
  if (f % 8 == 0) {
    h.priority = h.priority_threshold = 0;
    info.flags = OCTO_MSG_FLAG_KEYFRAME;
  } else {
    h.priority = prio[layer];
    h.priority_threshold = thr[layer];
  }
  src->sent_by_priority[h.priority]++;
  g_assert_true (sim_world_submit (sim, &h, &info, src->size));
  return now + OCTO_SECOND / 30;
}

static void
live_message (OctoMessage *msg, gpointer user_data)
{
  LiveSource *src = user_data;
  src->delivered_by_priority[msg->header.priority]++;
  src->max_latency = MAX (src->max_latency,
      msg->complete_time - msg->info.capture_time);
  g_free (msg->data);
}

static void
test_live_source_at_twice_the_rate_drops_by_the_rules (void)
{
  SimWorldConfig c;
  OctoTrace *trace;
  /* 30 fps x 33333 B = 8 Mbps of payload into a 4 Mbps sender. */
  LiveSource src = { .size = 33333 };

  sim_world_config_init (&c);
  c.sender.cc = OCTO_SENDER_FIXED;
  c.sender.max_rate = 4000000;
  c.down_trace = trace = sim_constant_trace (0);
  c.one_way_delay = 10 * OCTO_MSECOND;
  SimWorld *sim = sim_world_new (&c, live_message, &src, NULL);
  sim_world_set_app (sim, live_app, &src, 0);
  sim_world_run_until (sim, 20 * OCTO_SECOND);

  OctoSenderStats st;
  octo_sender_get_stats (sim_world_sender (sim), &st);
  const guint64 (*md)[OCTO_N_PRIORITIES] = st.session.buffer->messages_dropped;
  g_test_message ("dropped by dropper: p0 %" G_GUINT64_FORMAT " p1 %"
      G_GUINT64_FORMAT " p2 %" G_GUINT64_FORMAT " p3 %" G_GUINT64_FORMAT
      "; overflow %" G_GUINT64_FORMAT "; max latency %" G_GUINT64_FORMAT
      " ms", md[OCTO_DROP_DROPPER][0], md[OCTO_DROP_DROPPER][1],
      md[OCTO_DROP_DROPPER][2], md[OCTO_DROP_DROPPER][3],
      st.session.buffer->packets_dropped[OCTO_DROP_OVERFLOW],
      src.max_latency / OCTO_MSECOND);
  /* The rules, not the buffer size, shed the excess: TL2 frames go, key
   * frames never, and nothing overflows. */
  g_assert_cmpuint (md[OCTO_DROP_DROPPER][3], >, 0);
  g_assert_cmpuint (md[OCTO_DROP_DROPPER][0], ==, 0);
  g_assert_cmpuint (st.session.buffer->packets_dropped[OCTO_DROP_OVERFLOW], ==,
      0);
  g_assert_cmpuint (src.delivered_by_priority[0], >=,
      src.sent_by_priority[0] - 1);
  g_assert_cmpuint (src.delivered_by_priority[1], >=,
      src.sent_by_priority[1] * 9 / 10);
  /* Queueing stays within about two frames at the sending rate. */
  g_assert_cmpuint (src.max_latency, <, 300 * OCTO_MSECOND);
  sim_world_free (sim);
  octo_trace_free (trace);
}


/* BBR through the sender's own ACK parsing: a scripted bottleneck delivers
 * the sender's packets at 12 Mbit/s and a script writes the ACK datagrams
 * 40 ms later.  The modes go STARTUP -> DRAIN -> PROBE_BW, the estimate
 * settles on the bottleneck and the pacing rate is a cycle gain times it. */
static void
test_bbr_modes_and_pacing_from_scripted_acks (void)
{
  OctoSenderConfig c;
  OctoSender *s;
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  guint8 pkt[OCTO_SENDER_DEFAULT_MTU], ack_buf[OCTO_ACK_MAX_LEN];
  GArray *acks = g_array_new (FALSE, FALSE, sizeof (guint64));  /* time, seq */
  const guint64 link = 12000000;
  OctoTime busy_until = 0, wake;
  guint32 next_seq = 0;
  const gchar *seen[4] = { NULL };
  guint n_seen = 0;
  gboolean accepted;
  guint8 *data = g_malloc0 (20000);

  octo_sender_config_init (&c);
  c.seed = 3;
  s = octo_sender_new (&c, 0);
  octo_msg_info_init (&info);

  for (OctoTime now = 0; now < 4 * OCTO_SECOND; now += 100 * OCTO_USECOND) {
    /* Keep the send buffer backlogged. */
    OctoSenderStats st;
    octo_sender_get_stats (s, &st);
    if (st.session.queued_bytes < 100000)
      octo_sender_submit (s, &h, &info, data, 20000, now, &accepted);

    gsize len;
    while ((len = octo_sender_poll (s, now, pkt, &wake)) > 0) {
      /* FIFO bottleneck, then 20 ms each way. */
      busy_until = MAX (busy_until, now + 20 * OCTO_MSECOND) +
          (len + OCTO_LINK_OVERHEAD) * 8 * OCTO_SECOND / link;
      guint64 at = busy_until + 20 * OCTO_MSECOND;
      g_array_append_val (acks, at);
    }
    /* ACK every packet that reached the receiver by now. */
    guint done = 0;
    while (done < acks->len && g_array_index (acks, guint64, done) <= now)
      done++;
    if (done > 0) {
      OctoAck ack = { .n_ranges = 1 };
      next_seq += done;
      ack.ranges[0].first = 0;
      ack.ranges[0].last = next_seq - 1;
      gsize n = octo_ack_write (&ack, ack_buf, sizeof ack_buf);
      g_assert_true (octo_sender_on_control (s, ack_buf, n, now));
      g_array_remove_range (acks, 0, done);
    }
    octo_sender_get_stats (s, &st);
    if (n_seen == 0 || (n_seen < 4 &&
            g_strcmp0 (seen[n_seen - 1], st.session.state) != 0))
      seen[n_seen++] = st.session.state;
  }

  g_assert_cmpuint (n_seen, >=, 3);
  g_assert_cmpstr (seen[0], ==, "startup");
  g_assert_cmpstr (seen[1], ==, "drain");
  g_assert_cmpstr (seen[2], ==, "probe-bw");

  OctoSenderStats st;
  octo_sender_get_stats (s, &st);
  g_assert_cmpstr (st.session.state, ==, "probe-bw");
  g_assert_cmpfloat (st.session.bandwidth, >=, link * 0.95);
  g_assert_cmpfloat (st.session.bandwidth, <=, link * 1.05);
  g_assert_cmpuint (st.session.min_rtt, >=, 40 * OCTO_MSECOND);
  g_assert_cmpuint (st.session.min_rtt, <=, 42 * OCTO_MSECOND);
  gdouble gain = (gdouble) st.session.pacing_rate / st.session.bandwidth;
  g_assert_true (fabs (gain - 1.25) < 0.001 || fabs (gain - 0.75) < 0.001 ||
      fabs (gain - 1) < 0.001);
  g_assert_cmpuint (st.acks_invalid, ==, 0);

  g_free (data);
  g_array_unref (acks);
  octo_sender_free (s);
}

typedef struct {
  guint64 messages, padding;
} Delivered;

static void
count_message (OctoMessage *msg, gpointer user_data)
{
  Delivered *d = user_data;
  if (msg->info.flags & OCTO_MSG_FLAG_PADDING)
    d->padding++;
  else
    d->messages++;
  g_free (msg->data);
}

/* A 2 Mbit/s source (one 8250-byte frame per 33 ms) on a constant link of
 * @packets_per_ms x 12 Mbit/s behind a @queue; returns the estimate after
 * @seconds. */
static guint64
run_app_limited_behind (const gchar *queue, guint32 frame_bytes,
    guint packets_per_ms, gboolean probe, guint64 ceiling, guint seconds,
    OctoSenderStats *st, Delivered *d)
{
  SimWorldConfig c;
  OctoTrace *trace;
  Backlog b = { 0, frame_bytes, 33 * OCTO_MSECOND };

  sim_world_config_init (&c);
  c.sender.probe = probe;
  c.sender.probe_ceiling = ceiling;
  c.down_queue = queue;
  c.down_trace = trace = sim_constant_trace (packets_per_ms);
  SimWorld *sim = sim_world_new (&c, count_message, d, NULL);
  sim_world_set_app (sim, backlog_app, &b, 0);
  sim_world_run_until (sim, (OctoTime) seconds * OCTO_SECOND);
  guint64 bw = octo_sender_bandwidth (sim_world_sender (sim));
  octo_sender_get_stats (sim_world_sender (sim), st);
  sim_world_free (sim);
  octo_trace_free (trace);
  return bw;
}

static guint64
run_app_limited (guint packets_per_ms, gboolean probe, guint64 ceiling,
    guint seconds, OctoSenderStats *st, Delivered *d)
{
  return run_app_limited_behind ("droptail", 8250, packets_per_ms, probe,
      ceiling, seconds, st, d);
}

/* Without padding, an app-limited sender's estimate never exceeds what the
 * app sends (the BBR max filter only sees the app's rate); with it, the
 * estimate finds headroom up to OCTO_SENDER_PROBE_HEADROOM times the app's
 * rate by default, the whole link when the ceiling allows, and the
 * receiver never sees the padding. */
static void
test_app_limited_sender_probes_for_headroom (void)
{
  OctoSenderStats st;
  Delivered on = { 0 }, off = { 0 }, link = { 0 };
  guint64 probed = run_app_limited (4, TRUE, 0, 10, &st, &on);

  g_test_message ("probing: estimate %" G_GUINT64_FORMAT ", padding %"
      G_GUINT64_FORMAT " packets", probed, st.padding_packets);
  g_assert_cmpuint (probed, >=, OCTO_SENDER_PROBE_HEADROOM * 2000000);
  g_assert_cmpuint (probed, <, 48000000 / 2);
  g_assert_cmpuint (st.padding_packets, >, 0);
  g_assert_cmpuint (on.padding, ==, 0);
  /* every frame of 10 s arrived (the last ones may still be in flight) */
  g_assert_cmpuint (on.messages, >=, 10 * OCTO_SECOND / (33 * OCTO_MSECOND) - 3);

  guint64 unprobed = run_app_limited (4, FALSE, 0, 10, &st, &off);
  g_test_message ("no probing: estimate %" G_GUINT64_FORMAT, unprobed);
  g_assert_cmpuint (st.padding_packets, ==, 0);
  g_assert_cmpuint (unprobed, <, 3000000);
  g_assert_cmpuint (off.messages, >=, 10 * OCTO_SECOND / (33 * OCTO_MSECOND) - 3);

  guint64 full = run_app_limited (1, TRUE, 20000000, 10, &st, &link);
  g_test_message ("ceiling 20 Mbit/s: estimate %" G_GUINT64_FORMAT, full);
  g_assert_cmpuint (full, >=, 12000000 * 9 / 10);
  g_assert_cmpuint (full, <=, 12000000 * 11 / 10);
}

/* A 16 Mbit/s source (66 kB every 33 ms) on a 48 Mbit/s link behind an
 * Octopus queue: the padding gets through and the estimate finds the whole
 * link (under the 64 Mbit/s ceiling of four times the app's rate).  The
 * padding's bitrate threshold is the pacing rate, above the rate the queue
 * measures for a user whose queue stays short (it sees only what the user
 * sends); without the padding's slack the queue dropped the probes and the
 * estimate stayed at 22 Mbit/s. */
static void
test_padding_passes_an_octopus_queue_that_is_not_congested (void)
{
  OctoSenderStats st;
  Delivered d = { 0 };
  guint64 probed = run_app_limited_behind ("octopus", 66000, 4, TRUE, 0, 10,
      &st, &d);

  g_test_message ("behind an Octopus queue: estimate %" G_GUINT64_FORMAT
      ", padding %" G_GUINT64_FORMAT " packets", probed, st.padding_packets);
  g_assert_cmpuint (probed, >=, 48000000 * 9 / 10);
  g_assert_cmpuint (d.padding, ==, 0);
  g_assert_cmpuint (d.messages, >=, 10 * OCTO_SECOND / (33 * OCTO_MSECOND) - 3);
}

/* Padding stops once the estimate reaches the ceiling the app asked for.
 * The estimate itself may pass the ceiling: an application-limited BBR
 * stays in STARTUP, and the app's own frames, paced at the startup gain
 * (a full window does not hold the rest of a part-sent frame), measure the
 * link; that is the app's data, not padding. */
static void
test_probe_ceiling_stops_padding (void)
{
  OctoSenderStats st, st_free;
  Delivered d = { 0 };
  guint64 capped = run_app_limited (2, TRUE, 6000000, 10, &st, &d);
  guint64 free = run_app_limited (2, TRUE, 30000000, 10, &st_free, &d);

  g_test_message ("ceiling 6 Mbit/s: estimate %" G_GUINT64_FORMAT
      ", padding %" G_GUINT64_FORMAT " B (ceiling 30 Mbit/s: %"
      G_GUINT64_FORMAT " B)", capped, st.padding_bytes, st_free.padding_bytes);
  g_assert_cmpuint (capped, >=, 6000000);
  g_assert_cmpuint (free, >=, 24000000 * 9 / 10);
  g_assert_cmpuint (st.padding_bytes * 4, <, st_free.padding_bytes);
}

/* The one ceiling rule both the sender and the multipath simulator pad
 * by, pinned: an app's own ceiling wins; by default four times what the
 * app submitted over the last second, and nothing before it submitted.
 * How the sender uses it: app-limited-sender-probes-for-headroom,
 * probe-ceiling-stops-padding and the multipath sender's tests. */
static void
test_probe_ceiling_is_four_times_the_submitted_rate (void)
{
  OctoArrivalMeter m;

  octo_arrival_meter_init (&m);
  g_assert_cmpuint (octo_sender_probe_ceiling (0, &m, OCTO_SECOND), ==, 0);
  octo_arrival_meter_add (&m, 10000, 500 * OCTO_MSECOND);
  octo_arrival_meter_add (&m, 10000, 1500 * OCTO_MSECOND);
  octo_arrival_meter_add (&m, 10000, 2 * OCTO_SECOND);
  /* (1 s, 2 s] holds 20 kB: 160 kbit/s */
  g_assert_cmpuint (octo_sender_probe_ceiling (0, &m, 2 * OCTO_SECOND), ==,
      4 * 160000);
  g_assert_cmpuint (octo_sender_probe_ceiling (3000000, &m,
          2 * OCTO_SECOND), ==, 3000000);
}

/* Each 33 ms: a 8 kB base message and a 17 kB enhancement the network may
 * drop below 3.5 Mbit/s (6 Mbit/s in all). */
static OctoTime
layered_app (SimWorld *sim, OctoTime now, gpointer user_data)
{
  (void) user_data;
  OctoHeader base = { 0 }, enhancement = {
    .priority = 1, .link_bitrate_threshold_bps = 3500000,
  };
  OctoMsgInfo info;
  octo_msg_info_init (&info);
  g_assert_true (sim_world_submit (sim, &base, &info, 8000));
  g_assert_true (sim_world_submit (sim, &enhancement, &info, 17000));
  return now + 33 * OCTO_MSECOND;
}

/* 12 Mbit/s for 4 s, then 3 Mbit/s behind an Octopus queue, no padding:
 * after the drop the queue sheds the enhancements, so the sender stays
 * app-limited (its buffer keeps running empty) while the path delivers a
 * third of what it sends; those samples must lower the estimate, or the
 * app would keep choosing rates the link cannot carry. */
static void
test_estimate_follows_a_capacity_drop_of_an_app_limited_sender (void)
{
  GString *text = g_string_new (NULL);
  for (guint ms = 0; ms < 4000; ms++)
    g_string_append_printf (text, "%u\n", ms);
  for (guint ms = 4000; ms < 60000; ms += 4)
    g_string_append_printf (text, "%u\n", ms);
  OctoTrace *trace = octo_trace_parse (text->str, text->len, "drop", NULL);
  g_string_free (text, TRUE);
  g_assert_nonnull (trace);

  SimWorldConfig c;
  Delivered d = { 0 };
  sim_world_config_init (&c);
  c.sender.probe = FALSE;
  c.down_trace = trace;
  c.down_queue = "octopus";
  SimWorld *sim = sim_world_new (&c, count_message, &d, NULL);
  sim_world_set_app (sim, layered_app, NULL, 0);

  sim_world_run_until (sim, 4 * OCTO_SECOND);
  guint64 before = octo_sender_bandwidth (sim_world_sender (sim));
  sim_world_run_until (sim, 7 * OCTO_SECOND);
  guint64 after = octo_sender_bandwidth (sim_world_sender (sim));
  g_test_message ("estimate %" G_GUINT64_FORMAT " before the drop, %"
      G_GUINT64_FORMAT " 3 s after", before, after);
  g_assert_cmpuint (before, >=, 6000000);
  g_assert_cmpuint (after, <=, 3000000 * 3 / 2);
  sim_world_free (sim);
  octo_trace_free (trace);
}

/* ACKs cross a traced uplink: an ACK queued now must wait for the uplink's
 * next opportunity, never use one that passed while the world had nothing
 * to do, so no RTT sample beats the propagation delay.  The downlink
 * serves 4 packets at the start of every 100 ms and the uplink one every
 * 20 ms, so the world sleeps through uplink opportunities. */
static void
test_rtt_over_a_traced_uplink_is_at_least_propagation (void)
{
  SimWorldConfig c;
  Delivered d = { 0 };
  Backlog b = { 0, 1000, 200 * OCTO_MSECOND };
  GString *down_text = g_string_new (NULL), *up_text = g_string_new (NULL);
  for (guint ms = 0; ms < 1000; ms += 100)
    for (guint i = 0; i < 4; i++)
      g_string_append_printf (down_text, "%u\n", ms + i);
  for (guint ms = 0; ms < 1000; ms += 20)
    g_string_append_printf (up_text, "%u\n", ms);
  OctoTrace *down = octo_trace_parse (down_text->str, down_text->len, "down",
      NULL);
  OctoTrace *up = octo_trace_parse (up_text->str, up_text->len, "up", NULL);
  g_string_free (down_text, TRUE);
  g_string_free (up_text, TRUE);

  sim_world_config_init (&c);
  c.sender.probe = FALSE;
  c.down_trace = down;
  c.up_trace = up;
  c.one_way_delay = 30 * OCTO_MSECOND;
  /* one-packet messages, each acknowledged at once */
  c.receiver.ack_every = 1;
  SimWorld *sim = sim_world_new (&c, count_message, &d, NULL);
  sim_world_set_app (sim, backlog_app, &b, 0);
  sim_world_run_until (sim, 5 * OCTO_SECOND);
  OctoSenderStats st;
  octo_sender_get_stats (sim_world_sender (sim), &st);
  g_test_message ("min_rtt %" G_GUINT64_FORMAT " us",
      st.session.min_rtt / OCTO_USECOND);
  g_assert_cmpuint (st.session.min_rtt, >=, 60 * OCTO_MSECOND);
  g_assert_cmpuint (d.messages, >=, 20);
  sim_world_free (sim);
  octo_trace_free (down);
  octo_trace_free (up);
}

#define SPOOF_START (2 * OCTO_SECOND)
#define SPOOF_END (4 * OCTO_SECOND)
#define SPOOF_RUN (5 * OCTO_SECOND)
#define SPOOF_STEP (100 * OCTO_USECOND)

/* An off-path attacker's ACK for the 20 packets the sender sent last, as
 * if they had arrived at once: it knows the protocol and the sender's
 * packet count but neither the connection id nor the ISN.  It takes turns
 * at seqs counted from 0 under a guessed id, the true seqs (as if the ISN
 * had leaked) under a guessed id, and, as if the id had leaked, seqs
 * counted from 0 under the right id. */
static gsize
forge_ack (guint round, const OctoSenderConfig *c, guint64 packets_sent,
    guint8 *out)
{
  OctoAck ack = { .n_ranges = 1 };
  guint32 newest = (guint32) packets_sent - 1;

  switch (round % 3) {
    case 0:
      ack.conn_id = round;
      break;
    case 1:
      ack.conn_id = round * 2654435761u;
      newest += c->isn;
      break;
    default:
      ack.conn_id = c->conn_id;
      break;
  }
  ack.ranges[0].first = newest - 19;
  ack.ranges[0].last = newest;
  return octo_ack_write (&ack, out, OCTO_ACK_MAX_LEN);
}

/* A backlogged sender on a scripted 12 Mbit/s link with 20 ms each way;
 * the receiver acknowledges every packet that arrived.  With @spoof, every
 * millisecond from SPOOF_START to SPOOF_END a forged ACK arrives too.
 * @bandwidth receives the estimate every SPOOF_STEP. */
static void
run_spoofed (gboolean spoof, GArray *bandwidth, OctoSenderStats *end)
{
  OctoSenderConfig c;
  OctoSender *s;
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  guint8 pkt[OCTO_SENDER_DEFAULT_MTU], ack_buf[OCTO_ACK_MAX_LEN];
  GArray *arrivals = g_array_new (FALSE, FALSE, sizeof (guint64));
  const guint64 link = 12000000;
  OctoTime busy_until = 0, wake;
  guint32 newest = 0;
  guint round = 0;
  gboolean accepted, any = FALSE;
  guint8 *data = g_malloc0 (20000);

  octo_sender_config_init (&c);
  c.seed = 3;
  octo_sender_config_ids_from_seed (&c, 77);
  s = octo_sender_new (&c, 0);
  octo_msg_info_init (&info);

  for (OctoTime now = 0; now < SPOOF_RUN; now += SPOOF_STEP) {
    OctoSenderStats st;
    octo_sender_get_stats (s, &st);
    if (st.session.queued_bytes < 100000)
      octo_sender_submit (s, &h, &info, data, 20000, now, &accepted);

    gsize len;
    while ((len = octo_sender_poll (s, now, pkt, &wake)) > 0) {
      OctoDataPacket d;
      g_assert_cmpint (octo_data_parse (pkt, len, &d, NULL), ==,
          OCTO_DATA_OK);
      g_assert_cmpuint (d.conn_id, ==, c.conn_id);
      busy_until = MAX (busy_until, now + 20 * OCTO_MSECOND) +
          (len + OCTO_LINK_OVERHEAD) * 8 * OCTO_SECOND / link;
      guint64 at = busy_until + 20 * OCTO_MSECOND;
      g_array_append_val (arrivals, at);
    }
    guint done = 0;
    while (done < arrivals->len && g_array_index (arrivals, guint64, done) <=
        now)
      done++;
    if (done > 0) {
      OctoAck ack = { .conn_id = c.conn_id, .n_ranges = 1 };
      newest = any ? newest + done : c.isn + done - 1;
      any = TRUE;
      ack.ranges[0].first = c.isn;
      ack.ranges[0].last = newest;
      gsize n = octo_ack_write (&ack, ack_buf, sizeof ack_buf);
      g_assert_true (octo_sender_on_control (s, ack_buf, n, now));
      g_array_remove_range (arrivals, 0, done);
    }
    if (spoof && now >= SPOOF_START && now < SPOOF_END &&
        now % OCTO_MSECOND == 0) {
      octo_sender_get_stats (s, &st);
      gsize n = forge_ack (round++, &c, st.session.flight->packets_sent,
          ack_buf);
      octo_sender_on_control (s, ack_buf, n, now);
    }
    octo_sender_get_stats (s, &st);
    g_array_append_val (bandwidth, st.session.bandwidth);
  }
  octo_sender_get_stats (s, end);
  g_free (data);
  g_array_unref (arrivals);
  octo_sender_free (s);
}

/* Forged ACKs (issue 16 item 4) leave the estimate within 5 % of an
 * unattacked run's at every instant, and the minimum RTT as it was: the
 * sender refuses every one, as another connection's or as naming packets
 * it never sent. */
static void
test_spoofed_acks_move_the_estimate_less_than_5_percent (void)
{
  GArray *clean = g_array_new (FALSE, FALSE, sizeof (guint64));
  GArray *attacked = g_array_new (FALSE, FALSE, sizeof (guint64));
  OctoSenderStats clean_end, attacked_end;
  gdouble worst = 0;

  run_spoofed (FALSE, clean, &clean_end);
  run_spoofed (TRUE, attacked, &attacked_end);
  g_assert_cmpuint (clean->len, ==, attacked->len);
  for (guint i = SPOOF_START / SPOOF_STEP; i < clean->len; i++) {
    gdouble a = g_array_index (attacked, guint64, i);
    gdouble b = g_array_index (clean, guint64, i);
    g_assert_cmpfloat (b, >, 0);
    worst = MAX (worst, fabs (a - b) / b);
  }
  g_test_message ("worst estimate change %.4f; min_rtt %" G_GUINT64_FORMAT
      " vs %" G_GUINT64_FORMAT " us", worst,
      attacked_end.session.min_rtt / OCTO_USECOND,
      clean_end.session.min_rtt / OCTO_USECOND);
  g_assert_cmpfloat (worst, <, 0.05);
  g_assert_cmpuint (attacked_end.session.min_rtt, ==,
      clean_end.session.min_rtt);
  /* 2000 forged: two thirds under another id, a third naming unsent seqs. */
  g_assert_cmpuint (attacked_end.acks_foreign, ==, 1334);
  g_assert_cmpuint (attacked_end.acks_unsent, ==, 666);
  g_assert_cmpuint (attacked_end.acks_received, ==, clean_end.acks_received);
  g_array_unref (clean);
  g_array_unref (attacked);
}

/* QUCO through the sender's own control parsing: a NACK naming a sent
 * packet of this connection backs the window off by its level; others are
 * refused. */
static void
test_quco_sender_backs_off_on_its_nacks_only (void)
{
  OctoSenderConfig c;
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  OctoSenderStats st;
  guint8 pkt[OCTO_SENDER_DEFAULT_MTU], buf[OCTO_NACK_LEN];
  guint8 *data = g_malloc0 (20000);
  OctoTime wake;
  gboolean accepted;

  octo_sender_config_init (&c);
  c.cc = OCTO_SENDER_QUCO;
  octo_sender_config_ids_from_seed (&c, 5);
  OctoSender *s = octo_sender_new (&c, 0);
  octo_msg_info_init (&info);
  octo_sender_submit (s, &h, &info, data, 20000, 0, &accepted);
  g_assert_true (accepted);
  /* Algorithm 3 starts at one packet */
  g_assert_cmpuint (octo_sender_poll (s, 0, pkt, &wake), >, 0);
  g_assert_cmpuint (octo_sender_poll (s, 0, pkt, &wake), ==, 0);
  octo_sender_get_stats (s, &st);
  const guint64 mss = c.mtu + OCTO_LINK_OVERHEAD;
  g_assert_cmpuint (st.session.cwnd, ==, mss);
  /* its ACK: slow start to two packets */
  OctoAck ack = {.conn_id = c.conn_id,.n_ranges = 1 };
  guint8 ack_buf[OCTO_ACK_MAX_LEN];
  ack.ranges[0].first = ack.ranges[0].last = c.isn;
  gsize ack_len = octo_ack_write (&ack, ack_buf, sizeof ack_buf);
  g_assert_true (octo_sender_on_control (s, ack_buf, ack_len,
          5 * OCTO_MSECOND));
  octo_sender_get_stats (s, &st);
  g_assert_cmpuint (st.session.cwnd, ==, 2 * mss);

  OctoNack nack = {.conn_id = c.conn_id,.trimmed = 2,.seq = c.isn + 1 };
  octo_nack_write (&nack, buf, sizeof buf);
  g_assert_false (octo_sender_on_control (s, buf, sizeof buf, 10 * OCTO_MSECOND));
  nack.seq = c.isn;
  nack.conn_id = c.conn_id + 1;
  octo_nack_write (&nack, buf, sizeof buf);
  g_assert_false (octo_sender_on_control (s, buf, sizeof buf, 10 * OCTO_MSECOND));
  octo_sender_get_stats (s, &st);
  g_assert_cmpuint (st.nacks_received, ==, 0);
  g_assert_cmpuint (st.acks_foreign, ==, 2);

  nack.conn_id = c.conn_id;
  octo_nack_write (&nack, buf, sizeof buf);
  g_assert_true (octo_sender_on_control (s, buf, sizeof buf, 10 * OCTO_MSECOND));
  octo_sender_get_stats (s, &st);
  g_assert_cmpuint (st.nacks_received, ==, 1);
  /* two chunks: beta 0.25 */
  g_assert_cmpuint (st.session.cwnd, ==, (guint64) (1.5 * mss));
  octo_sender_free (s);
  g_free (data);
}

typedef struct {
  guint layers;
  GBytes *data;
} LayeredFrame;

static void
keep_layered_frame (OctoMessage *msg, gpointer user_data)
{
  LayeredFrame *d = user_data;
  d->layers = msg->layers_delivered;
  d->data = g_bytes_new_take (msg->data, msg->len);
}

/* The core end to end: a QUCO sender submits one frame's Q0 | Q1 | Q2 as
 * qualitative packets, a queue trims the bronze chunk of every other
 * packet, the receiver shows the frame at layer 1 and NACKs each trimmed
 * packet ahead of its ACK, the sender's window takes the NACKs and its
 * flight counts as delivered only the bytes that crossed. */
static void
test_qualitative_frame_end_to_end (void)
{
  const guint32 lens[] = { 6000, 4000, 2000 };
  OctoSenderConfig c;
  OctoReceiverConfig rc;
  OctoQLayout layout;
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  OctoSenderStats st;
  LayeredFrame got = { 0 };
  guint8 pkt[OCTO_SENDER_DEFAULT_MTU], fb[OCTO_ACK_MAX_LEN];
  guint8 *frame = g_malloc (12000);
  guint sent = 0, trimmed = 0;
  guint64 cut_bytes = 0;
  gboolean accepted;
  OctoTime wake, now;

  for (guint i = 0; i < 12000; i++)
    frame[i] = (guint8) (i * 7 + i / 1000);
  octo_sender_config_init (&c);
  c.cc = OCTO_SENDER_QUCO;
  c.probe = FALSE;
  octo_sender_config_ids_from_seed (&c, 9);
  OctoSender *s = octo_sender_new (&c, 0);
  octo_receiver_config_init (&rc);
  OctoReceiver *r = octo_receiver_new (&rc, keep_layered_frame, &got);
  octo_qlayout_layered (&layout, lens, 3);
  octo_msg_info_init (&info);
  octo_sender_submit_qualitative (s, &h, &info, &layout, frame, 0, &accepted);
  g_assert_true (accepted);

  for (now = 0; now < OCTO_SECOND && !got.data; now += OCTO_MSECOND) {
    gsize len;
    while ((len = octo_sender_poll (s, now, pkt, &wake)) > 0) {
      if (sent++ % 2 == 1) {
        gsize before = len;
        guint cut;
        g_assert_true (octo_chunks_trim (pkt, &len, 1, &cut));
        cut_bytes += before - len;
        trimmed++;
      }
      octo_receiver_on_packet (r, pkt, len, now);
      while ((len = octo_receiver_poll_nack (r, fb, NULL)) > 0)
        g_assert_true (octo_sender_on_control (s, fb, len, now));
    }
    gsize len_ack = octo_receiver_poll_ack (r, now, fb, NULL);
    if (len_ack > 0)
      g_assert_true (octo_sender_on_control (s, fb, len_ack, now));
  }
  for (guint i = 0; i < 100; i++, now += OCTO_MSECOND) {
    gsize len_ack = octo_receiver_poll_ack (r, now, fb, NULL);
    if (len_ack > 0)
      g_assert_true (octo_sender_on_control (s, fb, len_ack, now));
  }
  g_assert_nonnull (got.data);
  g_assert_cmpuint (got.layers, ==, 2);
  g_assert_cmpmem (g_bytes_get_data (got.data, NULL),
      g_bytes_get_size (got.data), frame, 10000);
  octo_sender_get_stats (s, &st);
  g_assert_cmpuint (trimmed, >, 0);
  g_assert_cmpuint (st.nacks_received, ==, trimmed);
  g_assert_cmpuint (st.session.flight->packets_acked, ==, sent);
  g_assert_cmpuint (st.session.flight->bytes_acked, ==,
      st.session.flight->bytes_sent - cut_bytes);
  g_assert_cmpuint (octo_receiver_get_stats (r)->messages_lower_layers, ==, 1);
  g_bytes_unref (got.data);
  octo_receiver_free (r);
  octo_sender_free (s);
  g_free (frame);
}

/* Gathers the layers of @frame_id (3000, 2000 and 1000 bytes) with the
 * bitrate thresholds @thresholds and @slack_ms each. */
static void
gather_frame (OctoQFrame *f, guint32 frame_id, const guint64 thresholds[3],
    guint16 slack_ms)
{
  static guint8 bytes[3000];

  octo_qframe_reset (f);
  for (guint i = 0; i < 3; i++) {
    OctoHeader h = {.priority = i,.link_bitrate_threshold_bps =
          thresholds[i],.slack_ms = slack_ms };
    OctoMsgInfo info;

    octo_msg_info_init (&info);
    info.frame_id = frame_id;
    info.spatial_layer = i;
    octo_qframe_add (f, &h, &info, bytes, 3000 - 1000 * i);
  }
}

/* The send buffer sees a layered frame's base fields only, so the sender
 * judges the upper layers by their own before packing: with the estimate
 * at 1.2 Mbit/s and a frame's worth queued (far more than the 10 ms
 * slack), a layer whose threshold is above it is cut with every layer
 * above; an empty queue, a threshold within the estimate or a slack longer
 * than the queue keeps the layer. */
static void
test_qualitative_frame_sheds_layers_its_buffer_would_drop (void)
{
  const guint64 fits[3] = { 0, 400000, 1000000 },
      q2_above[3] = { 0, 400000, 2000000 },
      q1_above[3] = { 0, 1300000, 1400000 };
  /* per frame: thresholds, slack, the layers that must go out */
  const guint64 *thresholds[] = { q2_above, q2_above, q1_above, fits,
    q1_above
  };
  const guint16 slack[] = { 10, 10, 10, 10, 1000 };
  const guint expected[] = { 3, 2, 1, 3, 3 };
  guint got[G_N_ELEMENTS (expected)] = { 0 };
  OctoSenderConfig c;
  OctoSenderStats st;
  OctoQFrame f;
  guint8 pkt[OCTO_SENDER_DEFAULT_MTU];
  gboolean accepted;
  OctoTime wake;

  octo_sender_config_init (&c);
  c.cc = OCTO_SENDER_FIXED;
  c.probe = FALSE;
  octo_sender_config_ids_from_seed (&c, 11);
  OctoSender *s = octo_sender_new (&c, 0);
  octo_sender_set_fixed_rates (s, 1200000, 0);
  octo_qframe_init (&f);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++) {
    gather_frame (&f, i, thresholds[i], slack[i]);
    octo_sender_submit_qframe (s, &f, 0, &accepted);
    g_assert_true (accepted);
  }
  octo_qframe_clear (&f);

  for (OctoTime now = 0; now < OCTO_SECOND; now += OCTO_MSECOND) {
    gsize len;
    while ((len = octo_sender_poll (s, now, pkt, &wake)) > 0) {
      OctoDataPacket dp;
      OctoQFragment frag;
      g_assert_cmpint (octo_data_parse (pkt, len, &dp, NULL), ==,
          OCTO_DATA_OK);
      g_assert_true (octo_qpacket_parse (&dp, &frag));
      g_assert_cmpuint (dp.header.msg_id, <, G_N_ELEMENTS (expected));
      got[dp.header.msg_id] = frag.layout.n_segments;
      g_assert_cmpuint (frag.layout.len[0], ==, 3000);
    }
  }
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpuint (got[i], ==, expected[i]);
  octo_sender_get_stats (s, &st);
  g_assert_cmpuint (st.layers_cut, ==, 3);
  g_assert_cmpuint (st.session.buffer->packets_dropped[OCTO_DROP_BITRATE],
      ==, 0);
  octo_sender_free (s);
}

/* An ACK asking for a key frame is one request per
 * OCTO_SENDER_KEYFRAME_REQUEST_INTERVAL (the receiver repeats it on its
 * ACKs for a while); the application takes each once. */
static void
test_keyframe_request_taken_once_per_interval (void)
{
  OctoSenderConfig c;
  OctoSender *s;
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  OctoSenderStats st;
  guint8 msg[100] = { 0 }, out[OCTO_SENDER_DEFAULT_MTU];
  gboolean accepted;
  OctoTime wake;
  /* ACKs at these ms, flagged or not, and whether the app then has one */
  const guint at[] = { 10, 20, 30, 200, 319, 320, 500, 700 };
  const gboolean flagged[] = { FALSE, TRUE, FALSE, TRUE, TRUE, TRUE, TRUE,
    TRUE
  };
  const gboolean taken[] = { FALSE, TRUE, FALSE, FALSE, FALSE, TRUE, FALSE,
    TRUE
  };

  octo_sender_config_init (&c);
  octo_sender_config_ids_from_seed (&c, 3);
  s = octo_sender_new (&c, 0);
  octo_msg_info_init (&info);
  octo_sender_submit (s, &h, &info, msg, sizeof msg, 0, &accepted);
  g_assert_true (accepted);
  g_assert_cmpuint (octo_sender_poll (s, 0, out, &wake), >, 0);
  g_assert_false (octo_sender_take_keyframe_request (s));
  for (guint i = 0; i < G_N_ELEMENTS (at); i++) {
    OctoAck ack = {.conn_id = c.conn_id,.n_ranges = 1 };
    guint8 ack_buf[OCTO_ACK_MAX_LEN];
    gsize n;

    ack.ranges[0].first = ack.ranges[0].last = c.isn;
    ack.flags = flagged[i] ? OCTO_ACK_FLAG_KEYFRAME_REQUEST : 0;
    n = octo_ack_write (&ack, ack_buf, sizeof ack_buf);
    g_assert_true (octo_sender_on_control (s, ack_buf, n,
            at[i] * OCTO_MSECOND));
    g_assert_cmpuint (octo_sender_take_keyframe_request (s), ==, taken[i]);
    g_assert_false (octo_sender_take_keyframe_request (s));
  }
  octo_sender_get_stats (s, &st);
  g_assert_cmpuint (st.keyframe_requests, ==, 3);
  octo_sender_free (s);
}

/* Sends one 100-byte message at @now and checks that it left. */
static void
send_one (OctoSender *s, OctoTime now)
{
  OctoHeader h = { 0 };
  OctoMsgInfo info;
  guint8 msg[100] = { 0 }, out[OCTO_SENDER_DEFAULT_MTU];
  gboolean accepted;
  OctoTime wake;

  octo_msg_info_init (&info);
  octo_sender_submit (s, &h, &info, msg, sizeof msg, now, &accepted);
  g_assert_true (accepted);
  g_assert_cmpuint (octo_sender_poll (s, now, out, &wake), >, 0);
}

/* An outage of the one path asks the application for one restart,
 * restart_after after the first packet sent since the last ACK; the poll
 * wakes for it; nothing asks before the first ACK, nor with
 * restart_after 0. */
static void
test_an_outage_asks_for_one_restart (void)
{
  OctoSenderConfig c;
  OctoSender *s;
  OctoSenderStats st;
  OctoAck ack = { .n_ranges = 1 };
  guint8 ack_buf[OCTO_ACK_MAX_LEN], out[OCTO_SENDER_DEFAULT_MTU];
  OctoTime wake;

  octo_sender_config_init (&c);
  octo_sender_config_ids_from_seed (&c, 4);
  c.probe = FALSE;
  c.restart_after = 500 * OCTO_MSECOND;
  s = octo_sender_new (&c, 0);
  send_one (s, 0);
  g_assert_false (octo_sender_take_restart (s, OCTO_SECOND));

  ack.conn_id = c.conn_id;
  ack.ranges[0].first = ack.ranges[0].last = c.isn;
  g_assert_true (octo_sender_on_control (s, ack_buf,
          octo_ack_write (&ack, ack_buf, sizeof ack_buf),
          OCTO_SECOND + 10 * OCTO_MSECOND));
  send_one (s, OCTO_SECOND + 20 * OCTO_MSECOND);
  send_one (s, OCTO_SECOND + 60 * OCTO_MSECOND);
  g_assert_cmpuint (octo_sender_poll (s, OCTO_SECOND + 70 * OCTO_MSECOND,
          out, &wake), ==, 0);
  g_assert_cmpuint (wake, <=, OCTO_SECOND + 520 * OCTO_MSECOND);
  g_assert_false (octo_sender_take_restart (s,
          OCTO_SECOND + 519 * OCTO_MSECOND));
  g_assert_true (octo_sender_take_restart (s,
          OCTO_SECOND + 520 * OCTO_MSECOND));
  g_assert_false (octo_sender_take_restart (s, 2 * OCTO_SECOND));
  octo_sender_get_stats (s, &st);
  g_assert_cmpuint (st.session.restarts, ==, 1);
  octo_sender_free (s);

  c.restart_after = 0;
  s = octo_sender_new (&c, 0);
  send_one (s, 0);
  g_assert_true (octo_sender_on_control (s, ack_buf,
          octo_ack_write (&ack, ack_buf, sizeof ack_buf), 10 * OCTO_MSECOND));
  send_one (s, 20 * OCTO_MSECOND);
  g_assert_false (octo_sender_take_restart (s, 10 * OCTO_SECOND));
  octo_sender_free (s);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func
      ("/transport/sender/spoofed-acks-move-the-estimate-less-than-5-percent",
      test_spoofed_acks_move_the_estimate_less_than_5_percent);
  g_test_add_func ("/transport/sender/bbr-modes-and-pacing-from-scripted-acks",
      test_bbr_modes_and_pacing_from_scripted_acks);
  g_test_add_func ("/transport/sender/bbr-estimate-on-constant-12mbps",
      test_bbr_estimate_on_constant_12mbps);
  g_test_add_func ("/transport/sender/bbr-estimate-on-constant-24mbps",
      test_bbr_estimate_on_constant_24mbps);
  g_test_add_func ("/transport/sender/delay-bbr-estimate-on-constant-12mbps",
      test_delay_bbr_estimate_on_constant_12mbps);
  g_test_add_func ("/transport/sender/pacing-rate-is-accurate",
      test_pacing_rate_is_accurate);
  g_test_add_func
      ("/transport/sender/live-source-at-twice-the-rate-drops-by-the-rules",
      test_live_source_at_twice_the_rate_drops_by_the_rules);
  g_test_add_func ("/transport/sender/app-limited-sender-probes-for-headroom",
      test_app_limited_sender_probes_for_headroom);
  g_test_add_func
      ("/transport/sender/padding-passes-an-octopus-queue-that-is-not-congested",
      test_padding_passes_an_octopus_queue_that_is_not_congested);
  g_test_add_func ("/transport/sender/probe-ceiling-stops-padding",
      test_probe_ceiling_stops_padding);
  g_test_add_func
      ("/transport/sender/probe-ceiling-is-four-times-the-submitted-rate",
      test_probe_ceiling_is_four_times_the_submitted_rate);
  g_test_add_func
      ("/transport/sender/estimate-follows-a-capacity-drop-of-an-app-limited-sender",
      test_estimate_follows_a_capacity_drop_of_an_app_limited_sender);
  g_test_add_func
      ("/transport/sender/rtt-over-a-traced-uplink-is-at-least-propagation",
      test_rtt_over_a_traced_uplink_is_at_least_propagation);
  g_test_add_func ("/transport/sender/qualitative-frame-end-to-end",
      test_qualitative_frame_end_to_end);
  g_test_add_func
      ("/transport/sender/qualitative-frame-sheds-layers-its-buffer-would-drop",
      test_qualitative_frame_sheds_layers_its_buffer_would_drop);
  g_test_add_func ("/transport/sender/quco-backs-off-on-its-nacks-only",
      test_quco_sender_backs_off_on_its_nacks_only);
  g_test_add_func ("/transport/sender/an-outage-asks-for-one-restart",
      test_an_outage_asks_for_one_restart);
  g_test_add_func ("/transport/sender/keyframe-request-once-per-interval",
      test_keyframe_request_taken_once_per_interval);
  return g_test_run ();
}
