/* octopussvcdec: decodes the layers of octopussvcenc's streams that arrived
 * decodable and outputs full-size frames. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_SVC_DEC (gst_octopus_svc_dec_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusSvcDec, gst_octopus_svc_dec, GST,
    OCTOPUS_SVC_DEC, GstElement)

GST_ELEMENT_REGISTER_DECLARE (octopussvcdec);

G_END_DECLS
