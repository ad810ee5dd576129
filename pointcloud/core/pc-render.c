/* gst-octopus point clouds: splat rendering. */
#include "pc-render.h"

#include <math.h>
#include <string.h>

static void
normalise (float v[3])
{
  float l = sqrtf (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (l > 0)
    for (guint a = 0; a < 3; a++)
      v[a] /= l;
}

static void
cross (const float a[3], const float b[3], float out[3])
{
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
}

void
octo_pc_render (const OctoPcCamera *cam, const OctoPcPoint *pts, gsize n,
    guint8 *rgb)
{
  const float world_up[3] = { 0, 1, 0 };
  float fwd[3], right[3], up[3];
  float focal = 0.5f * cam->height / tanf (cam->fov_degrees * (float) G_PI
      / 360.0f);
  float *depth = g_new (float, cam->width * cam->height);

  for (guint a = 0; a < 3; a++)
    fwd[a] = cam->target[a] - cam->eye[a];
  normalise (fwd);
  cross (fwd, world_up, right);
  normalise (right);
  cross (right, fwd, up);
  memset (rgb, 0, (gsize) cam->width * cam->height * 3);
  for (guint i = 0; i < cam->width * cam->height; i++)
    depth[i] = INFINITY;

  for (gsize i = 0; i < n; i++) {
    float d[3], x = 0, y = 0, z = 0, u, v, r;
    gint u0, u1, v0, v1;
    for (guint a = 0; a < 3; a++) {
      d[a] = pts[i].xyz[a] - cam->eye[a];
      x += d[a] * right[a];
      y += d[a] * up[a];
      z += d[a] * fwd[a];
    }
    if (z <= 1e-6f)
      continue;
    u = 0.5f * cam->width + focal * x / z;
    v = 0.5f * cam->height - focal * y / z;
    r = MAX (focal * cam->splat_radius / z, 0.5f);
    u0 = MAX ((gint) floorf (u - r + 0.5f), 0);
    u1 = MIN ((gint) floorf (u + r - 0.5f), (gint) cam->width - 1);
    v0 = MAX ((gint) floorf (v - r + 0.5f), 0);
    v1 = MIN ((gint) floorf (v + r - 0.5f), (gint) cam->height - 1);
    for (gint py = v0; py <= v1; py++)
      for (gint px = u0; px <= u1; px++) {
        guint k = py * cam->width + px;
        if (z < depth[k]) {
          depth[k] = z;
          memcpy (rgb + 3 * k, pts[i].rgb, 3);
        }
      }
  }
  g_free (depth);
}

float
octo_pc_surface_spacing (float extent, gsize n)
{
  return n ? extent / sqrtf ((float) n) : extent;
}
