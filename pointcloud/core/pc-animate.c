/* gst-octopus point clouds: rigid motion and colour from height. */
#include "pc-animate.h"

#include <math.h>

static void
height_colour (float h, guint8 rgb[3])
{
  /* two linear ramps: blue -> green over the lower half, green -> red
   * over the upper half */
  float u = CLAMP (h, 0.0f, 1.0f) * 2.0f;
  if (u < 1.0f) {
    rgb[0] = 0;
    rgb[1] = (guint8) (255.0f * u + 0.5f);
    rgb[2] = (guint8) (255.0f * (1.0f - u) + 0.5f);
  } else {
    rgb[0] = (guint8) (255.0f * (u - 1.0f) + 0.5f);
    rgb[1] = (guint8) (255.0f * (2.0f - u) + 0.5f);
    rgb[2] = 0;
  }
}

void
octo_pc_animate (const OctoPcAnimation *anim, const OctoPcPoint *src,
    gsize n, double t_s, OctoPcPoint *dst)
{
  float min[3], max[3], c[3];
  double a = anim->degrees_per_second * t_s * G_PI / 180.0;
  float ca = (float) cos (a), sa = (float) sin (a);
  float height;

  if (n == 0)
    return;
  octo_pc_bounds (src, n, min, max);
  for (guint i = 0; i < 3; i++)
    c[i] = 0.5f * (min[i] + max[i]);
  height = max[1] - min[1];
  for (gsize i = 0; i < n; i++) {
    float dx = src[i].xyz[0] - c[0], dz = src[i].xyz[2] - c[2];
    dst[i] = src[i];
    dst[i].xyz[0] = c[0] + ca * dx + sa * dz;
    dst[i].xyz[2] = c[2] - sa * dx + ca * dz;
    if (anim->colour_from_height)
      height_colour (height > 0 ? (src[i].xyz[1] - min[1]) / height : 0.5f,
          dst[i].rgb);
  }
}
