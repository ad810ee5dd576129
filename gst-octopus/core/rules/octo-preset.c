#include "octo-preset.h"

#include <string.h>

void
octo_preset_framerate (gboolean keyframe, guint temporal_layer,
    OctoTags *tags)
{
  memset (tags, 0, sizeof (*tags));
  tags->drop = TRUE;
  if (keyframe) {
    tags->priority = 0;
    tags->priority_threshold = 0;
  } else if (temporal_layer == 0) {
    tags->priority = 1;
    tags->priority_threshold = 2;
  } else if (temporal_layer == 1) {
    tags->priority = 2;
    tags->priority_threshold = 2;
  } else {
    tags->priority = 3;
    tags->priority_threshold = 3;
  }
}

void
octo_preset_quality (guint layer, gboolean gop_start,
    guint64 cumulative_link_bps, OctoTags *tags)
{
  memset (tags, 0, sizeof (*tags));
  tags->priority = MIN (layer, 7u);
  if (layer > 0)
    tags->bitrate_threshold = cumulative_link_bps;
  else if (gop_start)
    tags->drop = TRUE;
}

static void
cell0_dropper (guint cell, guint layer, guint64 frame, OctoTags *tags)
{
  if (cell == 0 && layer == 0) {
    tags->drop = TRUE;
    tags->priority_threshold = 3 - frame % 4;
  }
}

void
octo_preset_volumetric (guint cell, gboolean front, guint layer,
    guint64 frame, OctoTags *tags)
{
  memset (tags, 0, sizeof (*tags));
  if (!front)
    tags->priority = 3;
  else
    tags->priority = layer == 0 ? 0 : layer <= 2 ? 1 : 2;
  cell0_dropper (cell, layer, frame, tags);
}

void
octo_preset_volumetric_trace (guint cell, guint layer, guint64 frame,
    OctoTags *tags)
{
  memset (tags, 0, sizeof (*tags));
  tags->priority = layer == 0 ? 0 : layer <= 4 ? 1 : layer == 5 ? 2 : 3;
  cell0_dropper (cell, layer, frame, tags);
}

guint64
octo_preset_link_rate (guint64 media_bps, guint payload, guint overhead)
{
  if (payload == 0)
    return media_bps;
  return (guint64) ((gdouble) media_bps * (payload + overhead) / payload + 0.5);
}
