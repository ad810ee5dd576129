/* svc-encoder: a decoded layer at the output size (lower spatial layers
 * upscaled, bilinear), the same way for octopussvcdec and octo-svc-quality
 * so the scored picture is the shown one. */
#pragma once

#include <gst/video/video.h>
#include <vpx/vpx_image.h>

G_BEGIN_DECLS

typedef struct {
  GstVideoConverter *converter;
  GstVideoInfo in_info, out_info;
} SvcScaler;

/* Renders the I420 picture @img into @out (mapped, I420, any size). */
void svc_scaler_render (SvcScaler *scaler, const vpx_image_t *img,
    GstVideoFrame *out);

void svc_scaler_clear (SvcScaler *scaler);

G_END_DECLS
