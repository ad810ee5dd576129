/* gst-octopus point clouds: a small C API over Draco (C++17).
 *
 * Each call codes one set of points (a density layer of a cell) on a
 * quantisation grid given by the caller, so that independently coded
 * layers of a frame share one grid and merge without seams. */
#pragma once

#include "pc-point.h"

G_BEGIN_DECLS

#define OCTO_PC_DRACO_ERROR (octo_pc_draco_error_quark ())
GQuark octo_pc_draco_error_quark (void);

/* Draco's two point-cloud codings. */
typedef enum {
  OCTO_PC_DRACO_SEQUENTIAL,
  OCTO_PC_DRACO_KD_TREE,
} OctoPcDracoMethod;

/* Upper bound on the points a decode accepts, so a hostile payload
 * cannot claim gigabytes. */
#define OCTO_PC_DRACO_MAX_POINTS (1u << 24)

typedef struct {
  OctoPcDracoMethod method;
  gint speed;                   /* 0 (smallest) .. 10 (fastest) */
  gint position_bits;           /* quantisation bits per axis, 1..30 */
  float origin[3];              /* the grid: origin and side length of */
  float range;                  /* the cube it spans (> 0) */
} OctoPcDracoParams;

/* Codes the points @pts[@index[i]] for i < @n (all of @pts in order if
 * @index is NULL) with positions on the grid of @params and colours
 * lossless.  Zero points code to an empty payload. */
GBytes *octo_pc_draco_encode (const OctoPcPoint *pts, const guint *index,
    gsize n, const OctoPcDracoParams *params, GError **error);

/* The decoder memory a payload of @len bytes may claim: a floor for small
 * layers plus a share per payload byte, so no payload of 64 KB may claim
 * more than 32 MiB, while a real layer (well over 2 bits per point) of any
 * size fits. */
#define OCTO_PC_DRACO_BUDGET_FLOOR (16u << 20)
#define OCTO_PC_DRACO_BUDGET_PER_BYTE 256u

/* Reads the Draco header of @data without decoding it and sets @cost to
 * the bytes a decode would allocate (points times the value bytes of all
 * attributes, with Draco's working copies).  FALSE with @error set if it
 * is not a point cloud of the bitstream version we write, claims more than
 * OCTO_PC_DRACO_MAX_POINTS points, or costs more than its size allows. */
gboolean octo_pc_draco_decode_cost (const guint8 *data, gsize len,
    guint64 *cost, GError **error);

/* Decodes @len bytes and appends the points to @out (an array of
 * OctoPcPoint); an empty payload is zero points.  Malformed input, a
 * payload octo_pc_draco_decode_cost refuses, a cloud without positions,
 * or more than OCTO_PC_DRACO_MAX_POINTS points return FALSE with @error
 * set and leave @out unchanged; Draco allocates nothing for a refused
 * payload. */
gboolean octo_pc_draco_decode (const guint8 *data, gsize len, GArray *out,
    GError **error);

/* The grid step for @params: positions decode within half of it. */
double octo_pc_draco_step (const OctoPcDracoParams *params);

G_END_DECLS
