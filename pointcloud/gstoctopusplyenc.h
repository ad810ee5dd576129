/* octopusplyenc: point-cloud frames to binary PLY files (one buffer per
 * frame), e.g. for multifilesink location=frame%05d.ply. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_PLY_ENC (gst_octopus_ply_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusPlyEnc, gst_octopus_ply_enc, GST,
    OCTOPUS_PLY_ENC, GstElement)

GST_ELEMENT_REGISTER_DECLARE (octopusplyenc);

G_END_DECLS
