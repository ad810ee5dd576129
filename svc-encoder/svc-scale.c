#include "svc-scale.h"

#include <string.h>

void
svc_scaler_render (SvcScaler *scaler, const vpx_image_t *img,
    GstVideoFrame *out)
{
  GstVideoFrame in;

  memset (&in, 0, sizeof (in));
  gst_video_info_set_format (&in.info, GST_VIDEO_FORMAT_I420, img->d_w,
      img->d_h);
  for (guint i = 0; i < 3; i++) {
    in.data[i] = img->planes[i];
    in.info.stride[i] = img->stride[i];
  }
  if (!scaler->converter || !gst_video_info_is_equal (&scaler->in_info,
          &in.info) || !gst_video_info_is_equal (&scaler->out_info,
          &out->info)) {
    svc_scaler_clear (scaler);
    scaler->converter = gst_video_converter_new (&in.info, &out->info,
        gst_structure_new ("options",
            GST_VIDEO_CONVERTER_OPT_RESAMPLER_METHOD,
            GST_TYPE_VIDEO_RESAMPLER_METHOD, GST_VIDEO_RESAMPLER_METHOD_LINEAR,
            GST_VIDEO_CONVERTER_OPT_THREADS, G_TYPE_UINT, 1, NULL));
    scaler->in_info = in.info;
    scaler->out_info = out->info;
  }
  gst_video_converter_frame (scaler->converter, &in, out);
}

void
svc_scaler_clear (SvcScaler *scaler)
{
  g_clear_pointer (&scaler->converter, gst_video_converter_free);
}
