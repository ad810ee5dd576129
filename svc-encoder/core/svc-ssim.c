#include "svc-ssim.h"

#define WINDOW 8
#define STEP 4

static gdouble
window_ssim (const guint8 *a, gint as, const guint8 *b, gint bs)
{
  const gdouble c1 = (0.01 * 255) * (0.01 * 255);
  const gdouble c2 = (0.03 * 255) * (0.03 * 255);
  guint64 sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
  const gdouble n = WINDOW * WINDOW;
  gdouble ma, mb, va, vb, cov;

  for (guint y = 0; y < WINDOW; y++)
    for (guint x = 0; x < WINDOW; x++) {
      guint pa = a[y * as + x], pb = b[y * bs + x];
      sa += pa;
      sb += pb;
      saa += pa * pa;
      sbb += pb * pb;
      sab += pa * pb;
    }
  ma = sa / n;
  mb = sb / n;
  va = saa / n - ma * ma;
  vb = sbb / n - mb * mb;
  cov = sab / n - ma * mb;
  return ((2 * ma * mb + c1) * (2 * cov + c2))
      / ((ma * ma + mb * mb + c1) * (va + vb + c2));
}

gdouble
svc_ssim_plane (const guint8 *a, gint as, const guint8 *b, gint bs,
    guint width, guint height)
{
  gdouble sum = 0;
  guint count = 0;

  if (width < WINDOW || height < WINDOW)
    return 1.0;
  for (guint y = 0; y + WINDOW <= height; y += STEP)
    for (guint x = 0; x + WINDOW <= width; x += STEP) {
      sum += window_ssim (a + (gsize) y * as + x, as, b + (gsize) y * bs + x,
          bs);
      count++;
    }
  return sum / count;
}

gdouble
svc_ssim_i420 (const guint8 *const a[3], const gint as[3],
    const guint8 *const b[3], const gint bs[3], guint width, guint height)
{
  guint cw = (width + 1) / 2, ch = (height + 1) / 2;
  gdouble y = svc_ssim_plane (a[0], as[0], b[0], bs[0], width, height);
  gdouble u = svc_ssim_plane (a[1], as[1], b[1], bs[1], cw, ch);
  gdouble v = svc_ssim_plane (a[2], as[2], b[2], bs[2], cw, ch);

  return (4 * y + u + v) / 6;
}
