/* gst-octopus point clouds: point-to-point (D1) geometry PSNR, as MPEG's
 * pc_error computes it: for each point of one cloud the squared distance
 * to its nearest neighbour in the other, averaged; the symmetric error is
 * the larger of the two directions; PSNR = 10 log10(peak^2 / MSE) with
 * peak = the diagonal of the reference's bounding box. */
#pragma once

#include "pc-point.h"

G_BEGIN_DECLS

/* Mean squared nearest-neighbour distance from each point of @a to @b
 * (n_b > 0). */
double octo_pc_d1_mse (const OctoPcPoint *a, gsize n_a,
    const OctoPcPoint *b, gsize n_b);

/* Symmetric D1 PSNR in dB of @received against @reference; +inf when
 * identical, 0 when @received is empty. */
double octo_pc_d1_psnr (const OctoPcPoint *reference, gsize n_ref,
    const OctoPcPoint *received, gsize n_rec);

G_END_DECLS
