/* octopuspcdec: layer messages in, merged point-cloud frames out, each
 * with a "GstOctopusPcDensity" custom meta giving the density layers that
 * arrived per cell. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_PC_DEC (gst_octopus_pc_dec_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusPcDec, gst_octopus_pc_dec, GST,
    OCTOPUS_PC_DEC, GstElement)

GST_ELEMENT_REGISTER_DECLARE (octopuspcdec);

/* The custom meta's name.  Its structure holds: frame-id (uint), cells-x,
 * cells-z, density-layers (uint), layers (array of uint: layers received
 * per spatial cell ix + cells-x * iz) and cell-points (array of uint: the
 * sender's points per cell over all layers). */
#define GST_OCTOPUS_PC_DENSITY_META "GstOctopusPcDensity"

G_END_DECLS
