/* The SSIM of gst-octopus/core/eval/octo-ssim.h on synthetic planes (its
 * agreement with scikit-image on real frames: test-ssim-skimage.py). */
#include <math.h>
#include <string.h>
#include <time.h>

#include "octo-ssim.h"

#define W 640
#define H 360

static void
fill_pattern (guint8 *p, gint stride, guint32 seed)
{
  GRand *rand = g_rand_new_with_seed (seed);

  for (guint y = 0; y < H; y++)
    for (guint x = 0; x < W; x++)
      p[y * stride + x] = (guint8) ((x * 3 + y * 2) / 4 + g_rand_int_range
          (rand, 0, 40));
  g_rand_free (rand);
}

static void
test_identical_planes_score_one (void)
{
  guint8 *a = g_malloc (W * H);

  fill_pattern (a, W, 1);
  g_assert_cmpfloat_with_epsilon (octo_ssim (a, W, a, W, W, H), 1.0, 1e-12);
  g_assert_true (isinf (octo_psnr (a, W, a, W, W, H)));
  g_free (a);
}

static void
test_strides_do_not_change_the_score (void)
{
  guint8 *a = g_malloc (W * H), *b = g_malloc (W * H);
  guint8 *wide = g_malloc0 ((W + 16) * H);
  gdouble packed;

  fill_pattern (a, W, 1);
  fill_pattern (b, W, 2);
  for (guint y = 0; y < H; y++)
    memcpy (wide + y * (W + 16), b + y * W, W);
  packed = octo_ssim (a, W, b, W, W, H);
  g_assert_cmpfloat (packed, <, 0.9);
  g_assert_cmpfloat (packed, ==, octo_ssim (a, W, wide, W + 16, W, H));
  g_assert_cmpfloat (octo_psnr (a, W, b, W, W, H), ==,
      octo_psnr (a, W, wide, W + 16, W, H));
  g_free (a);
  g_free (b);
  g_free (wide);
}

static void
test_too_small_has_no_ssim (void)
{
  guint8 p[10 * 20] = { 0 };

  g_assert_true (isnan (octo_ssim (p, 10, p, 10, 10, 20)));
  g_assert_false (isnan (octo_ssim (p, 11, p, 11, 11, 11)));
}

/* Not an assertion (times vary): the cost of live scoring, in the log, as
 * processor time (the wall time of a shared machine says little). */
static void
test_report_time_per_frame (void)
{
  guint8 *a = g_malloc (W * H), *b = g_malloc (W * H);
  clock_t start;
  const guint n = 100;
  gdouble sum = 0;

  fill_pattern (a, W, 1);
  fill_pattern (b, W, 2);
  start = clock ();
  for (guint i = 0; i < n; i++)
    sum += octo_ssim (a, W, b, W, W, H);
  g_test_message ("octo_ssim: %.2f ms of CPU per %ux%u frame (mean %.4f)",
      (gdouble) (clock () - start) * 1000 / CLOCKS_PER_SEC / n, W, H,
      sum / n);
  g_free (a);
  g_free (b);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ssim/identical-planes-score-one",
      test_identical_planes_score_one);
  g_test_add_func ("/ssim/strides-do-not-change-the-score",
      test_strides_do_not_change_the_score);
  g_test_add_func ("/ssim/too-small-has-no-ssim", test_too_small_has_no_ssim);
  g_test_add_func ("/ssim/report-time-per-frame", test_report_time_per_frame);
  return g_test_run ();
}
