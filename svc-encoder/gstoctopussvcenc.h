/* octopussvcenc: real-time VP8 temporal / VP9 spatial SVC, one buffer per layer
 * message, with GstOctopusMeta. */
#pragma once

#include <gst/video/video.h>

G_BEGIN_DECLS

typedef enum {
  GST_OCTOPUS_SVC_ENC_CODEC_VP8 = 0,
  GST_OCTOPUS_SVC_ENC_CODEC_VP9,
} GstOctopusSvcEncCodec;

#define GST_TYPE_OCTOPUS_SVC_ENC (gst_octopus_svc_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusSvcEnc, gst_octopus_svc_enc, GST,
    OCTOPUS_SVC_ENC, GstVideoEncoder)

GST_ELEMENT_REGISTER_DECLARE (octopussvcenc);

G_END_DECLS
