/* gst-octopus point clouds: the frame layout shared by the source, the
 * encoder, the decoder and the quality code.
 *
 * A frame (caps OCTO_PC_CAPS) is a packed array of OctoPcPoint records:
 * x, y, z as float32 in host byte order (metres; y is up, so cells lie on
 * the x-z ground plane), then red, green, blue as u8 and one padding byte
 * (zero), 16 bytes per point.  The number of points is size / 16. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define OCTO_PC_MEDIA_TYPE "application/x-octopus-pointcloud"
#define OCTO_PC_CAPS OCTO_PC_MEDIA_TYPE ", format = (string) xyz32f-rgb8, " \
  "framerate = (fraction) [ 0/1, MAX ]"

typedef struct {
  float xyz[3];
  guint8 rgb[3];
  guint8 pad;
} OctoPcPoint;

G_STATIC_ASSERT (sizeof (OctoPcPoint) == 16);

/* Axis-aligned bounds of @n points (n > 0). */
void octo_pc_bounds (const OctoPcPoint *pts, gsize n, float min[3],
    float max[3]);

G_END_DECLS
