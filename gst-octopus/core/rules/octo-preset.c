#include "octo-preset.h"

static void
set_rules (OctoHeader *header, guint8 priority, gboolean drop,
    guint8 priority_threshold, guint64 link_bitrate_threshold_bps)
{
  header->priority = priority;
  header->drop = drop;
  header->priority_threshold = priority_threshold;
  header->link_bitrate_threshold_bps = link_bitrate_threshold_bps;
}

void
octo_preset_framerate (gboolean keyframe, guint temporal_layer,
    OctoHeader *header)
{
  if (keyframe)
    set_rules (header, 0, TRUE, 0, 0);
  else if (temporal_layer == 0)
    set_rules (header, 1, TRUE, 2, 0);
  else if (temporal_layer == 1)
    set_rules (header, 2, TRUE, 2, 0);
  else
    set_rules (header, 3, TRUE, 3, 0);
}

void
octo_preset_quality (guint layer, gboolean gop_start,
    guint64 cumulative_link_bps, OctoHeader *header)
{
  guint priority = MIN (layer, 7u);

  /* a layer's key frame supersedes that layer's (and higher) older
   * messages still queued: nothing later references them */
  set_rules (header, priority, gop_start, priority,
      layer > 0 ? cumulative_link_bps : 0);
  header->slack_ms = OCTO_PRESET_QUALITY_SLACK_MS;
}

/* Cell 0's L0 is the frame's dropper, its threshold cycling 3, 2, 1, 0. */
static void
set_volumetric_rules (OctoHeader *header, guint cell, guint layer,
    guint64 frame, guint8 priority)
{
  gboolean dropper = cell == 0 && layer == 0;

  set_rules (header, priority, dropper, dropper ? 3 - frame % 4 : 0, 0);
}

void
octo_preset_volumetric (guint cell, gboolean front, guint layer,
    guint64 frame, OctoHeader *header)
{
  set_volumetric_rules (header, cell, layer, frame,
      !front ? 3 : layer == 0 ? 0 : layer <= 2 ? 1 : 2);
}

void
octo_preset_volumetric_trace (guint cell, guint layer, guint64 frame,
    OctoHeader *header)
{
  set_volumetric_rules (header, cell, layer, frame,
      layer == 0 ? 0 : layer <= 4 ? 1 : layer == 5 ? 2 : 3);
}

guint64
octo_preset_link_rate (guint64 media_bps, guint payload, guint overhead)
{
  if (payload == 0)
    return media_bps;
  return (guint64) ((gdouble) media_bps * (payload + overhead) / payload + 0.5);
}
