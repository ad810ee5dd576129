/* octopusplysrc: point-cloud frames from a PLY file, a numbered sequence
 * of PLY files, or one file animated into a sequence. */
#pragma once

#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_PLY_SRC (gst_octopus_ply_src_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusPlySrc, gst_octopus_ply_src, GST,
    OCTOPUS_PLY_SRC, GstPushSrc)

GST_ELEMENT_REGISTER_DECLARE (octopusplysrc);

G_END_DECLS
