/* octopussvclog: the sender's layer dump (core/svc-dump.h) for scoring a
 * run. */
#pragma once

#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_SVC_LOG (gst_octopus_svc_log_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusSvcLog, gst_octopus_svc_log, GST,
    OCTOPUS_SVC_LOG, GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (octopussvclog);

G_END_DECLS
