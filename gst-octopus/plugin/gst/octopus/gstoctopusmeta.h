/* GStreamer Octopus: per-message dropping parameters as a buffer meta.
 *
 * An application (or octopustag) attaches a GstOctopusMeta to each buffer
 * that octopussink should send as one message; octopussrc restores it on
 * the received buffer.  The meta has no tags and copies on transform, so it
 * survives encoders, parsers and payloaders.
 *
 * The meta is the GStreamer face of the core's message parameters: the
 * in-network header (OctoHeader, octo-wire.h) and the per-message
 * description (OctoMsgInfo, octo-packet.h).  gst_octopus_meta_to_core() and
 * gst_octopus_meta_from_core() are the only mapping between them; elements
 * never copy fields one by one, so a new parameter is added to the core
 * struct and here, nowhere else. */
#pragma once

#include <gst/gst.h>

#include "octo-packet.h"

G_BEGIN_DECLS

/* The core's limits, under the meta's names. */
#define GST_OCTOPUS_LAYER_NONE OCTO_LAYER_NONE
#define GST_OCTOPUS_PRIORITY_MAX OCTO_PRIORITY_MAX
#define GST_OCTOPUS_SLACK_MS_MAX OCTO_SLACK_MS_MAX

typedef struct _GstOctopusMeta GstOctopusMeta;

struct _GstOctopusMeta {
  GstMeta meta;

  /* The dropping parameters, carried in the 12-byte header (all zero =
   * plain unreliable delivery). */
  guint16 stream_id;
  guint8 priority;              /* 0 (most important) .. PRIORITY_MAX */
  gboolean drop;                /* this message is a dropper ... */
  guint8 priority_threshold;    /* ... of older messages with priority >= this */
  /* Link bits/s (IP datagrams: payload plus IP, UDP and Octopus headers, the
   * unit of the bandwidth estimate): a queue drops the message when its
   * stream's share is below this.  0 disables the bitrate rule. */
  guint64 link_bitrate_threshold_bps;
  guint16 slack_ms;             /* 0 .. SLACK_MS_MAX */

  /* Not carried: the threshold as a media rate (bits/s of message bytes),
   * as encoders and applications know it (octopussvcenc: a VP9 layer's
   * cumulative target rate).  octopustag turns it into
   * link_bitrate_threshold_bps at its mtu (octo_preset_link_rate(), the one
   * media -> link conversion); transports ignore it.  0 = none. */
  guint64 media_bitrate_threshold_bps;

  /* The description, carried once per message by the transport. */
  GstClockTime capture_time;    /* clock time of capture, or NONE */
  guint32 frame_id;
  guint8 spatial_layer;         /* GST_OCTOPUS_LAYER_NONE if not layered */
  guint8 temporal_layer;
  guint8 cell_id;
  guint8 density_layer;
  gboolean keyframe;

  /* set by octopussrc and rtphdrextoctopus: the header's per-stream message
   * number; it increases, with gaps for dropped messages and bandwidth
   * probes.  Senders number messages themselves and ignore it. */
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

/* Writes @meta's message parameters into @header's fields (first and last
 * cleared) and into @info; either may be NULL. */
void gst_octopus_meta_to_core (const GstOctopusMeta *meta,
    OctoHeader *header, OctoMsgInfo *info);

/* Sets @meta's header fields from @header, and its description from @info
 * unless @info is NULL; the other fields keep their values. */
void gst_octopus_meta_from_core (GstOctopusMeta *meta,
    const OctoHeader *header, const OctoMsgInfo *info);

/* Octopus messages of a type the stream does not announce (one buffer per
 * message, GstOctopusMeta on each): what octopussrc receives unless its
 * caps property says more; octopussvcdec and octopuspcdec learn the rest
 * from the stream. */
#define GST_OCTOPUS_MESSAGES_CAPS "application/x-octopus"

/* The upstream event octopussink sends when its bandwidth estimate changes,
 * so encoders and sources can re-choose their rate (per GoP). */
#define GST_OCTOPUS_BANDWIDTH_EVENT_NAME "GstOctopusBandwidth"

/* @bitrate: the transport's bottleneck estimate in bits/s of IP datagrams
 * (link rate: payload plus IP, UDP and Octopus headers), the unit of
 * link_bitrate_threshold_bps. */
GstEvent *gst_octopus_event_new_bandwidth (guint64 bitrate);
gboolean gst_octopus_event_parse_bandwidth (GstEvent *event,
    guint64 *bitrate);

G_END_DECLS
