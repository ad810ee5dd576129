/* octopussrc: receives Octopus messages over UDP, one buffer per message. */
#pragma once

#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_SRC (gst_octopus_src_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusSrc, gst_octopus_src, GST, OCTOPUS_SRC,
    GstPushSrc)

GST_ELEMENT_REGISTER_DECLARE (octopussrc);

G_END_DECLS
