/* octopuspcenc: point-cloud frames in, one Draco-coded message per (cell,
 * density layer) out, in send order, with GstOctopusMeta tags of the
 * volumetric preset. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_PC_ENC (gst_octopus_pc_enc_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusPcEnc, gst_octopus_pc_enc, GST,
    OCTOPUS_PC_ENC, GstElement)

GST_ELEMENT_REGISTER_DECLARE (octopuspcenc);

/* The messages: pc-layer.h's header and a Draco payload. */
#define GST_OCTOPUS_PC_LAYER_CAPS "application/x-octopus-pc-layer"

#define GST_TYPE_OCTOPUS_PC_METHOD (gst_octopus_pc_method_get_type ())
GType gst_octopus_pc_method_get_type (void);

G_END_DECLS
