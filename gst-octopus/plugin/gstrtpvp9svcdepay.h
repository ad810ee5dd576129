/* rtpvp9svcdepay: RFC 9628 VP9 RTP to one buffer per layer frame. */
#pragma once

#include <gst/rtp/rtp.h>

G_BEGIN_DECLS

#define GST_TYPE_RTP_VP9_SVC_DEPAY (gst_rtp_vp9_svc_depay_get_type ())
G_DECLARE_FINAL_TYPE (GstRtpVp9SvcDepay, gst_rtp_vp9_svc_depay, GST,
    RTP_VP9_SVC_DEPAY, GstRTPBaseDepayload)

GST_ELEMENT_REGISTER_DECLARE (rtpvp9svcdepay);

G_END_DECLS
