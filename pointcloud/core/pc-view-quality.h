/* gst-octopus point clouds: the visual quality of a frame as docs/design.md's
 * live volumetric metric defines it (ViVo's per-(density, distance)
 * mapping, paper §6.3): each cell scores the SSIM table at its point
 * density (layers received / layers) and at its distance from the viewer;
 * the frame scores the mean over cells weighted by their share of the
 * frame's points.
 *
 * octo-metrics sums the quality of the messages a frame used, so a layer
 * message carries its cell's increment: layer l of cell c is worth
 * share(c) * (T((l+1)/L, d(c)) - T(l/L, d(c))).  The first k layers of a
 * cell then sum to exactly share(c) * T(k/L, d(c)); another set of k
 * layers (any k layers are the same density) sums to an approximation,
 * which octo_pc_view_frame_quality gives exactly. */
#pragma once

#include "pc-partition.h"
#include "pc-ssim-table.h"

G_BEGIN_DECLS

#define OCTO_PC_MAX_CELLS (OCTO_PC_MAX_GRID * OCTO_PC_MAX_GRID)

/* What the metric needs of a frame's cells, by spatial cell. */
typedef struct {
  guint n_cells, n_layers;
  double share[OCTO_PC_MAX_CELLS];      /* of the frame's points */
  double distance[OCTO_PC_MAX_CELLS];   /* viewer to the cell's centre, in
                                         * the frame's largest extents (the
                                         * table's unit) */
} OctoPcViewGeometry;

/* Fills @geom for the cells of @part seen from @viewport's position. */
void octo_pc_view_geometry (const OctoPcPartition *part,
    const OctoPcViewport *viewport, OctoPcViewGeometry *geom);

/* The quality a cell's layer @layer (0-based, of @n_layers) adds. */
double octo_pc_view_layer_quality (const OctoPcSsimTable *table,
    double share, double distance, guint layer, guint n_layers);

/* The frame's quality with @layers[c] layers of each spatial cell c. */
double octo_pc_view_frame_quality (const OctoPcSsimTable *table,
    const OctoPcViewGeometry *geom, const guint *layers);

G_END_DECLS
