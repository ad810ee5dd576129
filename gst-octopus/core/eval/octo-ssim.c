#include "octo-ssim.h"

#include <math.h>

#define RADIUS (OCTO_SSIM_WINDOW / 2)
#define SIGMA 1.5
/* the five filtered maps: a, b, a^2, b^2, ab */
#define N_MOMENTS 5

/* scipy.ndimage's Gaussian kernel (truncate 3.5 -> radius 5): exp
 * (-x^2 / 2 sigma^2), normalised to sum 1. */
static void
gaussian_kernel (gdouble k[OCTO_SSIM_WINDOW])
{
  gdouble sum = 0;

  for (gint i = -RADIUS; i <= RADIUS; i++)
    sum += k[i + RADIUS] = exp (-0.5 * i * i / (SIGMA * SIGMA));
  for (guint i = 0; i < OCTO_SSIM_WINDOW; i++)
    k[i] /= sum;
}

/* The horizontal pass of one row, only where the whole window fits:
 * out[m * out_width + x] is moment m filtered around column x + RADIUS.
 * @moments (N_MOMENTS * width) is scratch.  Loops run along x so that
 * they vectorise; the kernel is symmetric, so taps are taken in pairs. */
static void
filter_row (const guint8 *a, const guint8 *b, guint width,
    const gdouble k[OCTO_SSIM_WINDOW], gdouble *moments, gdouble *out)
{
  guint out_width = width - 2 * RADIUS;

  for (guint x = 0; x < width; x++) {
    gdouble pa = a[x], pb = b[x];
    moments[x] = pa;
    moments[width + x] = pb;
    moments[2 * width + x] = pa * pa;
    moments[3 * width + x] = pb * pb;
    moments[4 * width + x] = pa * pb;
  }
  for (guint m = 0; m < N_MOMENTS; m++) {
    const gdouble *in = moments + m * width;
    gdouble *o = out + m * out_width;
    for (guint x = 0; x < out_width; x++)
      o[x] = k[RADIUS] * in[x + RADIUS];
    for (guint t = 0; t < RADIUS; t++)
      for (guint x = 0; x < out_width; x++)
        o[x] += k[t] * (in[x + t] + in[x + 2 * RADIUS - t]);
  }
}

gdouble
octo_ssim (const guint8 *a, gint a_stride, const guint8 *b, gint b_stride,
    guint width, guint height)
{
  const gdouble c1 = (0.01 * 255) * (0.01 * 255);
  const gdouble c2 = (0.03 * 255) * (0.03 * 255);
  gdouble k[OCTO_SSIM_WINDOW], *rows, *col, *moments, total = 0;
  guint out_width, row_size;

  if (width < OCTO_SSIM_WINDOW || height < OCTO_SSIM_WINDOW)
    return NAN;
  gaussian_kernel (k);
  out_width = width - 2 * RADIUS;
  row_size = N_MOMENTS * out_width;
  /* the last OCTO_SSIM_WINDOW horizontally filtered rows, a ring */
  rows = g_new (gdouble, (gsize) OCTO_SSIM_WINDOW * row_size);
  col = g_new (gdouble, row_size);
  moments = g_new (gdouble, (gsize) N_MOMENTS * width);

  for (guint y = 0; y < height; y++) {
    filter_row (a + (gsize) y * a_stride, b + (gsize) y * b_stride, width,
        k, moments, rows + (gsize) (y % OCTO_SSIM_WINDOW) * row_size);
    if (y + 1 < OCTO_SSIM_WINDOW)
      continue;
    for (guint i = 0; i < row_size; i++)
      col[i] = 0;
    for (guint t = 0; t < OCTO_SSIM_WINDOW; t++) {
      const gdouble *row = rows +
          (gsize) ((y + 1 + t) % OCTO_SSIM_WINDOW) * row_size;
      for (guint i = 0; i < row_size; i++)
        col[i] += k[t] * row[i];
    }
    for (guint x = 0; x < out_width; x++) {
      gdouble ma = col[x], mb = col[out_width + x];
      gdouble va = col[2 * out_width + x] - ma * ma;
      gdouble vb = col[3 * out_width + x] - mb * mb;
      gdouble cov = col[4 * out_width + x] - ma * mb;
      total += ((2 * ma * mb + c1) * (2 * cov + c2))
          / ((ma * ma + mb * mb + c1) * (va + vb + c2));
    }
  }
  g_free (rows);
  g_free (col);
  g_free (moments);
  return total / ((gdouble) out_width * (height - 2 * RADIUS));
}

gdouble
octo_psnr (const guint8 *a, gint a_stride, const guint8 *b, gint b_stride,
    guint width, guint height)
{
  guint64 sse = 0;

  for (guint y = 0; y < height; y++)
    for (guint x = 0; x < width; x++) {
      gint d = a[(gsize) y * a_stride + x] - b[(gsize) y * b_stride + x];
      sse += (guint64) (d * d);
    }
  if (sse == 0)
    return INFINITY;
  return 10 * log10 (255.0 * 255.0 * width * height / (gdouble) sse);
}

void
octo_ssim_luma_from_rgb (const guint8 *rgb, guint width, guint height,
    guint8 *luma)
{
  for (gsize i = 0; i < (gsize) width * height; i++)
    luma[i] = (guint8) lrint (0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1]
        + 0.114 * rgb[3 * i + 2]);
}
