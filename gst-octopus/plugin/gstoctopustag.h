/* octopustag: attaches GstOctopusMeta per a dropping policy preset. */
#pragma once

#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

typedef enum {
  GST_OCTOPUS_TAG_POLICY_NONE = 0,
  GST_OCTOPUS_TAG_POLICY_FRAMERATE,
  GST_OCTOPUS_TAG_POLICY_QUALITY,
  GST_OCTOPUS_TAG_POLICY_VOLUMETRIC,
} GstOctopusTagPolicy;

#define GST_TYPE_OCTOPUS_TAG (gst_octopus_tag_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusTag, gst_octopus_tag, GST, OCTOPUS_TAG,
    GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (octopustag);

G_END_DECLS
