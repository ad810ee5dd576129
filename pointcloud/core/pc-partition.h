/* gst-octopus point clouds: how a frame becomes messages — cells on the
 * ground plane, disjoint random density layers per cell, which cells are
 * in front for a viewport, and the send order of docs/design.md's volumetric
 * case. */
#pragma once

#include "pc-point.h"

G_BEGIN_DECLS

#define OCTO_PC_MAX_GRID 16
#define OCTO_PC_MAX_LAYERS 32
/* Cells with viewport rank below this are "front"; the volumetric preset
 * (octo_preset_volumetric) treats cell ids 0 and 1 as the front ones. */
#define OCTO_PC_FRONT_CELLS 2

typedef struct {
  float position[3];            /* camera position */
  float direction[3];           /* view direction (need not be unit) */
} OctoPcViewport;

typedef struct {
  guint nx, nz;                 /* grid over the x-z bounds of the frame */
  guint n_layers;
  float min[3], max[3];         /* the frame's bounds */
  /* by spatial cell (ix + nx * iz): the points of each layer, as indices
   * into the frame; layer l of cell c is members[c * n_layers + l] */
  GArray **members;
  guint *cell_points;           /* points per spatial cell */
  guint *cell_by_rank;          /* spatial cell of each viewport rank */
  guint *rank_by_cell;
} OctoPcPartition;

/* Splits @n points: each into the grid cell of its x-z position, then each
 * cell's points into @n_layers disjoint layers of sizes differing by at
 * most one, drawn at random with @seed (so any set of layers is a uniform
 * subsample).  Cells are ranked by the depth of their centre along the
 * viewport's direction, nearest first, ties by spatial index. */
OctoPcPartition *octo_pc_partition_new (const OctoPcPoint *pts, gsize n,
    guint nx, guint nz, guint n_layers, const OctoPcViewport *viewport,
    guint32 seed);
void octo_pc_partition_free (OctoPcPartition *part);

/* The centre of spatial cell @cell: its grid square's middle on the
 * ground plane, at the frame's middle height. */
void octo_pc_partition_cell_centre (const OctoPcPartition *part,
    guint cell, float centre[3]);

/* The @i-th message of a frame in send order (0 <= i < cells * layers):
 * the front ranks' layer 0 (rank 0 first), then their layers 1.. by
 * layer, then the same for the occluded ranks. */
void octo_pc_send_order (guint n_cells, guint n_layers, guint i,
    guint *rank, guint *layer);

/* The inverse: the send-order position of (@rank, @layer). */
guint octo_pc_send_index (guint n_cells, guint n_layers, guint rank,
    guint layer);

G_END_DECLS
