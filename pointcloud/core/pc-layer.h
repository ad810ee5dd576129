/* gst-octopus point clouds: one density layer of one cell as a message,
 * and the receiver's merge of whatever layers of a frame arrived.
 *
 * Message = an 18-byte header, big-endian —
 *   0  'O' 'P'   magic
 *   2  version   1
 *   3  nx, nz    the frame's cell grid
 *   5  cell      spatial cell (ix + nx * iz)
 *   6  rank      the cell's viewport rank (0, 1 = front)
 *   7  layer, n_layers
 *   9  reserved  0
 *  10  frame id  u32
 *  14  points    u32, the cell's points over all layers
 * — then the layer's Draco payload (empty for an empty layer). */
#pragma once

#include "pc-point.h"

G_BEGIN_DECLS

#define OCTO_PC_LAYER_HEADER_LEN 18
#define OCTO_PC_LAYER_VERSION 1

#define OCTO_PC_LAYER_ERROR (octo_pc_layer_error_quark ())
GQuark octo_pc_layer_error_quark (void);

typedef struct {
  guint8 nx, nz;
  guint8 cell;
  guint8 rank;
  guint8 layer;
  guint8 n_layers;
  guint32 frame_id;
  guint32 cell_points;
} OctoPcLayerHeader;

void octo_pc_layer_header_pack (const OctoPcLayerHeader *h,
    guint8 out[OCTO_PC_LAYER_HEADER_LEN]);

/* FALSE with @error for a short message, wrong magic or version, or ids
 * out of range. */
gboolean octo_pc_layer_header_parse (const guint8 *data, gsize len,
    OctoPcLayerHeader *h, GError **error);

/* A frame as merged so far. */
typedef struct {
  guint32 frame_id;
  guint nx, nz, n_layers;
  GArray *points;               /* OctoPcPoint */
  guint32 *layer_mask;          /* by spatial cell: bit l = layer l arrived */
  guint32 *cell_points;         /* by spatial cell: the sender's count */
} OctoPcMergedFrame;

void octo_pc_merged_frame_free (OctoPcMergedFrame *frame);

/* Layers that arrived for @cell of @frame. */
guint octo_pc_merged_frame_layers (const OctoPcMergedFrame *frame,
    guint cell);

typedef enum {
  OCTO_PC_MERGE_ADDED,          /* the layer's points are in the frame */
  OCTO_PC_MERGE_LATE,           /* of a frame older than the current one */
  OCTO_PC_MERGE_DUPLICATE,      /* this (cell, layer) already arrived */
  OCTO_PC_MERGE_MALFORMED,      /* bad header or Draco payload; @error */
} OctoPcMergeResult;

typedef struct _OctoPcMerger OctoPcMerger;

OctoPcMerger *octo_pc_merger_new (void);
void octo_pc_merger_free (OctoPcMerger *merger);

/* Adds one layer message.  A message of a newer frame first completes the
 * current frame, handed back in @completed (else NULL; free it with
 * octo_pc_merged_frame_free). */
OctoPcMergeResult octo_pc_merger_push (OctoPcMerger *merger,
    const guint8 *msg, gsize len, OctoPcMergedFrame **completed,
    GError **error);

/* Completes the current frame, or NULL if none. */
OctoPcMergedFrame *octo_pc_merger_flush (OctoPcMerger *merger);

G_END_DECLS
