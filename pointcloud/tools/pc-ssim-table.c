/* pc-ssim-table: builds the per-(density, distance) -> SSIM table of
 * pc-ssim-table.h (ViVo-style visual quality of density layers).
 *
 * For each of --views turns of the cloud about its vertical axis and each
 * distance (multiples of the cloud's largest extent, camera level with the
 * centre, looking at it), it renders the full cloud and the union of the
 * first k of --layers disjoint random layers (density k / layers) with
 * pc-render.c's splat renderer, and scores each against the full render
 * with the project's SSIM (octo-ssim.h) on BT.601 luma; the table holds the
 * mean over the views.
 *
 *   pc-ssim-table data/media/bun_zipper.ply > data/pointcloud/ssim-table.csv */
#include "pc-animate.h"
#include "pc-partition.h"
#include "pc-ply.h"
#include "pc-png.h"
#include "pc-render.h"
#include "octo-ssim.h"

#include <stdio.h>

static gint views = 8, layers = 5, size = 256;
static gdouble fov = 30.0, splat = 0.6;
static gchar *distances_arg = NULL, *png_dir = NULL;

static const GOptionEntry entries[] = {
  {"views", 'v', 0, G_OPTION_ARG_INT, &views,
      "Turns of the cloud averaged per entry (default 8)", "N"},
  {"layers", 'l', 0, G_OPTION_ARG_INT, &layers,
      "Density layers: densities 1/N .. N/N (default 5)", "N"},
  {"distances", 'd', 0, G_OPTION_ARG_STRING, &distances_arg,
      "Comma-separated distances in cloud extents (default "
      "1,1.5,2,3,4,6)", "LIST"},
  {"size", 's', 0, G_OPTION_ARG_INT, &size,
      "Image width and height in pixels (default 256)", "PX"},
  {"fov", 0, 0, G_OPTION_ARG_DOUBLE, &fov,
      "Vertical field of view in degrees (default 30)", "DEG"},
  {"splat", 0, 0, G_OPTION_ARG_DOUBLE, &splat,
      "Splat radius in full-density surface spacings (default 0.6)", "X"},
  {"png-dir", 0, 0, G_OPTION_ARG_FILENAME, &png_dir,
      "Also write the first view's renders here", "DIR"},
  G_OPTION_ENTRY_NULL
};

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("CLOUD.ply - SSIM table");
  GError *error = NULL;
  gchar *data, **dist_str;
  gsize len;
  GArray *cloud;
  guint n_dist;
  double *dist, *sum;
  float min[3], max[3], centre[3], extent = 0.0f;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc != 2
      || views < 1 || layers < 1 || layers > OCTO_PC_MAX_LAYERS || size < 16) {
    g_printerr ("pc-ssim-table: %s\n%s", error ? error->message :
        "need one PLY file and sane options",
        g_option_context_get_help (ctx, TRUE, NULL));
    return 2;
  }
  if (!g_file_get_contents (argv[1], &data, &len, &error)
      || !(cloud = octo_pc_ply_parse ((const guint8 *) data, len, &error))) {
    g_printerr ("pc-ssim-table: %s: %s\n", argv[1], error->message);
    return 1;
  }
  g_free (data);
  dist_str = g_strsplit (distances_arg ? distances_arg : "1,1.5,2,3,4,6",
      ",", -1);
  n_dist = g_strv_length (dist_str);
  dist = g_new (double, n_dist);
  for (guint i = 0; i < n_dist; i++)
    dist[i] = g_ascii_strtod (dist_str[i], NULL);
  g_strfreev (dist_str);
  sum = g_new0 (double, n_dist * layers);

  octo_pc_bounds ((OctoPcPoint *) cloud->data, cloud->len, min, max);
  for (guint a = 0; a < 3; a++) {
    centre[a] = 0.5f * (min[a] + max[a]);
    extent = MAX (extent, max[a] - min[a]);
  }

  for (gint v = 0; v < views; v++) {
    OctoPcAnimation turn = { 360.0 / views, TRUE };
    OctoPcPoint *pts = g_new (OctoPcPoint, cloud->len);
    OctoPcPoint *sub = g_new (OctoPcPoint, cloud->len);
    OctoPcViewport unused = { {0, 0, -1}, {0, 0, 1} };
    OctoPcPartition *part;
    guint8 *full = g_new (guint8, size * size * 3);
    guint8 *img = g_new (guint8, size * size * 3);
    guint8 *full_luma = g_new (guint8, size * size);
    guint8 *img_luma = g_new (guint8, size * size);

    octo_pc_animate (&turn, (OctoPcPoint *) cloud->data, cloud->len, v, pts);
    part = octo_pc_partition_new (pts, cloud->len, 1, 1, layers, &unused,
        (guint32) v);
    for (guint d = 0; d < n_dist; d++) {
      OctoPcCamera cam = { size, size,
        {centre[0], centre[1], centre[2] - (float) dist[d] * extent},
        {centre[0], centre[1], centre[2]}, (float) fov,
        (float) splat * octo_pc_surface_spacing (extent, cloud->len) };
      gsize n_sub = 0;
      octo_pc_render (&cam, pts, cloud->len, full);
      octo_ssim_luma_from_rgb (full, size, size, full_luma);
      for (gint k = 1; k <= layers; k++) {
        GArray *m = part->members[k - 1];
        for (guint i = 0; i < m->len; i++)
          sub[n_sub++] = pts[g_array_index (m, guint, i)];
        octo_pc_render (&cam, sub, n_sub, img);
        octo_ssim_luma_from_rgb (img, size, size, img_luma);
        sum[d * layers + k - 1] += octo_ssim (full_luma, size, img_luma,
            size, size, size);
        if (png_dir && v == 0) {
          gchar *name = g_strdup_printf ("%s/d%.1f-k%d.png", png_dir,
              dist[d], k);
          if (!pc_png_write (name, img, size, size, &error)) {
            g_printerr ("pc-ssim-table: %s\n", error->message);
            return 1;
          }
          g_free (name);
        }
      }
    }
    octo_pc_partition_free (part);
    g_free (full);
    g_free (img);
    g_free (full_luma);
    g_free (img_luma);
    g_free (pts);
    g_free (sub);
  }

  printf ("distance,density,ssim\n");
  for (guint d = 0; d < n_dist; d++)
    for (gint k = 1; k <= layers; k++)
      printf ("%g,%g,%.4f\n", dist[d], (double) k / layers,
          sum[d * layers + k - 1] / views);
  g_free (sum);
  g_free (dist);
  g_array_unref (cloud);
  g_option_context_free (ctx);
  return 0;
}
