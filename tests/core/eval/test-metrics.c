/* The metrics on hand-made frame logs with hand-computed results. */
#include "octo-metrics.h"

#include <math.h>
#include <string.h>

#define MS OCTO_MSECOND
#define NONE OCTO_TIME_NONE

static void
init_frames (OctoFrameRecord *frames, guint n, guint n_layers)
{
  memset (frames, 0, sizeof (OctoFrameRecord) * n);
  for (guint f = 0; f < n; f++) {
    frames[f].n_layers = n_layers;
    frames[f].ref = -1;
    for (guint k = 0; k < OCTO_METRICS_MAX_LAYERS; k++)
      frames[f].arrival[k] = NONE;
  }
}

static void
test_percentile_interpolates_linearly (void)
{
  gdouble s[] = { 4, 1, 3, 2 };

  g_assert_cmpfloat_with_epsilon (octo_percentile (s, 4, 50), 2.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (octo_percentile (s, 4, 99), 3.97, 1e-12);
  g_assert_cmpfloat_with_epsilon (octo_percentile (s, 4, 0), 1, 1e-12);
  g_assert_cmpfloat_with_epsilon (octo_percentile (s, 1, 99), 1, 1e-12);
  g_assert_true (isnan (octo_percentile (s, 0, 50)));
  g_assert_cmpfloat_with_epsilon (octo_ssim_from_db (10), 0.9, 1e-12);
}

static void
test_temporal_references_follow_the_framerate_preset (void)
{
  /* GoP 8: key, TL2, TL1, TL2, TL0, TL2, TL1, TL2, then an off-pattern key */
  const gboolean key[] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0 };
  const guint8 tl[] = { 0, 2, 1, 2, 0, 2, 1, 2, 0, 0, 2 };
  const gint32 want[] = { -1, 0, 0, 2, 0, 4, 4, 6, 4, -1, 9 };
  OctoFrameRecord frames[11];

  init_frames (frames, 11, 1);
  octo_metrics_temporal_refs (frames, 11, key, tl);
  for (guint i = 0; i < 11; i++)
    g_assert_cmpint (frames[i].ref, ==, want[i]);
}

/* key, TL2 (lost), TL1, TL2 captured 33 ms apart. */
static void
test_temporal_latency_aoi_and_sqi (void)
{
  const gboolean key[] = { 1, 0, 0, 0 };
  const guint8 tl[] = { 0, 2, 1, 2 };
  const OctoTime arrival[] = { 50 * MS, NONE, 90 * MS, 120 * MS };
  OctoFrameRecord frames[4];
  OctoFrameOutcome out[4];
  OctoMetricsSummary sum;
  gdouble mean;

  init_frames (frames, 4, 1);
  for (guint f = 0; f < 4; f++) {
    frames[f].capture = f * 33 * MS;
    frames[f].arrival[0] = arrival[f];
    frames[f].quality[0] = 0.9;
  }
  frames[3].capture = 100 * MS;
  octo_metrics_temporal_refs (frames, 4, key, tl);
  octo_metrics_compute (frames, 4, OCTO_DECODE_TEMPORAL, 150 * MS, out, &sum);

  g_assert_true (out[0].shown && !out[1].shown && out[2].shown && out[3].shown);
  g_assert_cmpuint (out[3].show_time, ==, 120 * MS);
  g_assert_cmpuint (sum.n_shown, ==, 3);
  /* latencies 50, 24, 20 ms */
  g_assert_cmpfloat_with_epsilon (sum.p50_latency_ms, 24, 1e-9);
  g_assert_cmpfloat_with_epsilon (sum.p99_latency_ms, 24 + 0.98 * 26, 1e-9);
  /* AoI samples: 90 - 0, 120 - 66, end 150 - 100 */
  g_assert_cmpfloat_with_epsilon (sum.median_aoi_ms, 54, 1e-9);
  g_assert_cmpfloat_with_epsilon (sum.p99_aoi_ms, 54 + 0.98 * 36, 1e-9);
  mean = (0.9 * 3 + 0.9 * exp (-0.033 / 1.0)) / 4;
  g_assert_cmpfloat_with_epsilon (sum.sqi_ssim[0], mean, 1e-12);
  mean = (0.9 * 3 + 0.9 * exp (-0.033 / 0.5)) / 4;
  g_assert_cmpfloat_with_epsilon (sum.sqi_ssim[1], mean, 1e-12);
  g_assert_cmpfloat (octo_metrics_taus[0], ==, 1.0);
}

static void
test_older_frame_decodable_after_a_newer_one_is_not_shown (void)
{
  const gboolean key[] = { 1, 1 };
  const guint8 tl[] = { 0, 0 };
  OctoFrameRecord frames[2];
  OctoFrameOutcome out[2];
  OctoMetricsSummary sum;

  init_frames (frames, 2, 1);
  frames[1].capture = 33 * MS;
  frames[0].arrival[0] = 100 * MS;
  frames[1].arrival[0] = 50 * MS;
  frames[0].quality[0] = frames[1].quality[0] = 0.8;
  octo_metrics_temporal_refs (frames, 2, key, tl);
  octo_metrics_compute (frames, 2, OCTO_DECODE_TEMPORAL, 100 * MS, out, &sum);
  g_assert_false (out[0].shown);
  g_assert_true (out[1].shown);
  /* frame 0 not shown and nothing shown before it: it scores 0 */
  g_assert_cmpfloat_with_epsilon (sum.sqi_ssim[0], 0.4, 1e-12);
}

/* Two frames of 3 layers; frame 0 starts the GoP. */
static void
test_layered_frames_shown_at_highest_decodable_layer (void)
{
  OctoFrameRecord frames[2];
  OctoFrameOutcome out[2];
  OctoMetricsSummary sum;

  init_frames (frames, 2, 3);
  frames[0].gop_start = TRUE;
  frames[1].capture = 33 * MS;
  for (guint f = 0; f < 2; f++) {
    frames[f].quality[0] = 0.80;
    frames[f].quality[1] = 0.85;
    frames[f].quality[2] = 0.90;
  }
  frames[0].arrival[0] = 10 * MS;
  frames[0].arrival[1] = 20 * MS;
  frames[1].arrival[0] = 40 * MS;
  frames[1].arrival[1] = 45 * MS;
  frames[1].arrival[2] = 50 * MS;       /* its reference (0/Q2) is missing */
  octo_metrics_compute (frames, 2, OCTO_DECODE_LAYERED, 60 * MS, out, &sum);
  g_assert_cmpuint (out[0].layers_used, ==, 0x3);
  g_assert_cmpuint (out[0].show_time, ==, 20 * MS);
  g_assert_cmpuint (out[1].layers_used, ==, 0x3);
  g_assert_cmpuint (out[1].show_time, ==, 45 * MS);
  g_assert_cmpfloat_with_epsilon (out[1].quality, 0.85, 1e-12);
  g_assert_cmpfloat_with_epsilon (sum.p50_latency_ms, 16, 1e-9);

  /* frame 0's Q1 arrives after frame 1 was shown: never handed to the
   * decoder, so frame 1's Q1 lacks its reference */
  frames[0].arrival[1] = 50 * MS;
  octo_metrics_compute (frames, 2, OCTO_DECODE_LAYERED, 60 * MS, out, &sum);
  g_assert_cmpuint (out[0].layers_used, ==, 0x1);
  g_assert_cmpuint (out[0].show_time, ==, 10 * MS);
  g_assert_cmpuint (out[1].layers_used, ==, 0x1);
  g_assert_cmpuint (out[1].show_time, ==, 40 * MS);

  /* frame 0 completing only after frame 1 was shown is never shown */
  frames[0].arrival[1] = 20 * MS;
  frames[0].arrival[0] = 42 * MS;       /* after frame 1's Q0 (40 ms) */
  frames[1].gop_start = TRUE;
  octo_metrics_compute (frames, 2, OCTO_DECODE_LAYERED, 60 * MS, out, &sum);
  g_assert_false (out[0].shown);
  g_assert_cmpuint (out[1].layers_used, ==, 0x7);

  /* a spatial sync of Q1 and Q2 in frame 1 (no GoP start) restarts them
   * from its own Q0: frame 0's missing Q2 is not needed */
  frames[0].arrival[0] = 10 * MS;
  frames[0].arrival[1] = 20 * MS;
  frames[1].gop_start = FALSE;
  octo_metrics_compute (frames, 2, OCTO_DECODE_LAYERED, 60 * MS, out, &sum);
  g_assert_cmpuint (out[1].layers_used, ==, 0x3);
  frames[1].layer_start = 0x6;
  octo_metrics_compute (frames, 2, OCTO_DECODE_LAYERED, 60 * MS, out, &sum);
  g_assert_cmpuint (out[1].layers_used, ==, 0x7);
  g_assert_cmpfloat_with_epsilon (out[1].quality, 0.90, 1e-12);
  frames[1].layer_start = 0;

  /* without a GoP start, frame 0 has no reference frame: nothing decodes */
  frames[0].gop_start = FALSE;
  frames[1].gop_start = FALSE;
  octo_metrics_compute (frames, 2, OCTO_DECODE_LAYERED, 60 * MS, out, &sum);
  g_assert_cmpuint (sum.n_shown, ==, 0);
  g_assert_true (isnan (sum.p99_latency_ms));
}

static void
test_independent_layers_sum_their_quality (void)
{
  OctoFrameRecord frames[2];
  OctoFrameOutcome out[2];
  OctoMetricsSummary sum;

  init_frames (frames, 2, 4);
  frames[1].capture = 50 * MS;
  for (guint f = 0; f < 2; f++)
    for (guint k = 0; k < 4; k++)
      frames[f].quality[k] = 0.25;
  frames[0].arrival[0] = 20 * MS;
  frames[0].arrival[2] = 30 * MS;
  frames[0].arrival[3] = 80 * MS;       /* after frame 1 was shown */
  frames[1].arrival[1] = 70 * MS;
  octo_metrics_compute (frames, 2, OCTO_DECODE_INDEPENDENT, 100 * MS, out,
      &sum);
  g_assert_cmpuint (out[0].layers_used, ==, 0x5);
  g_assert_cmpuint (out[0].show_time, ==, 30 * MS);
  g_assert_cmpfloat_with_epsilon (out[0].quality, 0.5, 1e-12);
  g_assert_cmpuint (out[1].layers_used, ==, 0x2);
  g_assert_cmpfloat_with_epsilon (sum.sqi_ssim[0], (0.5 + 0.25) / 2, 1e-12);
}

static void
test_utilisation_is_whole_message_bytes_over_capacity (void)
{
  g_assert_cmpfloat (octo_utilisation (750, 1000), ==, 0.75);
  /* no capacity offered (an outage): nothing to use */
  g_assert_cmpfloat (octo_utilisation (0, 0), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/metrics/percentile", test_percentile_interpolates_linearly);
  g_test_add_func ("/metrics/temporal-references",
      test_temporal_references_follow_the_framerate_preset);
  g_test_add_func ("/metrics/temporal-latency-aoi-sqi",
      test_temporal_latency_aoi_and_sqi);
  g_test_add_func ("/metrics/older-frame-after-newer-not-shown",
      test_older_frame_decodable_after_a_newer_one_is_not_shown);
  g_test_add_func ("/metrics/layered-highest-decodable-layer",
      test_layered_frames_shown_at_highest_decodable_layer);
  g_test_add_func ("/metrics/utilisation-is-whole-message-bytes-over-capacity",
      test_utilisation_is_whole_message_bytes_over_capacity);
  g_test_add_func ("/metrics/independent-layers",
      test_independent_layers_sum_their_quality);
  return g_test_run ();
}
