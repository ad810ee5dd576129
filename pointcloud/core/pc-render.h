/* gst-octopus point clouds: a small software splat renderer, to score what
 * a viewer would see (ViVo-style visual quality) with the project's SSIM
 * (octo-ssim.h) on the renders' luma. */
#pragma once

#include "pc-point.h"

G_BEGIN_DECLS

typedef struct {
  guint width, height;
  float eye[3];                 /* camera position */
  float target[3];              /* looked-at point; y is up */
  float fov_degrees;            /* vertical field of view */
  float splat_radius;           /* half the side of a point's square, in
                                 * world units */
} OctoPcCamera;

/* Renders @n points into @rgb (width * height * 3 bytes, black
 * background): perspective projection, each point a screen-aligned square
 * splat of its colour, nearest wins (z-buffer). */
void octo_pc_render (const OctoPcCamera *cam, const OctoPcPoint *pts,
    gsize n, guint8 *rgb);

/* A typical spacing of @n points on a surface spanning @extent: the splat
 * radius that closes the gaps at full density. */
float octo_pc_surface_spacing (float extent, gsize n);

G_END_DECLS
