/* svcdec: decodes the layers of svcenc's streams that arrived decodable and
 * outputs full-size frames. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_SVC_DEC (gst_svc_dec_get_type ())
G_DECLARE_FINAL_TYPE (GstSvcDec, gst_svc_dec, GST, SVC_DEC, GstElement)

GST_ELEMENT_REGISTER_DECLARE (svcdec);

G_END_DECLS
