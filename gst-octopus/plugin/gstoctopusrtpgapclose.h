/* octopusrtpgapclose: renumbers RTP so a jitterbuffer does not wait for the
 * whole messages an Octopus queue dropped on purpose. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_RTP_GAP_CLOSE (gst_octopus_rtp_gap_close_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusRtpGapClose, gst_octopus_rtp_gap_close, GST,
    OCTOPUS_RTP_GAP_CLOSE, GstElement)

GST_ELEMENT_REGISTER_DECLARE (octopusrtpgapclose);

G_END_DECLS
