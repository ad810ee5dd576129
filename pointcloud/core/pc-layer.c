/* gst-octopus point clouds: layer messages and their merge. */
#include "pc-layer.h"

#include "pc-draco.h"
#include "pc-partition.h"

#include <string.h>

G_DEFINE_QUARK (octo-pc-layer-error-quark, octo_pc_layer_error)

static void
put_u32 (guint8 *p, guint32 v)
{
  p[0] = v >> 24;
  p[1] = v >> 16;
  p[2] = v >> 8;
  p[3] = v;
}

static guint32
get_u32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8
      | p[3];
}

void
octo_pc_layer_header_pack (const OctoPcLayerHeader *h,
    guint8 out[OCTO_PC_LAYER_HEADER_LEN])
{
  out[0] = 'O';
  out[1] = 'P';
  out[2] = OCTO_PC_LAYER_VERSION;
  out[3] = h->nx;
  out[4] = h->nz;
  out[5] = h->cell;
  out[6] = h->rank;
  out[7] = h->layer;
  out[8] = h->n_layers;
  out[9] = 0;
  put_u32 (out + 10, h->frame_id);
  put_u32 (out + 14, h->cell_points);
}

gboolean
octo_pc_layer_header_parse (const guint8 *data, gsize len,
    OctoPcLayerHeader *h, GError **error)
{
  guint n_cells;

  if (len < OCTO_PC_LAYER_HEADER_LEN) {
    g_set_error (error, OCTO_PC_LAYER_ERROR, 0, "layer message of %"
        G_GSIZE_FORMAT " bytes is shorter than its %u-byte header", len,
        OCTO_PC_LAYER_HEADER_LEN);
    return FALSE;
  }
  if (data[0] != 'O' || data[1] != 'P' || data[2] != OCTO_PC_LAYER_VERSION) {
    g_set_error (error, OCTO_PC_LAYER_ERROR, 0, "not a version-%u layer "
        "message (bytes %02x %02x %02x)", OCTO_PC_LAYER_VERSION, data[0],
        data[1], data[2]);
    return FALSE;
  }
  h->nx = data[3];
  h->nz = data[4];
  h->cell = data[5];
  h->rank = data[6];
  h->layer = data[7];
  h->n_layers = data[8];
  h->frame_id = get_u32 (data + 10);
  h->cell_points = get_u32 (data + 14);
  n_cells = h->nx * h->nz;
  if (h->nx < 1 || h->nx > OCTO_PC_MAX_GRID || h->nz < 1
      || h->nz > OCTO_PC_MAX_GRID || h->cell >= n_cells
      || h->rank >= n_cells || h->n_layers < 1
      || h->n_layers > OCTO_PC_MAX_LAYERS || h->layer >= h->n_layers) {
    g_set_error (error, OCTO_PC_LAYER_ERROR, 0, "layer header out of range "
        "(grid %ux%u, cell %u, rank %u, layer %u of %u)", h->nx, h->nz,
        h->cell, h->rank, h->layer, h->n_layers);
    return FALSE;
  }
  return TRUE;
}

void
octo_pc_merged_frame_free (OctoPcMergedFrame *frame)
{
  if (!frame)
    return;
  g_array_unref (frame->points);
  g_free (frame->layer_mask);
  g_free (frame->cell_points);
  g_free (frame);
}

guint
octo_pc_merged_frame_layers (const OctoPcMergedFrame *frame, guint cell)
{
  return (guint) __builtin_popcount (frame->layer_mask[cell]);
}

struct _OctoPcMerger {
  OctoPcMergedFrame *current;
  gboolean have_last;
  guint32 last_frame_id;        /* newest frame completed */
};

OctoPcMerger *
octo_pc_merger_new (void)
{
  return g_new0 (OctoPcMerger, 1);
}

void
octo_pc_merger_free (OctoPcMerger *merger)
{
  if (!merger)
    return;
  octo_pc_merged_frame_free (merger->current);
  g_free (merger);
}

/* RFC 1982 style: is @a newer than @b? */
static gboolean
newer (guint32 a, guint32 b)
{
  return (gint32) (a - b) > 0;
}

OctoPcMergedFrame *
octo_pc_merger_flush (OctoPcMerger *merger)
{
  OctoPcMergedFrame *f = merger->current;
  if (f) {
    merger->have_last = TRUE;
    merger->last_frame_id = f->frame_id;
  }
  merger->current = NULL;
  return f;
}

OctoPcMergeResult
octo_pc_merger_push (OctoPcMerger *merger, const guint8 *msg, gsize len,
    OctoPcMergedFrame **completed, GError **error)
{
  OctoPcLayerHeader h;
  OctoPcMergedFrame *f = merger->current;
  guint n_cells;
  GArray *points;

  *completed = NULL;
  if (!octo_pc_layer_header_parse (msg, len, &h, error))
    return OCTO_PC_MERGE_MALFORMED;
  if ((f && newer (f->frame_id, h.frame_id)) || (!f && merger->have_last
          && !newer (h.frame_id, merger->last_frame_id)))
    return OCTO_PC_MERGE_LATE;
  if (f && f->frame_id == h.frame_id && (f->nx != h.nx || f->nz != h.nz
          || f->n_layers != h.n_layers)) {
    g_set_error (error, OCTO_PC_LAYER_ERROR, 0, "frame %u: layer header "
        "grid %ux%u with %u layers contradicts earlier %ux%u with %u",
        h.frame_id, h.nx, h.nz, h.n_layers, f->nx, f->nz, f->n_layers);
    return OCTO_PC_MERGE_MALFORMED;
  }
  if (f && f->frame_id == h.frame_id
      && f->layer_mask[h.cell] & (1u << h.layer))
    return OCTO_PC_MERGE_DUPLICATE;

  /* Decode before touching the frame, so a bad payload changes nothing. */
  points = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
  if (!octo_pc_draco_decode (msg + OCTO_PC_LAYER_HEADER_LEN,
          len - OCTO_PC_LAYER_HEADER_LEN, points, error)) {
    g_array_unref (points);
    return OCTO_PC_MERGE_MALFORMED;
  }

  if (f && f->frame_id != h.frame_id)
    *completed = octo_pc_merger_flush (merger);
  f = merger->current;
  if (!f) {
    n_cells = h.nx * h.nz;
    f = merger->current = g_new0 (OctoPcMergedFrame, 1);
    f->frame_id = h.frame_id;
    f->nx = h.nx;
    f->nz = h.nz;
    f->n_layers = h.n_layers;
    f->points = g_array_new (FALSE, FALSE, sizeof (OctoPcPoint));
    f->layer_mask = g_new0 (guint32, n_cells);
    f->cell_points = g_new0 (guint32, n_cells);
  }
  f->layer_mask[h.cell] |= 1u << h.layer;
  f->cell_points[h.cell] = h.cell_points;
  g_array_append_vals (f->points, points->data, points->len);
  g_array_unref (points);
  return OCTO_PC_MERGE_ADDED;
}
