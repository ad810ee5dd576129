/* The engine's rules one at a time, with exact expected outcomes. */
#include "engine-harness.h"

#include <string.h>

#define MS OCTO_MSECOND

static const Tags plain = { 0 };
static const Tags low = { .priority = 3 };

static void
assert_log (Harness *h, const gchar *expected)
{
  gchar *log = harness_take_log (h);
  g_assert_cmpstr (log, ==, expected);
  g_free (log);
}

static Tags
dropper (guint8 threshold)
{
  Tags t = { .drop = TRUE, .threshold = threshold };
  return t;
}

static void
test_dropper_compares_ids_across_wraparound (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_message (h, 0, 0, 0xfffffffe, 1, 100, &low, 0);
  harness_message (h, 0, 0, 0xffffffff, 1, 100, &low, 0);
  harness_message (h, 0, 0, 1, 1, 100, &d, 0);  /* newer than both */
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  assert_log (h, "-0/4294967294:dropper -0/4294967295:dropper +0/1");
  harness_free (h);
}

static void
test_dropper_does_not_touch_other_stream_or_user (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_message (h, 0, 1, 10, 1, 100, &low, 0);      /* stream 1 */
  harness_message (h, 7, 0, 10, 1, 100, &low, 0);      /* other sender, stream 0 */
  harness_message (h, 0, 0, 10, 1, 100, &low, 0);      /* this stream */
  harness_message (h, 0, 0, 11, 1, 100, &d, 0);
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  assert_log (h, "+1/10 +0/10@7 -0/10:dropper +0/11");
  harness_free (h);
}

static void
test_dropper_acts_only_once_its_tail_is_queued (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_message (h, 0, 0, 1, 1, 100, &low, 0);
  harness_message (h, 0, 0, 2, 1, 100, &low, 0);
  harness_packets (h, 0, 0, 3, 0, 1, 2, 100, &d, 0);   /* head of dropper 3 */
  harness_dequeue (h, 1, 1 * MS);
  assert_log (h, "+0/1");
  harness_packets (h, 0, 0, 3, 1, 1, 2, 100, &d, 2 * MS);   /* its tail */
  harness_dequeue (h, G_MAXUINT, 3 * MS);
  assert_log (h, "-0/2:dropper +0/3 +0/3");
  harness_free (h);
}

static void
test_partly_sent_message_is_never_dropped (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_message (h, 0, 0, 1, 3, 100, &low, 0);
  harness_dequeue (h, 1, 1 * MS);                 /* one packet of 1 sent */
  harness_message (h, 0, 0, 2, 1, 100, &d, 2 * MS);
  harness_dequeue (h, G_MAXUINT, 3 * MS);
  assert_log (h, "+0/1 +0/1 +0/1 +0/2");
  harness_free (h);
}

static void
test_slack_delays_droppability_by_exactly_its_value (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags slack = { .priority = 3, .slack_ms = 100 };
  Tags d = dropper (0);

  harness_message (h, 0, 0, 1, 1, 100, &slack, 0);
  harness_message (h, 0, 0, 2, 1, 100, &slack, 0);
  harness_message (h, 0, 0, 3, 1, 100, &d, 0);
  /* 1 reaches the front 1 ns before its slack ends: still protected */
  harness_dequeue (h, 1, 100 * MS - 1);
  assert_log (h, "+0/1");
  /* 2 reaches it exactly when the slack ends: droppable */
  harness_dequeue (h, G_MAXUINT, 100 * MS);
  assert_log (h, "-0/2:dropper +0/3");
  harness_free (h);
}

/* A message about to arrive is judged as rule 2 would judge it once the
 * queue ahead of it drained at the bandwidth in force: 3000 bytes at
 * 1.2 Mbit/s drain in 20 ms. */
static void
test_arrival_judged_once_the_queue_ahead_drained (void)
{
  Harness *h = harness_new (100000, OCTO_BW_EXTERNAL);
  OctoHeader above = {.priority = 2, .link_bitrate_threshold_bps = 1200001,
    .slack_ms = 20
  }, at_share = above, longer_slack = above;
  OctoEngineConfig config;
  Harness *fifo;

  at_share.link_bitrate_threshold_bps = 1200000;
  longer_slack.slack_ms = 21;
  harness_message (h, 0, 0, 1, 2, 1500, &plain, 0);
  /* the bandwidth unknown: nothing is dropped, nor is the drain timed */
  g_assert_cmpuint (octo_engine_drain_time (h->engine, 0), ==, 0);
  g_assert_false (octo_engine_would_drop_arrival (h->engine, 0, &above, 0));

  octo_engine_set_bandwidth (h->engine, 1200000);
  g_assert_cmpuint (octo_engine_drain_time (h->engine, 0), ==, 20 * MS);
  g_assert_true (octo_engine_would_drop_arrival (h->engine, 0, &above, 0));
  g_assert_false (octo_engine_would_drop_arrival (h->engine, 0, &at_share,
          0));
  g_assert_false (octo_engine_would_drop_arrival (h->engine, 0,
          &longer_slack, 0));
  /* half the queue gone: 10 ms, within the slack */
  harness_dequeue (h, 1, 0);
  assert_log (h, "+0/1");
  g_assert_false (octo_engine_would_drop_arrival (h->engine, 0, &above, 0));
  /* nothing is judged, and nothing queued is touched */
  g_assert_cmpuint (octo_engine_queued_bytes (h->engine), ==, 1500);
  harness_dequeue (h, G_MAXUINT, 0);
  assert_log (h, "+0/1");
  harness_free (h);

  octo_engine_config_init (&config);
  config.rules = FALSE;
  config.bw_source = OCTO_BW_EXTERNAL;
  fifo = harness_new_full (&config);
  harness_message (fifo, 0, 0, 1, 2, 1500, &plain, 0);
  octo_engine_set_bandwidth (fifo->engine, 1200000);
  g_assert_false (octo_engine_would_drop_arrival (fifo->engine, 0, &above,
          0));
  harness_dequeue (fifo, G_MAXUINT, 0);
  assert_log (fifo, "+0/1 +0/1");
  harness_free (fifo);
}

static void
test_overflow_discards_whole_messages (void)
{
  /* room for 5 packets of 100 bytes */
  Harness *h = harness_new (500, OCTO_BW_MEASURED);

  harness_message (h, 0, 0, 1, 2, 100, &plain, 0);
  harness_message (h, 0, 0, 2, 4, 100, &plain, 0);  /* 3rd packet overflows */
  assert_log (h, "-0/2:overflow -0/2:overflow -0/2:overflow -0/2:overflow");
  g_assert_cmpuint (octo_engine_queued_bytes (h->engine), ==, 200);
  harness_message (h, 0, 0, 3, 3, 100, &plain, 0);  /* fits again */
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  assert_log (h, "+0/1 +0/1 +0/3 +0/3 +0/3");
  g_assert_cmpuint (octo_engine_get_stats (h->engine)->
      messages_dropped[OCTO_DROP_OVERFLOW][0], ==, 1);
  harness_free (h);
}

static void
test_overflow_of_partly_sent_message_keeps_what_is_queued (void)
{
  Harness *h = harness_new (300, OCTO_BW_MEASURED);

  harness_packets (h, 0, 0, 1, 0, 3, 5, 100, &plain, 0);
  harness_dequeue (h, 1, 1 * MS);
  harness_message (h, 0, 0, 9, 1, 100, &plain, 1 * MS);   /* buffer full */
  /* packets 4 and 5 of message 1 do not fit; its queued ones still go */
  harness_packets (h, 0, 0, 1, 3, 2, 5, 100, &plain, 2 * MS);
  harness_dequeue (h, G_MAXUINT, 3 * MS);
  assert_log (h, "+0/1 -0/1:overflow -0/1:overflow +0/1 +0/1 +0/9");
  harness_free (h);
}

static void
test_dropper_table_cleared_when_stream_empties (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  /* a dropper with id 1000 passes; the sender restarts at id 5 */
  harness_message (h, 0, 0, 1000, 1, 100, &d, 0);
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  harness_message (h, 0, 0, 5, 1, 100, &low, 2 * MS);
  harness_message (h, 0, 0, 6, 1, 100, &low, 2 * MS);
  harness_dequeue (h, G_MAXUINT, 3 * MS);
  assert_log (h, "+0/1000 +0/5 +0/6");
  harness_free (h);
}

static void
test_same_stream_id_from_two_senders_never_interacts (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_message (h, 1, 0, 10, 1, 100, &low, 0);
  harness_message (h, 2, 0, 10, 1, 100, &low, 0);
  harness_message (h, 2, 0, 11, 1, 100, &d, 0);
  harness_message (h, 1, 0, 11, 1, 100, &low, 0);
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  assert_log (h, "+0/10@1 -0/10:dropper@2 +0/11@2 +0/11@1");
  harness_free (h);
}

static void
test_later_packets_of_dropped_message_discarded_on_arrival (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_packets (h, 0, 0, 1, 0, 1, 3, 100, &low, 0);  /* head of 1 */
  harness_message (h, 0, 0, 2, 1, 100, &d, 0);
  harness_dequeue (h, 1, 1 * MS);
  assert_log (h, "-0/1:dropper +0/2");
  /* the rest of message 1 arrives late: discarded at once */
  harness_packets (h, 0, 0, 1, 1, 2, 3, 100, &low, 2 * MS);
  assert_log (h, "-0/1:dropper -0/1:dropper");
  g_assert_cmpuint (octo_engine_queued_packets (h->engine), ==, 0);
  harness_free (h);
}

static void
test_untagged_packets_are_plain_fifo (void)
{
  OctoEngineConfig config;
  OctoEngine *engine;
  OctoPacket p = { .size = 100, .tagged = FALSE }, out;

  octo_engine_config_init (&config);
  config.limit_bytes = 200;
  engine = octo_engine_new (&config, NULL, NULL);
  for (guint i = 1; i <= 3; i++) {
    p.data = GUINT_TO_POINTER (i);
    g_assert_cmpint (octo_engine_enqueue (engine, &p, 0), ==, i <= 2);
  }
  g_assert_true (octo_engine_dequeue (engine, 1, &out));
  g_assert_cmpuint (GPOINTER_TO_UINT (out.data), ==, 1);
  g_assert_true (octo_engine_dequeue (engine, 1, &out));
  g_assert_cmpuint (GPOINTER_TO_UINT (out.data), ==, 2);
  g_assert_false (octo_engine_dequeue (engine, 1, &out));
  g_assert_cmpuint (octo_engine_get_stats (engine)->untagged_packets, ==, 3);
  g_assert_cmpuint (octo_engine_get_stats (engine)->
      packets_dropped[OCTO_DROP_OVERFLOW], ==, 1);
  octo_engine_free (engine);
}

/* Two streams share a measured 12 Mbit/s queue: stream 0 offers 12 Mbit/s,
 * stream 1 1.2 Mbit/s, so stream 0's max-min share is 10.8 Mbit/s: a
 * 10 Mbit/s threshold on it passes, an 11.9 Mbit/s one is dropped. */
static void
test_bitrate_rule_uses_max_min_share_of_measured_rate (void)
{
  Harness *h = harness_new (1000000, OCTO_BW_MEASURED);
  Tags ok = { .priority = 1, .bitrate = 10000000 };
  Tags too_high = { .priority = 1, .bitrate = 11900000 };
  gchar *log;

  /* a backlog keeps the queue busy; one 1500-byte departure per ms */
  for (guint i = 0; i < 10; i++)
    harness_message (h, 0, 0, i, 1, 1500, &plain, 0);
  for (guint ms = 1; ms <= 200; ms++) {
    OctoTime t = ms * MS;
    if (ms == 100) {
      g_assert_cmpuint (octo_engine_bandwidth (h->engine, t), ==, 12000000);
      /* 10.8 Mbit/s, give or take one of stream 1's packets in the window */
      g_assert_cmpfloat (ABS ((gdouble) octo_engine_stream_share (h->engine,
                  0, 0, t) - 10.8e6), <, 0.4e6);
      g_assert_cmpuint (octo_engine_stream_share (h->engine, 0, 1, t), ==,
          6000000);
      harness_message (h, 0, 0, 500, 1, 1500, &ok, t);
      harness_message (h, 0, 0, 501, 1, 1500, &too_high, t);
    } else {
      harness_message (h, 0, 0, 1000 + ms, 1, 1500, &plain, t);
    }
    if (ms % 10 == 0)
      harness_message (h, 0, 1, ms, 1, 1500, &plain, t);
    harness_dequeue (h, 1, t);
  }
  log = harness_take_log (h);
  g_assert_nonnull (strstr (log, "+0/500"));
  g_assert_nonnull (strstr (log, "-0/501:bitrate"));
  g_assert_null (strstr (log, ":overflow"));
  g_free (log);
  harness_free (h);
}

static void
test_no_bitrate_drop_while_bandwidth_unknown (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags huge = { .priority = 1, .bitrate = 10000000000ull };

  /* fewer than 5 departures ever: unknown */
  harness_message (h, 0, 0, 1, 1, 1500, &huge, 0);
  harness_message (h, 0, 0, 2, 1, 1500, &huge, 0);
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  assert_log (h, "+0/1 +0/2");
  harness_free (h);
}

static void
test_drop_tail_mode_ignores_tags (void)
{
  OctoEngineConfig config;
  Harness *h;
  Tags d = dropper (0);

  octo_engine_config_init (&config);
  config.rules = FALSE;
  config.limit_bytes = 300;
  h = harness_new_full (&config);
  harness_message (h, 0, 0, 1, 1, 100, &low, 0);
  harness_message (h, 0, 0, 2, 1, 100, &d, 0);
  harness_message (h, 0, 0, 3, 2, 100, &low, 0);   /* only its tail drops */
  assert_log (h, "-0/3:overflow");
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  assert_log (h, "+0/1 +0/2 +0/3");
  harness_free (h);
}

/* Reordered packets of a message that already started sending never create
 * a second, droppable record for it. */
static void
test_reordered_packets_of_sent_message_are_never_dropped (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_packets (h, 0, 0, 11, 0, 1, 3, 100, &low, 0);
  harness_message (h, 0, 0, 10, 1, 100, &low, 0);        /* older, late */
  harness_packets (h, 0, 0, 11, 1, 1, 3, 100, &low, 0);
  harness_dequeue (h, 1, 1 * MS);
  harness_message (h, 0, 0, 12, 1, 100, &d, 2 * MS);
  harness_packets (h, 0, 0, 11, 2, 1, 3, 100, &low, 2 * MS);
  harness_dequeue (h, G_MAXUINT, 3 * MS);
  assert_log (h, "+0/11 -0/10:dropper +0/11 +0/12 +0/11");

  /* the last packet overtakes a middle one that then arrives alone */
  harness_packets (h, 0, 0, 20, 0, 1, 3, 100, &low, 4 * MS);
  harness_packets (h, 0, 0, 20, 2, 1, 3, 100, &low, 4 * MS);
  harness_dequeue (h, G_MAXUINT, 5 * MS);
  harness_message (h, 0, 0, 21, 1, 100, &d, 6 * MS);
  harness_packets (h, 0, 0, 20, 1, 1, 3, 100, &low, 6 * MS);
  harness_dequeue (h, G_MAXUINT, 7 * MS);
  assert_log (h, "+0/20 +0/20 +0/21 +0/20");
  harness_free (h);
}

/* With the stream table full, a stream that is waiting for the rest of a
 * started message is not forgotten; one silent for a second is. */
static void
test_stream_eviction_spares_recent_streams (void)
{
  OctoEngineConfig config;
  Harness *h;
  Tags d = dropper (0);

  octo_engine_config_init (&config);
  config.max_streams = 2;
  h = harness_new_full (&config);
  harness_packets (h, 0, 0, 10, 0, 1, 3, 100, &low, 0);   /* stream 0 */
  harness_dequeue (h, 1, 1 * MS);
  harness_message (h, 0, 1, 1, 1, 100, &low, 2 * MS);     /* stream 1 */
  harness_message (h, 0, 2, 1, 1, 100, &low, 2 * MS);     /* no room: FIFO */
  harness_packets (h, 0, 0, 10, 1, 1, 3, 100, &low, 3 * MS);
  harness_message (h, 0, 0, 11, 1, 100, &d, 3 * MS);
  harness_packets (h, 0, 0, 10, 2, 1, 3, 100, &low, 3 * MS);
  harness_dequeue (h, G_MAXUINT, 4 * MS);
  assert_log (h, "+0/10 +1/1 +2/1 +0/10 +0/11 +0/10");
  g_assert_cmpuint (octo_engine_get_stats (h->engine)->streams_overflowed, ==,
      1);

  /* a second later stream 1 (idle) makes room for stream 3 */
  harness_message (h, 0, 3, 1, 1, 100, &low, 2 * MS + OCTO_SECOND);
  harness_message (h, 0, 3, 2, 1, 100, &d, 2 * MS + OCTO_SECOND);
  harness_dequeue (h, G_MAXUINT, 3 * MS + OCTO_SECOND);
  assert_log (h, "-3/1:dropper +3/2");
  harness_free (h);
}

/* Overflow leaves discarded slots behind; the rate meter still sees exactly
 * when live packets are queued. */
static void
test_measured_rate_ignores_discarded_slots (void)
{
  Harness *h = harness_new (10000, OCTO_BW_MEASURED);

  harness_message (h, 0, 0, 1, 1, 100, &plain, 0);
  harness_message (h, 0, 0, 2, 100, 100, &plain, 0);    /* overflows */
  harness_dequeue (h, 1, 1 * MS);
  /* then an 800 kbit/s service of a backlog: 100 bytes per ms */
  for (guint i = 0; i < 60; i++)
    harness_message (h, 0, 0, 100 + i, 1, 100, &plain, 100 * MS);
  for (guint ms = 101; ms <= 150; ms++)
    harness_dequeue (h, 1, ms * MS);
  g_assert_cmpuint (octo_engine_bandwidth (h->engine, 150 * MS), ==, 800000);
  harness_dequeue (h, G_MAXUINT, 200 * MS);

  /* an overflow that empties the queue ends its busy time: 300 idle ms
   * later the rate is still the link's */
  harness_message (h, 0, 0, 300, 110, 100, &plain, 200 * MS);
  g_assert_cmpuint (octo_engine_queued_packets (h->engine), ==, 0);
  for (guint i = 0; i < 10; i++)
    harness_message (h, 0, 0, 400 + i, 1, 100, &plain, 500 * MS);
  for (guint ms = 501; ms <= 510; ms++)
    harness_dequeue (h, 1, ms * MS);
  g_assert_cmpuint (octo_engine_bandwidth (h->engine, 510 * MS), ==, 800000);
  g_free (harness_take_log (h));
  harness_free (h);
}

/* Packets that leave the instant they arrive: no measurable limit, so no
 * bitrate drops; a second without departures makes it unknown again. */
static void
test_bandwidth_unlimited_then_unknown (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags huge = { .priority = 1, .bitrate = 10000000000ull };

  for (guint i = 0; i < 6; i++) {
    harness_message (h, 0, 0, i, 1, 1000, &plain, i * MS);
    harness_dequeue (h, 1, i * MS);
  }
  g_assert_cmpuint (octo_engine_bandwidth (h->engine, 5 * MS), ==,
      OCTO_BW_UNLIMITED);
  harness_message (h, 0, 0, 6, 1, 1000, &huge, 6 * MS);
  harness_dequeue (h, 1, 6 * MS);
  g_assert_cmpuint (octo_engine_bandwidth (h->engine, 6 * MS + OCTO_SECOND + 1),
      ==, OCTO_BW_UNKNOWN);
  assert_log (h, "+0/0 +0/1 +0/2 +0/3 +0/4 +0/5 +0/6");
  harness_free (h);
}

/* Dequeues one packet at a time and expects each to be sent. */
static void
expect_sent_one_by_one (Harness *h, const gchar *sent, guint n, OctoTime now)
{
  for (guint i = 0; i < n; i++) {
    harness_dequeue (h, 1, now);
    assert_log (h, sent);
  }
}

/* A stream keeps the decisions on the 32 messages with nothing queued whose
 * records it made last: a late packet of a dropped message is discarded
 * while 31 made after it are kept, and is a new head once a 32nd pushed it
 * out. */
static void
test_idle_decisions_kept_for_the_last_32_messages (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);
  gchar *log;

  harness_packets (h, 0, 0, 1, 0, 1, 4, 100, &low, 0);
  harness_message (h, 0, 0, 2, 1, 100, &d, 0);
  for (guint32 id = 3; id <= 32; id++)
    harness_message (h, 0, 0, id, 1, 100, &low, 0);
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  log = harness_take_log (h);
  g_assert_true (g_str_has_prefix (log, "-0/1:dropper +0/2 +0/3 "));
  g_assert_true (g_str_has_suffix (log, " +0/32"));
  g_free (log);

  harness_packets (h, 0, 0, 1, 1, 1, 4, 100, &low, 2 * MS);
  assert_log (h, "-0/1:dropper");
  harness_message (h, 0, 0, 33, 1, 100, &low, 3 * MS);
  harness_dequeue (h, G_MAXUINT, 3 * MS);
  assert_log (h, "+0/33");
  harness_packets (h, 0, 0, 1, 2, 1, 4, 100, &low, 4 * MS);
  harness_dequeue (h, G_MAXUINT, 4 * MS);
  assert_log (h, "+0/1");
  harness_free (h);
}

/* A long message whose packets each leave before the next arrives goes idle
 * and takes its decision back once per packet: it keeps one decision, so
 * the dropped message before it is still remembered (rule 3). */
static void
test_message_sent_packet_by_packet_keeps_one_decision (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_packets (h, 0, 0, 1, 0, 1, 4, 100, &low, 0);
  harness_message (h, 0, 0, 2, 1, 100, &d, 0);
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  assert_log (h, "-0/1:dropper +0/2");
  for (guint k = 0; k < 40; k++) {
    harness_packets (h, 0, 0, 3, k, 1, 40, 100, &low, 2 * MS);
    expect_sent_one_by_one (h, "+0/3", 1, 2 * MS);
  }
  harness_packets (h, 0, 0, 1, 1, 1, 4, 100, &low, 10 * MS);
  assert_log (h, "-0/1:dropper");
  g_assert_cmpuint (octo_engine_queued_packets (h->engine), ==, 0);
  harness_free (h);
}

/* A partly sent message is never dropped (rule 4's exception), however many
 * packets of a newer message went idle one by one since. */
static void
test_partly_sent_message_outlives_a_long_newer_one (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_packets (h, 0, 0, 10, 0, 1, 3, 100, &low, 0);
  expect_sent_one_by_one (h, "+0/10", 1, 0);
  for (guint k = 0; k < 32; k++) {
    harness_packets (h, 0, 0, 11, k, 1, 32, 100, &low, 1 * MS);
    expect_sent_one_by_one (h, "+0/11", 1, 1 * MS);
  }
  harness_packets (h, 0, 0, 10, 1, 1, 3, 100, &low, 2 * MS);
  harness_message (h, 0, 0, 12, 1, 100, &d, 2 * MS);
  harness_dequeue (h, G_MAXUINT, 3 * MS);
  assert_log (h, "+0/10 +0/12");
  harness_free (h);
}

/* Decisions are forgotten in the order their records were made, not the
 * order messages went idle: a message that overflowed behind 40 queued ones
 * goes idle first, and still outlives them (rule 4: its later packets are
 * discarded). */
static void
test_overflowed_message_outlives_older_ones_draining (void)
{
  Harness *h = harness_new (4000, OCTO_BW_MEASURED);
  gchar *log;

  for (guint32 id = 1; id <= 40; id++)
    harness_message (h, 0, 0, id, 1, 100, &low, 0);
  harness_packets (h, 0, 0, 41, 0, 1, 3, 100, &low, 0);
  assert_log (h, "-0/41:overflow");
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  log = harness_take_log (h);
  g_assert_true (g_str_has_prefix (log, "+0/1 +0/2 "));
  g_assert_true (g_str_has_suffix (log, " +0/40"));
  g_free (log);
  harness_packets (h, 0, 0, 41, 1, 2, 3, 100, &low, 2 * MS);
  assert_log (h, "-0/41:overflow -0/41:overflow");
  harness_free (h);
}

/* Rule 5 across a sender restart: once the old stream's records have aged
 * out, the new message 1 is not discarded as the old 1 was, and the new
 * message 2 is judged afresh instead of inheriting the old 2's commitment. */
static void
test_restarted_sender_is_judged_afresh_after_record_age (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);
  OctoTime restart = 1 * MS + OCTO_ENGINE_RECORD_AGE;

  harness_message (h, 0, 0, 1, 1, 100, &low, 0);
  harness_message (h, 0, 0, 2, 1, 100, &d, 0);
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  assert_log (h, "-0/1:dropper +0/2");

  harness_message (h, 0, 0, 1, 1, 100, &low, restart);
  harness_dequeue (h, G_MAXUINT, restart + 1 * MS);
  assert_log (h, "+0/1");
  harness_message (h, 0, 0, 2, 1, 100, &low, restart + 2 * MS);
  harness_message (h, 0, 0, 3, 1, 100, &d, restart + 2 * MS);
  harness_dequeue (h, G_MAXUINT, restart + 3 * MS);
  assert_log (h, "-0/2:dropper +0/3");
  harness_free (h);
}

/* Rule 3 holds for the whole record age, counted from the message's last
 * packet (each discarded late packet restarts it); a packet arriving after
 * the age is a new head. */
static void
test_late_packet_within_record_age_is_still_discarded (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);
  OctoTime late = 1 * MS + OCTO_ENGINE_RECORD_AGE - 1;

  harness_packets (h, 0, 0, 1, 0, 1, 4, 100, &low, 0);
  harness_message (h, 0, 0, 2, 1, 100, &d, 0);
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  assert_log (h, "-0/1:dropper +0/2");
  harness_packets (h, 0, 0, 1, 1, 1, 4, 100, &low, late);
  harness_packets (h, 0, 0, 1, 2, 1, 4, 100, &low,
      late + OCTO_ENGINE_RECORD_AGE - 1);
  assert_log (h, "-0/1:dropper -0/1:dropper");
  g_assert_cmpuint (octo_engine_queued_packets (h->engine), ==, 0);

  harness_packets (h, 0, 0, 1, 3, 1, 4, 100, &low,
      late + 2 * OCTO_ENGINE_RECORD_AGE - 1);
  harness_dequeue (h, G_MAXUINT, late + 2 * OCTO_ENGINE_RECORD_AGE);
  assert_log (h, "+0/1");
  harness_free (h);
}

/* An epoch change forgets the stream's records at once; a message of the
 * old epoch still queued keeps its decision, and its late packets after the
 * change are new heads. */
static void
test_reset_stream_forgets_records_at_once (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  harness_message (h, 0, 0, 1, 1, 100, &low, 0);
  harness_message (h, 0, 0, 2, 1, 100, &d, 0);
  harness_packets (h, 0, 0, 7, 0, 1, 2, 100, &low, 0);
  harness_dequeue (h, 1, 1 * MS);
  assert_log (h, "-0/1:dropper +0/2");

  octo_engine_reset_stream (h->engine, 0, 0);
  harness_message (h, 0, 0, 1, 1, 100, &low, 2 * MS);
  harness_packets (h, 0, 0, 7, 1, 1, 2, 100, &low, 2 * MS);
  harness_dequeue (h, G_MAXUINT, 3 * MS);
  assert_log (h, "+0/7 +0/1 +0/7");
  harness_message (h, 0, 0, 2, 1, 100, &low, 4 * MS);
  harness_message (h, 0, 0, 3, 1, 100, &d, 4 * MS);
  harness_dequeue (h, G_MAXUINT, 5 * MS);
  assert_log (h, "-0/2:dropper +0/3");
  /* a stream the engine never saw: nothing to forget */
  octo_engine_reset_stream (h->engine, 9, 9);
  harness_free (h);
}

/* A restarted sender is known by its new connection id at once, through
 * any queue that sees the transport's fields: its first messages are judged
 * afresh (not as older than the old connection's dropper, not by its
 * decided records), while the old connection's queued packets keep their
 * decisions; a late packet of the replaced connection is plain traffic and
 * cannot switch the stream back. */
static void
test_new_connection_id_is_a_restart_at_once (void)
{
  Harness *h = harness_new (100000, OCTO_BW_MEASURED);
  Tags d = dropper (0);

  h->connection = 0x1111;
  harness_message (h, 0, 0, 1, 1, 100, &low, 0);
  harness_message (h, 0, 0, 2, 1, 100, &low, 0);
  harness_message (h, 0, 0, 40, 1, 100, &d, 0);
  harness_dequeue (h, 1, 1 * MS);
  assert_log (h, "-0/1:dropper -0/2:dropper +0/40");

  /* restarted 1 ms later: ids from 1 again, under a new connection id */
  h->connection = 0x2222;
  harness_message (h, 0, 0, 1, 1, 100, &low, 2 * MS);
  harness_message (h, 0, 0, 2, 1, 100, &low, 2 * MS);
  harness_dequeue (h, G_MAXUINT, 3 * MS);
  assert_log (h, "+0/1 +0/2");

  /* a straggler of the old connection passes as plain traffic and leaves
   * the new connection's state alone */
  h->connection = 0x1111;
  harness_message (h, 0, 0, 41, 1, 100, &d, 4 * MS);
  h->connection = 0x2222;
  harness_message (h, 0, 0, 3, 1, 100, &low, 4 * MS);
  harness_dequeue (h, G_MAXUINT, 5 * MS);
  assert_log (h, "+0/41 +0/3");
  g_assert_cmpuint (octo_engine_get_stats (h->engine)->stale_connection_packets,
      ==, 1);
  harness_free (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rules/dropper-across-msg-id-wraparound",
      test_dropper_compares_ids_across_wraparound);
  g_test_add_func ("/rules/dropper-does-not-touch-other-stream-or-user",
      test_dropper_does_not_touch_other_stream_or_user);
  g_test_add_func ("/rules/dropper-acts-once-its-tail-is-queued",
      test_dropper_acts_only_once_its_tail_is_queued);
  g_test_add_func ("/rules/partly-sent-message-never-dropped",
      test_partly_sent_message_is_never_dropped);
  g_test_add_func ("/rules/slack-delays-droppability-exactly",
      test_slack_delays_droppability_by_exactly_its_value);
  g_test_add_func ("/rules/arrival-judged-once-the-queue-ahead-drained",
      test_arrival_judged_once_the_queue_ahead_drained);
  g_test_add_func ("/rules/overflow-discards-whole-messages",
      test_overflow_discards_whole_messages);
  g_test_add_func ("/rules/overflow-of-partly-sent-message",
      test_overflow_of_partly_sent_message_keeps_what_is_queued);
  g_test_add_func ("/rules/dropper-table-cleared-when-stream-empties",
      test_dropper_table_cleared_when_stream_empties);
  g_test_add_func ("/rules/same-stream-id-two-senders-isolated",
      test_same_stream_id_from_two_senders_never_interacts);
  g_test_add_func ("/rules/later-packets-of-dropped-message-discarded",
      test_later_packets_of_dropped_message_discarded_on_arrival);
  g_test_add_func ("/rules/untagged-packets-plain-fifo",
      test_untagged_packets_are_plain_fifo);
  g_test_add_func ("/rules/bitrate-uses-max-min-share-of-measured-rate",
      test_bitrate_rule_uses_max_min_share_of_measured_rate);
  g_test_add_func ("/rules/no-bitrate-drop-while-bandwidth-unknown",
      test_no_bitrate_drop_while_bandwidth_unknown);
  g_test_add_func ("/rules/drop-tail-mode-ignores-tags",
      test_drop_tail_mode_ignores_tags);
  g_test_add_func ("/rules/reordered-packets-of-sent-message",
      test_reordered_packets_of_sent_message_are_never_dropped);
  g_test_add_func ("/rules/stream-eviction-spares-recent-streams",
      test_stream_eviction_spares_recent_streams);
  g_test_add_func ("/rules/measured-rate-ignores-discarded-slots",
      test_measured_rate_ignores_discarded_slots);
  g_test_add_func ("/rules/bandwidth-unlimited-then-unknown",
      test_bandwidth_unlimited_then_unknown);
  g_test_add_func ("/rules/idle-decisions-kept-for-last-32-messages",
      test_idle_decisions_kept_for_the_last_32_messages);
  g_test_add_func ("/rules/message-sent-packet-by-packet-keeps-one-decision",
      test_message_sent_packet_by_packet_keeps_one_decision);
  g_test_add_func ("/rules/partly-sent-message-outlives-a-long-newer-one",
      test_partly_sent_message_outlives_a_long_newer_one);
  g_test_add_func ("/rules/overflowed-message-outlives-older-ones-draining",
      test_overflowed_message_outlives_older_ones_draining);
  g_test_add_func ("/rules/restarted-sender-judged-afresh-after-record-age",
      test_restarted_sender_is_judged_afresh_after_record_age);
  g_test_add_func ("/rules/late-packet-within-record-age-still-discarded",
      test_late_packet_within_record_age_is_still_discarded);
  g_test_add_func ("/rules/reset-stream-forgets-records-at-once",
      test_reset_stream_forgets_records_at_once);
  g_test_add_func ("/rules/new-connection-id-is-a-restart-at-once",
      test_new_connection_id_is_a_restart_at_once);
  return g_test_run ();
}
