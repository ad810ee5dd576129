/* octopusrtpsender: the Octopus sender over RTP, as webrtcbin's (rtpbin's)
 * aux sender: BBR pacing from transport-wide congestion control feedback
 * and the dropping rules in its send buffer. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_RTP_SENDER (gst_octopus_rtp_sender_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusRtpSender, gst_octopus_rtp_sender, GST,
    OCTOPUS_RTP_SENDER, GstElement)

GST_ELEMENT_REGISTER_DECLARE (octopusrtpsender);

G_END_DECLS
