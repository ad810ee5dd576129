/* svc-encoder core: SSIM of 8-bit pictures (Wang et al. 2004 on 8x8
 * windows every 4 pixels, as libvpx and ffmpeg compute it), linear 0..1. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Mean SSIM over the 8x8 windows of two @width x @height planes. */
gdouble svc_ssim_plane (const guint8 *a, gint a_stride, const guint8 *b,
    gint b_stride, guint width, guint height);

/* SSIM of two I420 pictures: the planes' SSIM weighted by their pixel
 * counts (Y 4/6, U and V 1/6 each), like ffmpeg's "All". */
gdouble svc_ssim_i420 (const guint8 *const a[3], const gint a_stride[3],
    const guint8 *const b[3], const gint b_stride[3], guint width,
    guint height);

G_END_DECLS
