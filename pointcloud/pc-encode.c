/* gst-octopus point clouds: frame -> layer messages. */
#include "pc-encode.h"

#include "pc-layer.h"

static void
grid_of (const OctoPcPartition *part, const OctoPcEncodeConfig *config,
    OctoPcDracoParams *params)
{
  float range = 0.0f;
  params->method = config->method;
  params->speed = config->speed;
  params->position_bits = config->position_bits;
  for (guint a = 0; a < 3; a++) {
    params->origin[a] = part->min[a];
    range = MAX (range, part->max[a] - part->min[a]);
  }
  /* a single point (or a flat cloud) still needs a grid of some size */
  params->range = range > 0.0f ? range : 1.0f;
}

GArray *
octo_pc_encode_frame (const OctoPcPoint *pts, gsize n,
    const OctoPcEncodeConfig *config, const OctoPcViewport *viewport,
    guint32 frame_id, GError **error)
{
  OctoPcPartition *part = octo_pc_partition_new (pts, n, config->nx,
      config->nz, config->n_layers, viewport, config->seed ^ frame_id);
  guint n_cells = config->nx * config->nz;
  guint total = n_cells * config->n_layers;
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (OctoPcLayerMessage),
      total);
  OctoPcDracoParams params;

  grid_of (part, config, &params);
  for (guint i = 0; i < total; i++) {
    OctoPcLayerMessage msg;
    guint rank, layer, cell;
    GArray *members;
    GBytes *code;
    GByteArray *bytes;
    guint8 hdr[OCTO_PC_LAYER_HEADER_LEN];
    OctoPcLayerHeader h;

    octo_pc_send_order (n_cells, config->n_layers, i, &rank, &layer);
    cell = part->cell_by_rank[rank];
    members = part->members[cell * config->n_layers + layer];
    code = octo_pc_draco_encode (pts, (const guint *) members->data,
        members->len, &params, error);
    if (!code) {
      octo_pc_layer_messages_free (out);
      octo_pc_partition_free (part);
      return NULL;
    }
    h = (OctoPcLayerHeader) { config->nx, config->nz, cell, rank, layer,
      config->n_layers, frame_id, part->cell_points[cell] };
    octo_pc_layer_header_pack (&h, hdr);
    bytes = g_byte_array_sized_new (sizeof (hdr) + g_bytes_get_size (code));
    g_byte_array_append (bytes, hdr, sizeof (hdr));
    g_byte_array_append (bytes, g_bytes_get_data (code, NULL),
        g_bytes_get_size (code));
    g_bytes_unref (code);
    msg = (OctoPcLayerMessage) { g_byte_array_free_to_bytes (bytes), cell,
      rank, layer, members->len };
    g_array_append_val (out, msg);
  }
  octo_pc_partition_free (part);
  return out;
}

void
octo_pc_layer_messages_free (GArray *messages)
{
  if (!messages)
    return;
  for (guint i = 0; i < messages->len; i++)
    g_bytes_unref (g_array_index (messages, OctoPcLayerMessage, i).message);
  g_array_unref (messages);
}
