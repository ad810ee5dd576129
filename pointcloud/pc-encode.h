/* gst-octopus point clouds: one frame into its layer messages, in send
 * order (the encoder element's whole job, without GStreamer). */
#pragma once

#include "pc-draco.h"
#include "pc-partition.h"
#include "pc-view-quality.h"
#include "pc-workers.h"

G_BEGIN_DECLS

typedef struct {
  guint nx, nz;                 /* cells on the ground plane */
  guint n_layers;               /* density layers per cell */
  OctoPcDracoMethod method;
  gint speed;
  gint position_bits;
  guint32 seed;                 /* layer draws: seed ^ frame id */
} OctoPcEncodeConfig;

typedef struct {
  GBytes *message;              /* pc-layer.h header + Draco payload */
  guint cell, rank, layer;
  guint points;                 /* in this layer */
  double cell_share;            /* the cell's share of the frame's points */
  double distance;              /* viewer to the cell, in frame extents */
} OctoPcLayerMessage;

/* Encodes @n points as frame @frame_id seen from @viewport: an array of
 * nx * nz * n_layers OctoPcLayerMessage in send order
 * (octo_pc_send_order); NULL with @error if Draco fails.  The shared grid
 * is the frame's bounding cube.  The layers are coded on @workers (NULL:
 * on the caller); the output is the same for any number of threads. */
GArray *octo_pc_encode_frame (const OctoPcPoint *pts, gsize n,
    const OctoPcEncodeConfig *config, const OctoPcViewport *viewport,
    guint32 frame_id, OctoPcWorkers *workers, GError **error);

/* Frees an array from octo_pc_encode_frame. */
void octo_pc_layer_messages_free (GArray *messages);

G_END_DECLS
