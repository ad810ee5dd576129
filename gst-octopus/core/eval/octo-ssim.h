/* gst-octopus core: the project's one picture-quality metric.
 *
 * SSIM as Wang et al. 2004 define it, on 8-bit luma: an 11x11 Gaussian
 * window (sigma 1.5), data range L = 255, C1 = (0.01 L)^2, C2 = (0.03 L)^2,
 * population (1/N) variances and covariance; the mean of the SSIM map over
 * the pixels whose whole window lies inside the picture.  This is exactly
 * scikit-image's structural_similarity (a, b, gaussian_weights=True,
 * sigma=1.5, use_sample_covariance=False, data_range=255): it filters with
 * a radius-5 kernel and crops 5 pixels from every border before the mean,
 * so its border mode never reaches the result.
 *
 * PSNR is reported next to it: 10 log10 (255^2 / MSE) over every pixel. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The SSIM window's side: pictures smaller than this have no SSIM. */
#define OCTO_SSIM_WINDOW 11

/* The name every summary prints next to the number. */
#define OCTO_SSIM_NAME "SSIM (Wang 2004, Gaussian 11x11)"

/* Mean SSIM of two @width x @height luma planes; NAN if either side is
 * below OCTO_SSIM_WINDOW. */
gdouble octo_ssim (const guint8 *a, gint a_stride, const guint8 *b,
    gint b_stride, guint width, guint height);

/* PSNR in dB of two luma planes; INFINITY when they are identical. */
gdouble octo_psnr (const guint8 *a, gint a_stride, const guint8 *b,
    gint b_stride, guint width, guint height);

/* BT.601 luma (0.299 R + 0.587 G + 0.114 B, rounded) of packed RGB
 * (@width * @height * 3 bytes) into @luma (@width * @height bytes): what
 * rendered pictures are scored on. */
void octo_ssim_luma_from_rgb (const guint8 *rgb, guint width, guint height,
    guint8 *luma);

G_END_DECLS
