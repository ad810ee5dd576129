/* gst-octopus point clouds: cells, density layers, viewport ranks. */
#include "pc-partition.h"

static guint
axis_bin (float v, float lo, float hi, guint bins)
{
  float f = hi > lo ? (v - lo) / (hi - lo) : 0.0f;
  guint b = (guint) (f * (float) bins);
  return MIN (b, bins - 1);
}

static gint
by_depth (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const float *rank_depth = user_data;
  guint ca = *(const guint *) a, cb = *(const guint *) b;
  if (rank_depth[ca] != rank_depth[cb])
    return rank_depth[ca] < rank_depth[cb] ? -1 : 1;
  return ca < cb ? -1 : ca > cb;
}

void
octo_pc_partition_cell_centre (const OctoPcPartition *part, guint cell,
    float centre[3])
{
  guint ix = cell % part->nx, iz = cell / part->nx;
  centre[0] = part->min[0] + (part->max[0] - part->min[0]) * (ix + 0.5f)
      / part->nx;
  centre[1] = 0.5f * (part->min[1] + part->max[1]);
  centre[2] = part->min[2] + (part->max[2] - part->min[2]) * (iz + 0.5f)
      / part->nz;
}

static void
rank_cells (OctoPcPartition *part, const OctoPcViewport *vp)
{
  guint n_cells = part->nx * part->nz;
  float *depth = g_new (float, n_cells);

  for (guint c = 0; c < n_cells; c++) {
    float centre[3];
    octo_pc_partition_cell_centre (part, c, centre);
    depth[c] = 0.0f;
    for (guint a = 0; a < 3; a++)
      depth[c] += (centre[a] - vp->position[a]) * vp->direction[a];
    part->cell_by_rank[c] = c;
  }
  g_qsort_with_data (part->cell_by_rank, (gint) n_cells, sizeof (guint),
      by_depth, depth);
  for (guint r = 0; r < n_cells; r++)
    part->rank_by_cell[part->cell_by_rank[r]] = r;
  g_free (depth);
}

OctoPcPartition *
octo_pc_partition_new (const OctoPcPoint *pts, gsize n, guint nx, guint nz,
    guint n_layers, const OctoPcViewport *viewport, guint32 seed)
{
  OctoPcPartition *part;
  guint n_cells;
  GArray **cell_idx;
  GRand *rand;

  g_return_val_if_fail (nx >= 1 && nx <= OCTO_PC_MAX_GRID, NULL);
  g_return_val_if_fail (nz >= 1 && nz <= OCTO_PC_MAX_GRID, NULL);
  g_return_val_if_fail (n_layers >= 1 && n_layers <= OCTO_PC_MAX_LAYERS,
      NULL);

  n_cells = nx * nz;
  part = g_new0 (OctoPcPartition, 1);
  part->nx = nx;
  part->nz = nz;
  part->n_layers = n_layers;
  octo_pc_bounds (pts, n, part->min, part->max);
  part->members = g_new (GArray *, n_cells * n_layers);
  part->cell_points = g_new0 (guint, n_cells);
  part->cell_by_rank = g_new (guint, n_cells);
  part->rank_by_cell = g_new (guint, n_cells);

  cell_idx = g_new (GArray *, n_cells);
  for (guint c = 0; c < n_cells; c++)
    cell_idx[c] = g_array_new (FALSE, FALSE, sizeof (guint));
  for (gsize i = 0; i < n; i++) {
    guint c = axis_bin (pts[i].xyz[0], part->min[0], part->max[0], nx)
        + nx * axis_bin (pts[i].xyz[2], part->min[2], part->max[2], nz);
    guint idx = (guint) i;
    g_array_append_val (cell_idx[c], idx);
  }

  rand = g_rand_new_with_seed (seed);
  for (guint c = 0; c < n_cells; c++) {
    GArray *a = cell_idx[c];
    guint *v = (guint *) a->data;
    part->cell_points[c] = a->len;
    /* Fisher-Yates, then deal round-robin: disjoint uniform subsets */
    for (guint i = a->len; i > 1; i--) {
      guint j = g_rand_int_range (rand, 0, (gint32) i);
      guint t = v[i - 1];
      v[i - 1] = v[j];
      v[j] = t;
    }
    for (guint l = 0; l < n_layers; l++)
      part->members[c * n_layers + l] = g_array_sized_new (FALSE, FALSE,
          sizeof (guint), a->len / n_layers + 1);
    for (guint i = 0; i < a->len; i++)
      g_array_append_val (part->members[c * n_layers + i % n_layers], v[i]);
    g_array_unref (a);
  }
  g_rand_free (rand);
  g_free (cell_idx);

  rank_cells (part, viewport);
  return part;
}

void
octo_pc_partition_free (OctoPcPartition *part)
{
  if (!part)
    return;
  for (guint i = 0; i < part->nx * part->nz * part->n_layers; i++)
    g_array_unref (part->members[i]);
  g_free (part->members);
  g_free (part->cell_points);
  g_free (part->cell_by_rank);
  g_free (part->rank_by_cell);
  g_free (part);
}

void
octo_pc_send_order (guint n_cells, guint n_layers, guint i, guint *rank,
    guint *layer)
{
  guint front = MIN (n_cells, (guint) OCTO_PC_FRONT_CELLS);
  guint group_start = 0, group_size = front;

  if (i >= front * n_layers) {
    i -= front * n_layers;
    group_start = front;
    group_size = n_cells - front;
  }
  *layer = i / group_size;
  *rank = group_start + i % group_size;
}

guint
octo_pc_send_index (guint n_cells, guint n_layers, guint rank, guint layer)
{
  guint front = MIN (n_cells, (guint) OCTO_PC_FRONT_CELLS);
  if (rank < front)
    return layer * front + rank;
  return front * n_layers + layer * (n_cells - front) + (rank - front);
}
