/* Point-cloud quality code: D1 PSNR, the splat renderer and SSIM, the
 * (distance, density) -> SSIM table and the view quality built on it. */
#include "pc-d1.h"
#include "pc-render.h"
#include "pc-ssim-table.h"
#include "pc-view-quality.h"

#include <math.h>
#include <string.h>

static OctoPcPoint
point (float x, float y, float z, guint8 r, guint8 g, guint8 b)
{
  OctoPcPoint p = { {x, y, z}, {r, g, b}, 0 };
  return p;
}

static void
test_d1_identical_clouds_are_infinite (void)
{
  OctoPcPoint a[] = { point (0, 0, 0, 0, 0, 0), point (1, 0, 0, 0, 0, 0),
    point (0, 2, 1, 0, 0, 0) };
  double psnr = octo_pc_d1_psnr (a, 3, a, 3);

  g_assert_true (isinf (psnr) && psnr > 0);
  g_assert_cmpfloat (octo_pc_d1_mse (a, 3, a, 3), ==, 0.0);
}

static void
test_d1_known_shift_gives_known_psnr (void)
{
  /* peak^2 = the reference box's squared diagonal = 1; every point 0.1
   * away both ways: MSE 0.01, PSNR 20 dB */
  OctoPcPoint ref[] = { point (0, 0, 0, 0, 0, 0), point (1, 0, 0, 0, 0, 0) };
  OctoPcPoint shifted[] = { point (0, 0.1f, 0, 0, 0, 0),
    point (1, 0.1f, 0, 0, 0, 0) };
  OctoPcPoint half[] = { point (0, 0, 0, 0, 0, 0) };

  g_assert_cmpfloat_with_epsilon (octo_pc_d1_mse (ref, 2, shifted, 2), 0.01,
      1e-8);
  g_assert_cmpfloat_with_epsilon (octo_pc_d1_psnr (ref, 2, shifted, 2), 20.0,
      1e-5);
  /* symmetric: the missing point costs 1 in the reference's direction,
   * mean 0.5, though the received one is exact */
  g_assert_cmpfloat (octo_pc_d1_mse (half, 1, ref, 2), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (octo_pc_d1_psnr (ref, 2, half, 1),
      10.0 * log10 (2.0), 1e-9);
  g_assert_cmpfloat (octo_pc_d1_psnr (ref, 2, half, 0), ==, 0.0);
}

static void
test_d1_far_query_finds_the_true_nearest (void)
{
  /* a dense line and one point far from it (a cell the received cloud
   * lacks): the search must still end at the true nearest */
  GArray *line = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
  OctoPcPoint far = point (0.5f, 3.0f, 0, 0, 0, 0);

  for (guint i = 0; i <= 100; i++) {
    OctoPcPoint p = point (i / 100.0f, 0, 0, 0, 0, 0);
    g_array_append_val (line, p);
  }
  g_assert_cmpfloat_with_epsilon (octo_pc_d1_mse (&far, 1,
          (OctoPcPoint *) line->data, line->len), 9.0, 1e-5);
  g_array_unref (line);
}

static void
test_d1_matches_brute_force_on_random_clouds (void)
{
  GRand *rand = g_rand_new_with_seed (11);
  OctoPcPoint *a = g_new (OctoPcPoint, 600), *b = g_new (OctoPcPoint, 250);
  double brute = 0.0;

  for (guint i = 0; i < 600; i++)
    a[i] = point (g_rand_double (rand), g_rand_double (rand),
        g_rand_double (rand) * 0.1, 0, 0, 0);
  /* b lies in one corner of a's box, with repeated coordinates */
  for (guint i = 0; i < 250; i++)
    b[i] = point (g_rand_int_range (rand, 0, 8) / 20.0f,
        g_rand_double (rand) * 0.3, 0.05f, 0, 0, 0);
  for (guint i = 0; i < 600; i++) {
    double best = INFINITY;
    for (guint j = 0; j < 250; j++) {
      double d = 0.0;
      for (guint k = 0; k < 3; k++)
        d += ((double) a[i].xyz[k] - b[j].xyz[k])
            * ((double) a[i].xyz[k] - b[j].xyz[k]);
      best = MIN (best, d);
    }
    brute += best;
  }
  g_assert_cmpfloat_with_epsilon (octo_pc_d1_mse (a, 600, b, 250),
      brute / 600, 1e-12);
  g_free (a);
  g_free (b);
  g_rand_free (rand);
}

/* 16x16, 90° field of view: focal length 8 px; a point 1 in front of the
 * eye with splat radius 0.25 covers pixels 6..9 on both axes. */
static void
test_render_covers_known_pixels_nearest_wins (void)
{
  OctoPcCamera cam = { 16, 16, {0, 0, -1}, {0, 0, 0}, 90.0f, 0.25f };
  /* the farther point first: the z-buffer, not the order, decides */
  OctoPcPoint pts[] = { point (0, 0, 1, 0, 0, 255),
    point (0, 0, 0, 255, 0, 0) };
  guint8 rgb[16 * 16 * 3];
  guint covered = 0;

  octo_pc_render (&cam, pts, 2, rgb);
  for (guint y = 0; y < 16; y++)
    for (guint x = 0; x < 16; x++) {
      const guint8 *px = rgb + 3 * (y * 16 + x);
      gboolean inside = x >= 6 && x <= 9 && y >= 6 && y <= 9;
      if (px[0] || px[1] || px[2])
        covered++;
      g_assert_cmpuint (px[0], ==, inside ? 255 : 0);
      g_assert_cmpuint (px[2], ==, 0);
    }
  g_assert_cmpuint (covered, ==, 16);

  /* behind the eye: nothing */
  pts[0] = point (0, 0, -2, 255, 255, 255);
  octo_pc_render (&cam, pts, 1, rgb);
  for (guint i = 0; i < sizeof (rgb); i++)
    g_assert_cmpuint (rgb[i], ==, 0);
}

static const gchar *small_table =
    "distance,density,ssim\n"
    "1,0.5,0.4\n"
    "1,1,0.8\n"
    "3,0.5,0.6\n"
    "3,1,1.0\n";

static void
test_table_interpolates_and_clamps (void)
{
  GError *error = NULL;
  OctoPcSsimTable *t = octo_pc_ssim_table_parse (small_table, "t.csv",
      &error);

  g_assert_no_error (error);
  /* grid points */
  g_assert_cmpfloat_with_epsilon (octo_pc_ssim_table_lookup (t, 0.5, 1), 0.4,
      1e-12);
  g_assert_cmpfloat_with_epsilon (octo_pc_ssim_table_lookup (t, 1, 3), 1.0,
      1e-12);
  /* bilinear in between: at density 0.75, 0.6 at distance 1 and 0.8 at 3 */
  g_assert_cmpfloat_with_epsilon (octo_pc_ssim_table_lookup (t, 0.75, 2),
      0.7, 1e-12);
  /* below the smallest density: linear towards 0; none: 0 */
  g_assert_cmpfloat_with_epsilon (octo_pc_ssim_table_lookup (t, 0.25, 1),
      0.2, 1e-12);
  g_assert_cmpfloat (octo_pc_ssim_table_lookup (t, 0, 2), ==, 0.0);
  /* distances and densities beyond the table clamp */
  g_assert_cmpfloat_with_epsilon (octo_pc_ssim_table_lookup (t, 1, 0.5), 0.8,
      1e-12);
  g_assert_cmpfloat_with_epsilon (octo_pc_ssim_table_lookup (t, 1, 10), 1.0,
      1e-12);
  g_assert_cmpfloat_with_epsilon (octo_pc_ssim_table_lookup (t, 1.5, 1), 0.8,
      1e-12);
  octo_pc_ssim_table_free (t);
}

static void
test_table_errors_name_file_and_line (void)
{
  static const struct {
    const gchar *text, *message;
  } cases[] = {
    {"dist,dens,ssim\n1,1,1\n",
        "t.csv:1: expected the header 'distance,density,ssim'"},
    {"distance,density,ssim\n1,1,1\n2,1,x\n",
        "t.csv:3: expected distance > 0, 0 < density <= 1, -1 <= ssim <= 1"},
    {"distance,density,ssim\n1,1.5,1\n",
        "t.csv:2: expected distance > 0, 0 < density <= 1, -1 <= ssim <= 1"},
    {"distance,density,ssim\n1,0.5,0.4\n1,1,1\n2,1,1\n",
        "t.csv:0: 3 rows do not form a full grid of 2 distances x 2 "
          "densities"},
    {"distance,density,ssim\n1,0.5,0.4\n1,1,1\n2,1,1\n2,0.7,1\n",
        "t.csv:0: 4 rows do not form a full grid of 2 distances x 3 "
          "densities"},
    {"distance,density,ssim\n", "t.csv:0: 0 rows do not form a full grid "
          "of 0 distances x 0 densities"},
  };
  GError *error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    g_assert_null (octo_pc_ssim_table_parse (cases[i].text, "t.csv",
            &error));
    g_assert_error (error, OCTO_PC_SSIM_TABLE_ERROR, 0);
    g_assert_cmpstr (error->message, ==, cases[i].message);
    g_clear_error (&error);
  }
  g_assert_null (octo_pc_ssim_table_load ("/nonexistent/ssim.csv", &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_clear_error (&error);
}

static void
test_table_shipped_file_loads (void)
{
  const gchar *path = g_getenv ("OCTO_PC_SSIM_TABLE");
  GError *error = NULL;
  OctoPcSsimTable *t;

  if (!path) {
    g_test_skip ("OCTO_PC_SSIM_TABLE not set");
    return;
  }
  t = octo_pc_ssim_table_load (path, &error);
  g_assert_no_error (error);
  /* full density is the reference at every distance */
  for (double d = 1; d <= 6; d += 0.5)
    g_assert_cmpfloat_with_epsilon (octo_pc_ssim_table_lookup (t, 1, d),
        1.0, 1e-12);
  /* fewer points look worse, and better from farther away */
  g_assert_cmpfloat (octo_pc_ssim_table_lookup (t, 0.2, 1), <,
      octo_pc_ssim_table_lookup (t, 0.6, 1));
  g_assert_cmpfloat (octo_pc_ssim_table_lookup (t, 0.2, 1), <,
      octo_pc_ssim_table_lookup (t, 0.2, 4));
  octo_pc_ssim_table_free (t);
}

/* Two cells along x (2 x 1), 2 layers: cell 0 holds 3 of the 4 points;
 * the bounds are x 0..1, y 0..1, z 0, so the extent is 1 and the centres
 * (0.25, 0.5, 0) and (0.75, 0.5, 0); the viewer at (0.25, 0.5, -2). */
static void
test_view_quality_weights_cells_by_points_at_their_distance (void)
{
  OctoPcPoint pts[] = { point (0, 0, 0, 0, 0, 0), point (0, 1, 0, 0, 0, 0),
    point (0.2f, 0, 0, 0, 0, 0), point (1, 0, 0, 0, 0, 0) };
  OctoPcViewport vp = { {0.25f, 0.5f, -2}, {0, 0, 1} };
  OctoPcPartition *part = octo_pc_partition_new (pts, 4, 2, 1, 2, &vp, 7);
  OctoPcSsimTable *t = octo_pc_ssim_table_parse (small_table, "t", NULL);
  OctoPcViewGeometry geom;
  double d1 = sqrt (4.25);
  /* T(1, d1) between 0.8 at distance 1 and 1.0 at 3 */
  double t1 = 0.8 + 0.2 * (d1 - 1) / 2;
  guint all[] = { 2, 2 }, some[] = { 1, 2 }, none[] = { 0, 0 };
  double sum0 = 0, sum1 = 0;

  octo_pc_view_geometry (part, &vp, &geom);
  g_assert_cmpuint (geom.n_cells, ==, 2);
  g_assert_cmpfloat_with_epsilon (geom.share[0], 0.75, 1e-12);
  g_assert_cmpfloat_with_epsilon (geom.share[1], 0.25, 1e-12);
  g_assert_cmpfloat_with_epsilon (geom.distance[0], 2.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (geom.distance[1], d1, 1e-6);

  /* cell 0 at distance 2: T(0.5) = 0.5, T(1) = 0.9 */
  g_assert_cmpfloat_with_epsilon (octo_pc_view_frame_quality (t, &geom,
          some), 0.75 * 0.5 + 0.25 * t1, 1e-6);
  g_assert_cmpfloat_with_epsilon (octo_pc_view_frame_quality (t, &geom,
          all), 0.75 * 0.9 + 0.25 * t1, 1e-6);
  g_assert_cmpfloat (octo_pc_view_frame_quality (t, &geom, none), ==, 0.0);

  /* the increments of a cell's first k layers sum to its score */
  g_assert_cmpfloat_with_epsilon (octo_pc_view_layer_quality (t, 0.75, 2.0,
          0, 2), 0.75 * 0.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (octo_pc_view_layer_quality (t, 0.75, 2.0,
          1, 2), 0.75 * 0.4, 1e-12);
  for (guint l = 0; l < 2; l++) {
    sum0 += octo_pc_view_layer_quality (t, geom.share[0], geom.distance[0],
        l, 2);
    sum1 += octo_pc_view_layer_quality (t, geom.share[1], geom.distance[1],
        l, 2);
  }
  g_assert_cmpfloat_with_epsilon (sum0 + sum1,
      octo_pc_view_frame_quality (t, &geom, all), 1e-12);

  octo_pc_ssim_table_free (t);
  octo_pc_partition_free (part);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/pc/d1/identical-clouds-are-infinite",
      test_d1_identical_clouds_are_infinite);
  g_test_add_func ("/pc/d1/known-shift-gives-known-psnr",
      test_d1_known_shift_gives_known_psnr);
  g_test_add_func ("/pc/d1/far-query-finds-the-true-nearest",
      test_d1_far_query_finds_the_true_nearest);
  g_test_add_func ("/pc/d1/matches-brute-force-on-random-clouds",
      test_d1_matches_brute_force_on_random_clouds);
  g_test_add_func ("/pc/render/covers-known-pixels-nearest-wins",
      test_render_covers_known_pixels_nearest_wins);
  g_test_add_func ("/pc/table/interpolates-and-clamps",
      test_table_interpolates_and_clamps);
  g_test_add_func ("/pc/table/errors-name-file-and-line",
      test_table_errors_name_file_and_line);
  g_test_add_func ("/pc/table/shipped-file-loads",
      test_table_shipped_file_loads);
  g_test_add_func ("/pc/view/weights-cells-by-points-at-their-distance",
      test_view_quality_weights_cells_by_points_at_their_distance);
  return g_test_run ();
}
