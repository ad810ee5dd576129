/* rtpvp9svcpay: VP9 SVC into RTP, RFC 9628 flexible mode. */
#pragma once

#include <gst/rtp/rtp.h>

G_BEGIN_DECLS

#define GST_TYPE_RTP_VP9_SVC_PAY (gst_rtp_vp9_svc_pay_get_type ())
G_DECLARE_FINAL_TYPE (GstRtpVp9SvcPay, gst_rtp_vp9_svc_pay, GST,
    RTP_VP9_SVC_PAY, GstRTPBasePayload)

GST_ELEMENT_REGISTER_DECLARE (rtpvp9svcpay);

G_END_DECLS
