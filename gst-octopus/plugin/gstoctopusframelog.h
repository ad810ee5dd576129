/* octopusframelog: receiver-side log of message arrivals for scoring. */
#pragma once

#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_FRAME_LOG (gst_octopus_frame_log_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusFrameLog, gst_octopus_frame_log, GST,
    OCTOPUS_FRAME_LOG, GstBaseSink)

GST_ELEMENT_REGISTER_DECLARE (octopusframelog);

G_END_DECLS
