/* octopussink: sends each buffer as one Octopus message over UDP. */
#pragma once

#include <gst/base/gstbasesink.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_SINK (gst_octopus_sink_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusSink, gst_octopus_sink, GST, OCTOPUS_SINK,
    GstBaseSink)

GST_ELEMENT_REGISTER_DECLARE (octopussink);

G_END_DECLS
