/* gst-octopus point clouds: splat rendering and SSIM. */
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

/* Separable Gaussian blur of @in (w x h) into @out, edges clamped. */
static void
blur (const double *in, double *out, guint w, guint h, double *tmp)
{
  static const gint R = 5;
  double k[11], sum = 0.0;
  for (gint i = -R; i <= R; i++)
    sum += k[i + R] = exp (-(double) (i * i) / (2 * 1.5 * 1.5));
  for (gint i = 0; i <= 2 * R; i++)
    k[i] /= sum;
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++) {
      double s = 0.0;
      for (gint i = -R; i <= R; i++)
        s += k[i + R] * in[y * w + CLAMP ((gint) x + i, 0, (gint) w - 1)];
      tmp[y * w + x] = s;
    }
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++) {
      double s = 0.0;
      for (gint i = -R; i <= R; i++)
        s += k[i + R] * tmp[CLAMP ((gint) y + i, 0, (gint) h - 1) * w + x];
      out[y * w + x] = s;
    }
}

double
octo_pc_ssim (const guint8 *rgb_a, const guint8 *rgb_b, guint width,
    guint height)
{
  const double c1 = (0.01 * 255) * (0.01 * 255);
  const double c2 = (0.03 * 255) * (0.03 * 255);
  gsize n = (gsize) width * height;
  double *buf = g_new (double, 11 * n);
  double *a = buf, *b = buf + n, *aa = buf + 2 * n, *bb = buf + 3 * n;
  double *ab = buf + 4 * n, *tmp = buf + 5 * n;
  double *ma = buf + 6 * n, *mb = buf + 7 * n, *saa = buf + 8 * n;
  double *sbb = buf + 9 * n, *sab = buf + 10 * n;
  double total = 0.0;

  for (gsize i = 0; i < n; i++) {
    a[i] = 0.299 * rgb_a[3 * i] + 0.587 * rgb_a[3 * i + 1]
        + 0.114 * rgb_a[3 * i + 2];
    b[i] = 0.299 * rgb_b[3 * i] + 0.587 * rgb_b[3 * i + 1]
        + 0.114 * rgb_b[3 * i + 2];
    aa[i] = a[i] * a[i];
    bb[i] = b[i] * b[i];
    ab[i] = a[i] * b[i];
  }
  blur (a, ma, width, height, tmp);
  blur (b, mb, width, height, tmp);
  blur (aa, saa, width, height, tmp);
  blur (bb, sbb, width, height, tmp);
  blur (ab, sab, width, height, tmp);
  for (gsize i = 0; i < n; i++) {
    double va = saa[i] - ma[i] * ma[i], vb = sbb[i] - mb[i] * mb[i];
    double cov = sab[i] - ma[i] * mb[i];
    total += ((2 * ma[i] * mb[i] + c1) * (2 * cov + c2))
        / ((ma[i] * ma[i] + mb[i] * mb[i] + c1) * (va + vb + c2));
  }
  g_free (buf);
  return total / (double) n;
}

float
octo_pc_surface_spacing (float extent, gsize n)
{
  return n ? extent / sqrtf ((float) n) : extent;
}
