/* rtphdrextoctopus: Octopus message parameters as an RTP header extension. */
#pragma once

#include <gst/rtp/rtp.h>

G_BEGIN_DECLS

#define GST_TYPE_RTP_HEADER_EXTENSION_OCTOPUS \
  (gst_rtp_header_extension_octopus_get_type ())
G_DECLARE_FINAL_TYPE (GstRTPHeaderExtensionOctopus,
    gst_rtp_header_extension_octopus, GST, RTP_HEADER_EXTENSION_OCTOPUS,
    GstRTPHeaderExtension)

GST_ELEMENT_REGISTER_DECLARE (rtphdrextoctopus);

G_END_DECLS
