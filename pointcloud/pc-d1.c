/* gst-octopus point clouds: D1 PSNR over a uniform grid of buckets. */
#include "pc-d1.h"

#include <math.h>

typedef struct {
  float min[3];
  float cell;
  gint dim[3];
  guint *start;                 /* bucket b holds order[start[b]..start[b+1]) */
  guint *order;
  const OctoPcPoint *pts;
} Grid;

static gint
coord (const Grid *g, float v, guint a)
{
  gint c = (gint) floorf ((v - g->min[a]) / g->cell);
  return CLAMP (c, 0, g->dim[a] - 1);
}

static void
grid_build (Grid *g, const OctoPcPoint *pts, gsize n)
{
  float max[3], extent = 0.0f;
  guint n_buckets;
  guint *fill;

  octo_pc_bounds (pts, n, g->min, max);
  for (guint a = 0; a < 3; a++)
    extent = MAX (extent, max[a] - g->min[a]);
  /* about two points per bucket over a surface-like cloud */
  g->cell = extent > 0 ? extent / (float) MAX (1.0, sqrt (n / 2.0)) : 1.0f;
  for (guint a = 0; a < 3; a++)
    g->dim[a] = MIN ((gint) ((max[a] - g->min[a]) / g->cell) + 1, 1024);
  n_buckets = g->dim[0] * g->dim[1] * g->dim[2];
  g->start = g_new0 (guint, n_buckets + 1);
  g->order = g_new (guint, n);
  g->pts = pts;
  for (gsize i = 0; i < n; i++) {
    guint b = coord (g, pts[i].xyz[0], 0) + g->dim[0] * (coord (g,
            pts[i].xyz[1], 1) + g->dim[1] * coord (g, pts[i].xyz[2], 2));
    g->start[b + 1]++;
  }
  for (guint b = 0; b < n_buckets; b++)
    g->start[b + 1] += g->start[b];
  fill = g_memdup2 (g->start, n_buckets * sizeof (guint));
  for (gsize i = 0; i < n; i++) {
    guint b = coord (g, pts[i].xyz[0], 0) + g->dim[0] * (coord (g,
            pts[i].xyz[1], 1) + g->dim[1] * coord (g, pts[i].xyz[2], 2));
    g->order[fill[b]++] = (guint) i;
  }
  g_free (fill);
}

static double
sq_dist (const float *p, const float *q)
{
  double dx = p[0] - q[0], dy = p[1] - q[1], dz = p[2] - q[2];
  return dx * dx + dy * dy + dz * dz;
}

/* Searches shells of buckets around @p until no nearer point can exist. */
static double
nearest (const Grid *g, const float *p)
{
  gint c[3];
  double best = INFINITY;
  gint max_r = MAX (g->dim[0], MAX (g->dim[1], g->dim[2]));

  for (guint a = 0; a < 3; a++)
    c[a] = coord (g, p[a], a);
  for (gint r = 0; r <= max_r; r++) {
    for (gint z = c[2] - r; z <= c[2] + r; z++) {
      if (z < 0 || z >= g->dim[2])
        continue;
      for (gint y = c[1] - r; y <= c[1] + r; y++) {
        if (y < 0 || y >= g->dim[1])
          continue;
        for (gint x = c[0] - r; x <= c[0] + r; x++) {
          guint b;
          if (x < 0 || x >= g->dim[0])
            continue;
          /* only the shell at distance r */
          if (ABS (x - c[0]) != r && ABS (y - c[1]) != r
              && ABS (z - c[2]) != r)
            continue;
          b = x + g->dim[0] * (y + g->dim[1] * z);
          for (guint k = g->start[b]; k < g->start[b + 1]; k++)
            best = MIN (best, sq_dist (p, g->pts[g->order[k]].xyz));
        }
      }
    }
    /* every point in a farther shell is at least r cells away (a query
     * clamped into the grid is treated as inside) */
    if (best <= (double) r * g->cell * (double) r * g->cell)
      break;
  }
  return best;
}

double
octo_pc_d1_mse (const OctoPcPoint *a, gsize n_a, const OctoPcPoint *b,
    gsize n_b)
{
  Grid g;
  double sum = 0.0;

  if (n_a == 0)
    return 0.0;
  grid_build (&g, b, n_b);
  for (gsize i = 0; i < n_a; i++)
    sum += nearest (&g, a[i].xyz);
  g_free (g.start);
  g_free (g.order);
  return sum / (double) n_a;
}

double
octo_pc_d1_psnr (const OctoPcPoint *reference, gsize n_ref,
    const OctoPcPoint *received, gsize n_rec)
{
  float min[3], max[3];
  double peak2 = 0.0, mse;

  if (n_rec == 0 || n_ref == 0)
    return 0.0;
  octo_pc_bounds (reference, n_ref, min, max);
  for (guint a = 0; a < 3; a++)
    peak2 += (double) (max[a] - min[a]) * (max[a] - min[a]);
  mse = MAX (octo_pc_d1_mse (reference, n_ref, received, n_rec),
      octo_pc_d1_mse (received, n_rec, reference, n_ref));
  return mse > 0.0 ? 10.0 * log10 (peak2 / mse) : INFINITY;
}
