/* gst-octopus point clouds: a frame's visual quality from the SSIM table. */
#include "pc-view-quality.h"

#include <math.h>

void
octo_pc_view_geometry (const OctoPcPartition *part,
    const OctoPcViewport *viewport, OctoPcViewGeometry *geom)
{
  guint n_cells = part->nx * part->nz;
  double total = 0.0, extent = 0.0;

  g_return_if_fail (n_cells <= OCTO_PC_MAX_CELLS);
  geom->n_cells = n_cells;
  geom->n_layers = part->n_layers;
  for (guint a = 0; a < 3; a++)
    extent = MAX (extent, (double) part->max[a] - part->min[a]);
  /* a single point still has a size for the table's unit */
  if (extent <= 0.0)
    extent = 1.0;
  for (guint c = 0; c < n_cells; c++)
    total += part->cell_points[c];
  for (guint c = 0; c < n_cells; c++) {
    float centre[3];
    double d2 = 0.0;
    octo_pc_partition_cell_centre (part, c, centre);
    for (guint a = 0; a < 3; a++)
      d2 += ((double) centre[a] - viewport->position[a])
          * ((double) centre[a] - viewport->position[a]);
    geom->distance[c] = sqrt (d2) / extent;
    geom->share[c] = total > 0 ? part->cell_points[c] / total : 0.0;
  }
}

double
octo_pc_view_layer_quality (const OctoPcSsimTable *table, double share,
    double distance, guint layer, guint n_layers)
{
  g_return_val_if_fail (layer < n_layers, 0.0);
  return share * (octo_pc_ssim_table_lookup (table,
          (double) (layer + 1) / n_layers, distance)
      - octo_pc_ssim_table_lookup (table, (double) layer / n_layers,
          distance));
}

double
octo_pc_view_frame_quality (const OctoPcSsimTable *table,
    const OctoPcViewGeometry *geom, const guint *layers)
{
  double q = 0.0;

  for (guint c = 0; c < geom->n_cells; c++)
    q += geom->share[c] * octo_pc_ssim_table_lookup (table,
        (double) MIN (layers[c], geom->n_layers) / geom->n_layers,
        geom->distance[c]);
  return q;
}
