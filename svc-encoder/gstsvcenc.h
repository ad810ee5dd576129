/* svcenc: real-time VP8 temporal / VP9 spatial SVC, one buffer per layer
 * message, with GstOctopusMeta. */
#pragma once

#include <gst/video/video.h>

G_BEGIN_DECLS

typedef enum {
  GST_SVC_ENC_CODEC_VP8 = 0,
  GST_SVC_ENC_CODEC_VP9,
} GstSvcEncCodec;

#define GST_TYPE_SVC_ENC (gst_svc_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstSvcEnc, gst_svc_enc, GST, SVC_ENC, GstVideoEncoder)

GST_ELEMENT_REGISTER_DECLARE (svcenc);

G_END_DECLS
