/* GStreamer Octopus: per-message dropping parameters as a buffer meta.
 *
 * An application (or octopustag) attaches a GstOctopusMeta to each buffer
 * that octopussink should send as one message; octopussrc restores it on
 * the received buffer.  The meta has no tags and copies on transform, so it
 * survives encoders, parsers and payloaders.
 *
 * The dropping fields follow the Octopus header (all zero = plain
 * unreliable delivery); the remaining fields describe the message for
 * metrics and for policies that derive the dropping fields from layers. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_OCTOPUS_LAYER_NONE 0xff
#define GST_OCTOPUS_PRIORITY_MAX 7
#define GST_OCTOPUS_SLACK_MS_MAX 1023

typedef struct _GstOctopusMeta GstOctopusMeta;

struct _GstOctopusMeta {
  GstMeta meta;

  /* dropping parameters (carried in the 12-byte header) */
  guint16 stream_id;
  guint8 priority;              /* 0 (most important) .. 7 */
  gboolean drop;                /* this message is a dropper ... */
  guint8 priority_threshold;    /* ... of older messages with priority >= this */
  guint64 bitrate_threshold;    /* bits/s; 0 disables the bitrate rule */
  guint16 slack_ms;             /* 0 .. 1023 */

  /* description (carried once per message by the transport) */
  GstClockTime capture_time;    /* clock time of capture, or NONE */
  guint32 frame_id;
  guint8 spatial_layer;         /* GST_OCTOPUS_LAYER_NONE if not layered */
  guint8 temporal_layer;
  guint8 cell_id;
  guint8 density_layer;
  gboolean keyframe;

  /* set by octopussrc: the transport's per-stream message number; it
   * increases, with gaps for dropped messages and bandwidth probes */
  guint32 msg_id;
};

GType gst_octopus_meta_api_get_type (void);
#define GST_OCTOPUS_META_API_TYPE (gst_octopus_meta_api_get_type ())

const GstMetaInfo *gst_octopus_meta_get_info (void);
#define GST_OCTOPUS_META_INFO (gst_octopus_meta_get_info ())

#define gst_buffer_get_octopus_meta(b) \
  ((GstOctopusMeta *) gst_buffer_get_meta ((b), GST_OCTOPUS_META_API_TYPE))

/* Adds a meta with every field at its default (zero dropping parameters,
 * no layers, capture time NONE). */
GstOctopusMeta *gst_buffer_add_octopus_meta (GstBuffer *buffer);

/* Resets @meta's fields to the defaults. */
void gst_octopus_meta_reset (GstOctopusMeta *meta);

/* Copies all fields but the GstMeta header. */
void gst_octopus_meta_copy_fields (GstOctopusMeta *dest,
    const GstOctopusMeta *src);

/* The upstream event octopussink sends when its bandwidth estimate changes,
 * so encoders and sources can re-choose their rate (per GoP). */
#define GST_OCTOPUS_BANDWIDTH_EVENT_NAME "GstOctopusBandwidth"

/* @bitrate: the transport's bottleneck estimate in bits/s of IP datagrams
 * (link rate: payload plus IP, UDP and Octopus headers), the unit of the
 * bitrate thresholds. */
GstEvent *gst_octopus_event_new_bandwidth (guint64 bitrate);
gboolean gst_octopus_event_parse_bandwidth (GstEvent *event,
    guint64 *bitrate);

G_END_DECLS
