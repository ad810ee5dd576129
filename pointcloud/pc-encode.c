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

typedef struct {
  const OctoPcPoint *pts;
  const OctoPcPartition *part;
  const OctoPcDracoParams *params;
  guint n_cells, n_layers;
  GBytes **codes;               /* by send index */
  GError **errors;
} EncodeJobs;

static void
encode_layer (guint i, gpointer data)
{
  EncodeJobs *e = data;
  guint rank, layer;
  GArray *members;

  octo_pc_send_order (e->n_cells, e->n_layers, i, &rank, &layer);
  members = e->part->members[e->part->cell_by_rank[rank] * e->n_layers
      + layer];
  e->codes[i] = octo_pc_draco_encode (e->pts, (const guint *) members->data,
      members->len, e->params, &e->errors[i]);
}

GArray *
octo_pc_encode_frame (const OctoPcPoint *pts, gsize n,
    const OctoPcEncodeConfig *config, const OctoPcViewport *viewport,
    guint32 frame_id, OctoPcWorkers *workers, GError **error)
{
  OctoPcPartition *part = octo_pc_partition_new (pts, n, config->nx,
      config->nz, config->n_layers, viewport, config->seed ^ frame_id);
  guint n_cells = config->nx * config->nz;
  guint total = n_cells * config->n_layers;
  GArray *out = g_array_sized_new (FALSE, TRUE, sizeof (OctoPcLayerMessage),
      total);
  OctoPcDracoParams params;
  OctoPcViewGeometry *geom = g_new (OctoPcViewGeometry, 1);
  EncodeJobs jobs = { pts, part, &params, n_cells, config->n_layers,
    g_new0 (GBytes *, total), g_new0 (GError *, total) };

  grid_of (part, config, &params);
  octo_pc_view_geometry (part, viewport, geom);
  if (workers)
    octo_pc_workers_run (workers, total, encode_layer, &jobs);
  else
    for (guint i = 0; i < total; i++)
      encode_layer (i, &jobs);

  for (guint i = 0; i < total && out; i++) {
    OctoPcLayerMessage msg;
    guint rank, layer, cell;
    GByteArray *bytes;
    guint8 hdr[OCTO_PC_LAYER_HEADER_LEN];
    OctoPcLayerHeader h;

    if (!jobs.codes[i]) {
      g_propagate_error (error, jobs.errors[i]);
      jobs.errors[i] = NULL;
      octo_pc_layer_messages_free (out);
      out = NULL;
      break;
    }
    octo_pc_send_order (n_cells, config->n_layers, i, &rank, &layer);
    cell = part->cell_by_rank[rank];
    h = (OctoPcLayerHeader) { config->nx, config->nz, cell, rank, layer,
      config->n_layers, frame_id, part->cell_points[cell] };
    octo_pc_layer_header_pack (&h, hdr);
    bytes = g_byte_array_sized_new (sizeof (hdr) +
        g_bytes_get_size (jobs.codes[i]));
    g_byte_array_append (bytes, hdr, sizeof (hdr));
    g_byte_array_append (bytes, g_bytes_get_data (jobs.codes[i], NULL),
        g_bytes_get_size (jobs.codes[i]));
    msg = (OctoPcLayerMessage) { g_byte_array_free_to_bytes (bytes), cell,
      rank, layer, part->members[cell * config->n_layers + layer]->len,
      geom->share[cell], geom->distance[cell] };
    g_array_append_val (out, msg);
  }
  for (guint i = 0; i < total; i++) {
    if (jobs.codes[i])
      g_bytes_unref (jobs.codes[i]);
    g_clear_error (&jobs.errors[i]);
  }
  g_free (jobs.codes);
  g_free (jobs.errors);
  octo_pc_partition_free (part);
  g_free (geom);
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
