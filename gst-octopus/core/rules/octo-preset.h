/* gst-octopus core: docs/design.md's three case-study policies as tag functions,
 * shared by octopustag, the trace-replay source and the simulator. */
#pragma once

#include "octo-wire.h"

G_BEGIN_DECLS

/* Each preset sets the dropping-rule fields of @header (priority, drop,
 * priority_threshold, link_bitrate_threshold_bps; quality also slack_ms)
 * and leaves the others (stream, message id, first/last; slack for the
 * others) as they are. */

/* framerate (VP8, 3 temporal layers): key 0/0, TL0 1/2, TL1 2/2, TL2 3/3,
 * every frame a dropper.  From the key flag and layer id only, never from
 * the frame's position. */
void octo_preset_framerate (gboolean keyframe, guint temporal_layer,
    OctoHeader *header);

/* quality (spatial layers): Qk priority k (capped at 7), bitrate threshold
 * = the level's cumulative link rate up to Qk for k > 0; a key frame of its
 * layer (@gop_start: the GoP's first picture, or for k > 0 a spatial sync)
 * is a dropper with threshold k; slack OCTO_PRESET_QUALITY_SLACK_MS. */
void octo_preset_quality (guint layer, gboolean gop_start,
    guint64 cumulative_link_bps, OctoHeader *header);

/* The quality preset's slack: the bitrate rule compares a threshold with a
 * rate measured over 50 ms, which a cellular link's bursts swing below what
 * it carries; a message that waited under 10 ms did not make the queue
 * long, and dropping it wastes the link without cutting the delay
 * (docs/design.md §6 has the simulated sweep it was chosen from). */
#define OCTO_PRESET_QUALITY_SLACK_MS 10

/* volumetric, live pipeline (5 density layers per cell): front L0 0,
 * front L1-2 1, front L3-4 2, occluded 3; cell 0's L0 is the only dropper,
 * its threshold cycling 3, 2, 1, 0 with the frame number. */
void octo_preset_volumetric (guint cell, gboolean front, guint layer,
    guint64 frame, OctoHeader *header);

/* volumetric, dance.trace replay (10 layers, no viewport): L0 0, L1-4 1,
 * L5 2, L6-9 3, for every cell; cell 0's L0 the dropper as above. */
void octo_preset_volumetric_trace (guint cell, guint layer, guint64 frame,
    OctoHeader *header);

/* A media rate as a link rate: scaled by (payload + overhead) / payload
 * for packets of @payload bytes each carrying @overhead bytes of IP, UDP
 * and Octopus headers. */
guint64 octo_preset_link_rate (guint64 media_bps, guint payload,
    guint overhead);

G_END_DECLS
