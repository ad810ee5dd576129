/* gst-octopus point clouds: one cloud made into a sequence for demos — a
 * rigid turn about the vertical (y) axis through the cloud's centre, and
 * optionally a colour from each point's height. */
#pragma once

#include "pc-point.h"

G_BEGIN_DECLS

typedef struct {
  double degrees_per_second;    /* turn rate about the y axis */
  gboolean colour_from_height;  /* blue (low) .. green .. red (high) */
} OctoPcAnimation;

/* Writes the @n points of @src as seen at time @t_s (seconds since the
 * first frame) into @dst. */
void octo_pc_animate (const OctoPcAnimation *anim, const OctoPcPoint *src,
    gsize n, double t_s, OctoPcPoint *dst);

G_END_DECLS
