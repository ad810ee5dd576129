/* octopustracesrc: replays a video trace in real time, one buffer per
 * message, carrying GstOctopusMeta. */
#pragma once

#include <gst/base/gstpushsrc.h>

G_BEGIN_DECLS

#define GST_TYPE_OCTOPUS_TRACE_SRC (gst_octopus_trace_src_get_type ())
G_DECLARE_FINAL_TYPE (GstOctopusTraceSrc, gst_octopus_trace_src, GST,
    OCTOPUS_TRACE_SRC, GstPushSrc)

GST_ELEMENT_REGISTER_DECLARE (octopustracesrc);

/* Every message's payload starts with this record (as far as the message
 * is long), so a receiver can log what it got without the trace:
 * bytes 0-3 magic, 4-7 frame id, 8-9 index within the frame, all
 * big-endian. */
#define GST_OCTOPUS_TRACE_RECORD_MAGIC 0x4f435452u   /* "OCTR" */
#define GST_OCTOPUS_TRACE_RECORD_LEN 10

G_END_DECLS
