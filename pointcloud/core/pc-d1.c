/* gst-octopus point clouds: D1 PSNR with nearest neighbours from a
 * balanced kd-tree (a uniform grid degrades badly when whole cells of one
 * cloud are missing from the other: queries far from every point). */
#include "pc-d1.h"

#include <math.h>

typedef struct {
  const OctoPcPoint *pts;
  guint *idx;                   /* the tree: node i of idx[lo..hi) is the
                                 * median idx[(lo + hi) / 2], split on the
                                 * axis of its depth */
} KdTree;

static float
coord (const KdTree *t, gsize i, guint axis)
{
  return t->pts[t->idx[i]].xyz[axis];
}

static void
swap (guint *idx, gsize i, gsize j)
{
  guint tmp = idx[i];
  idx[i] = idx[j];
  idx[j] = tmp;
}

/* Reorders idx[lo..hi) so that idx[k] holds the element a sort on @axis
 * would put there, smaller-or-equal ones before it, larger-or-equal after
 * (Hoare's selection, middle pivot). */
static void
select_kth (KdTree *t, gsize lo, gsize hi, gsize k, guint axis)
{
  while (hi - lo > 1) {
    float pivot = coord (t, lo + (hi - lo) / 2, axis);
    gsize i = lo, j = hi - 1;
    while (i <= j) {
      while (coord (t, i, axis) < pivot)
        i++;
      while (coord (t, j, axis) > pivot)
        j--;
      if (i <= j) {
        swap (t->idx, i, j);
        i++;
        if (j == 0)
          break;
        j--;
      }
    }
    if (k <= j)
      hi = j + 1;
    else if (k >= i)
      lo = i;
    else
      return;
  }
}

static void
build (KdTree *t, gsize lo, gsize hi, guint depth)
{
  gsize mid;

  if (hi - lo <= 1)
    return;
  mid = (lo + hi) / 2;
  select_kth (t, lo, hi, mid, depth % 3);
  build (t, lo, mid, depth + 1);
  build (t, mid + 1, hi, depth + 1);
}

static double
sq_dist (const float *p, const float *q)
{
  double dx = (double) p[0] - q[0], dy = (double) p[1] - q[1],
      dz = (double) p[2] - q[2];
  return dx * dx + dy * dy + dz * dz;
}

static void
search (const KdTree *t, gsize lo, gsize hi, guint depth, const float *p,
    double *best)
{
  while (hi > lo) {
    gsize mid = (lo + hi) / 2;
    const float *m = t->pts[t->idx[mid]].xyz;
    guint axis = depth % 3;
    double diff = (double) p[axis] - m[axis];

    *best = MIN (*best, sq_dist (p, m));
    depth++;
    /* the near side first; the far side only if the splitting plane is
     * nearer than the best so far */
    if (diff < 0) {
      search (t, lo, mid, depth, p, best);
      if (diff * diff >= *best)
        return;
      lo = mid + 1;
    } else {
      search (t, mid + 1, hi, depth, p, best);
      if (diff * diff >= *best)
        return;
      hi = mid;
    }
  }
}

double
octo_pc_d1_mse (const OctoPcPoint *a, gsize n_a, const OctoPcPoint *b,
    gsize n_b)
{
  KdTree t = { b, g_new (guint, MAX (n_b, 1u)) };
  double sum = 0.0;

  if (n_a == 0) {
    g_free (t.idx);
    return 0.0;
  }
  for (gsize i = 0; i < n_b; i++)
    t.idx[i] = (guint) i;
  build (&t, 0, n_b, 0);
  for (gsize i = 0; i < n_a; i++) {
    double best = INFINITY;
    search (&t, 0, n_b, 0, a[i].xyz, &best);
    sum += best;
  }
  g_free (t.idx);
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
