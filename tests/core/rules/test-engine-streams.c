/* The engine's per-stream bookkeeping with many streams in one queue: shares
 * stay the max-min shares of rule 6 whether few or many streams are active,
 * and streams without arrivals in the rate window do not count. */
#include "engine-harness.h"
#include "octo-rate.h"

#define MS OCTO_MSECOND
#define N_ACTIVE 30

static const Tags plain = { 0 };

/* 125 bytes arriving within one 50 ms window: 20 kbit/s. */
#define PACKET_BYTES 125
#define PACKET_BPS 20000

/* More active streams than are recomputed per decision: the shares come from
 * the snapshot of their rates and equal the exact max-min shares; a window
 * later the snapshot follows new rates. */
static void
test_many_active_streams_get_exact_max_min_shares (void)
{
  Harness *h = harness_new (10000000, OCTO_BW_EXTERNAL);
  guint64 demands[N_ACTIVE];

  octo_engine_set_bandwidth (h->engine, 2000000);
  for (guint k = 0; k < N_ACTIVE; k++) {
    /* stream k: k + 1 packets, (k + 1) * 20 kbit/s; 9.3 Mbit/s in all */
    harness_message (h, 0, k, 1, k + 1, PACKET_BYTES, &plain, 60 * MS);
    demands[k] = (k + 1) * PACKET_BPS;
  }
  for (guint k = 0; k < N_ACTIVE; k++)
    g_assert_cmpuint (octo_engine_stream_share (h->engine, 0, k, 100 * MS),
        ==, octo_fair_share_for (demands, N_ACTIVE, 2000000, k));

  /* one packet each in the next window: equal demands of 20 kbit/s */
  for (guint k = 0; k < N_ACTIVE; k++)
    harness_message (h, 0, k, 2, 1, PACKET_BYTES, &plain, 160 * MS);
  for (guint k = 0; k < N_ACTIVE; k++)
    g_assert_cmpuint (octo_engine_stream_share (h->engine, 0, k, 200 * MS),
        ==, 2000000 - (N_ACTIVE - 1) * PACKET_BPS);
  g_free (harness_take_log (h));
  harness_free (h);
}

/* A thousand streams that sent once, a second ago, do not take a share:
 * two active streams split the bandwidth as if they were alone. */
static void
test_idle_streams_take_no_share (void)
{
  Harness *h = harness_new (10000000, OCTO_BW_EXTERNAL);
  OctoTime now = 1 * OCTO_SECOND;

  octo_engine_set_bandwidth (h->engine, 1000000);
  for (guint k = 2; k < 1002; k++)
    harness_message (h, 0, k, 1, 1, PACKET_BYTES, &plain, 0);
  harness_dequeue (h, G_MAXUINT, 1 * MS);
  harness_message (h, 0, 0, 1, 10, PACKET_BYTES, &plain, now - 10 * MS);
  harness_message (h, 0, 1, 1, 5, PACKET_BYTES, &plain, now - 10 * MS);
  g_assert_cmpuint (octo_engine_stream_share (h->engine, 0, 0, now), ==,
      1000000 - 5 * PACKET_BPS);
  g_assert_cmpuint (octo_engine_stream_share (h->engine, 0, 1, now), ==,
      1000000 - 10 * PACKET_BPS);
  g_free (harness_take_log (h));
  harness_free (h);
}

/* The bisection over sorted demands gives water_level()'s answer, with and
 * without the claimant's own demand among them. */
static void
test_sorted_level_matches_water_filling (void)
{
  const guint64 sorted[] = { 1, 3, 3, 10, 40 };
  guint64 prefix[6] = { 0 };

  for (guint i = 0; i < 5; i++)
    prefix[i + 1] = prefix[i] + sorted[i];
  for (guint64 capacity = 0; capacity <= 80; capacity++) {
    for (guint skip = 0; skip <= 5; skip++) {
      guint64 others[5];
      guint n = 0;
      for (guint i = 0; i < 5; i++)
        if (i != skip)
          others[n++] = sorted[i];
      guint64 level = octo_fair_share_level (others, n, capacity);
      g_assert_cmpuint (octo_fair_share_level_sorted (sorted, prefix, 5, skip,
              capacity, NULL), ==, level);
      /* a search started anywhere finds the same level */
      for (guint hint = 0; hint <= 6; hint++) {
        guint rank = hint;
        g_assert_cmpuint (octo_fair_share_level_sorted (sorted, prefix, 5,
                skip, capacity, &rank), ==, level);
      }
    }
  }
}

/* Streams come and go through a full table (each round evicts the stream
 * silent for a round): every live stream keeps its one record, so droppers
 * keep acting within it and no stream is turned into plain FIFO traffic. */
static void
test_stream_table_survives_churn (void)
{
  OctoEngineConfig config;
  Harness *h;
  Tags low = { .priority = 3 };
  Tags d = { .drop = TRUE };

  octo_engine_config_init (&config);
  config.max_streams = 40;
  h = harness_new_full (&config);
  for (guint r = 0; r < 300; r++) {
    OctoTime now = r * (OCTO_SECOND + 100 * MS);
    guint first = r >= 31 ? r - 31 : 0;
    GString *expected = g_string_new (NULL);
    gchar *log;

    /* streams first..r: a low message, then every stream's dropper */
    for (guint k = first; k <= r; k++)
      harness_message (h, 0, k, 2 * r, 1, 100, &low, now);
    for (guint k = first; k <= r; k++)
      harness_message (h, 0, k, 2 * r + 1, 1, 100, &d, now);
    harness_dequeue (h, G_MAXUINT, now + 1 * MS);
    for (guint k = first; k <= r; k++)
      g_string_append_printf (expected, "%s-%u/%u:dropper",
          expected->len ? " " : "", k, 2 * r);
    for (guint k = first; k <= r; k++)
      g_string_append_printf (expected, " +%u/%u", k, 2 * r + 1);
    log = harness_take_log (h);
    g_assert_cmpstr (log, ==, expected->str);
    g_free (log);
    g_string_free (expected, TRUE);
  }
  g_assert_cmpuint (octo_engine_get_stats (h->engine)->streams_overflowed, ==,
      0);
  harness_free (h);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/streams/many-active-streams-exact-max-min-shares",
      test_many_active_streams_get_exact_max_min_shares);
  g_test_add_func ("/streams/idle-streams-take-no-share",
      test_idle_streams_take_no_share);
  g_test_add_func ("/streams/sorted-level-matches-water-filling",
      test_sorted_level_matches_water_filling);
  g_test_add_func ("/streams/stream-table-survives-churn",
      test_stream_table_survives_churn);
  return g_test_run ();
}
