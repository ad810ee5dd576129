#include "svc-decodability.h"

#include <string.h>

void
svc_decodability_init (SvcDecodability *d, guint n_temporal_layers)
{
  memset (d, 0, sizeof (*d));
  d->learn_temporal = n_temporal_layers == 0;
  d->n_temporal_layers = MAX (n_temporal_layers, 1u);
}

guint
svc_decodability_layers (const SvcDecodability *d, guint32 frame_id)
{
  guint slot = frame_id % SVC_DECODABILITY_HISTORY;

  if (!d->known[slot] || d->frame_id[slot] != frame_id)
    return 0;
  return d->layers[slot];
}

/* Serial-number order: ids wrap after 2^32 frames. */
static gboolean
id_newer (guint32 a, guint32 b)
{
  return (gint32) (a - b) > 0;
}

static void
start_frame (SvcDecodability *d, guint32 frame_id, gboolean keyframe,
    guint temporal_layer)
{
  guint slot = frame_id % SVC_DECODABILITY_HISTORY;
  SvcTemporalFrame pattern;

  d->have_frame = TRUE;
  d->newest_id = frame_id;
  d->known[slot] = TRUE;
  d->frame_id[slot] = frame_id;
  d->layers[slot] = 0;
  if (keyframe) {
    d->newest_consistent = TRUE;
    return;
  }
  if (!d->have_key) {
    d->newest_consistent = FALSE;
    return;
  }
  svc_temporal_frame (d->n_temporal_layers, frame_id - d->last_key_id,
      &pattern);
  d->newest_consistent = !pattern.keyframe
      && pattern.temporal_layer == temporal_layer;
  for (guint n = d->n_temporal_layers + 1;
      d->learn_temporal && !d->newest_consistent
      && n <= SVC_MAX_TEMPORAL_LAYERS; n++) {
    svc_temporal_frame (n, frame_id - d->last_key_id, &pattern);
    if (!pattern.keyframe && pattern.temporal_layer == temporal_layer) {
      d->n_temporal_layers = n;
      d->newest_consistent = TRUE;
    }
  }
}

gboolean
svc_decodability_add_layer (SvcDecodability *d, guint32 frame_id,
    gboolean keyframe, guint temporal_layer, guint spatial_layer)
{
  guint slot = frame_id % SVC_DECODABILITY_HISTORY;
  guint bit = 1u << MIN (spatial_layer, 7u);
  SvcTemporalFrame pattern;
  gboolean ok;

  if (!d->have_frame || id_newer (frame_id, d->newest_id))
    start_frame (d, frame_id, keyframe, temporal_layer);
  else if (frame_id != d->newest_id)
    return FALSE;

  /* layers 0..k-1 of this frame first */
  ok = d->newest_consistent && spatial_layer < 8
      && d->layers[slot] == bit - 1;
  if (ok && !keyframe) {
    svc_temporal_frame (d->n_temporal_layers, frame_id - d->last_key_id,
        &pattern);
    ok = (svc_decodability_layers (d, frame_id - pattern.ref_distance)
        & bit) != 0;
  }
  if (ok) {
    d->layers[slot] |= bit;
    if (keyframe && spatial_layer == 0) {
      d->have_key = TRUE;
      d->last_key_id = frame_id;
    }
  }
  return ok;
}
