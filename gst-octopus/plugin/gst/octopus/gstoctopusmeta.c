/* GStreamer Octopus: GstOctopusMeta and the bandwidth event. */
#include "gstoctopusmeta.h"

GType
gst_octopus_meta_api_get_type (void)
{
  static GType type = 0;
  static const gchar *tags[] = { NULL };

  if (g_once_init_enter (&type)) {
    GType t = gst_meta_api_type_register ("GstOctopusMetaAPI", tags);
    g_once_init_leave (&type, t);
  }
  return type;
}

void
gst_octopus_meta_reset (GstOctopusMeta *meta)
{
  meta->stream_id = 0;
  meta->priority = 0;
  meta->drop = FALSE;
  meta->priority_threshold = 0;
  meta->link_bitrate_threshold_bps = 0;
  meta->slack_ms = 0;
  meta->media_bitrate_threshold_bps = 0;
  meta->capture_time = GST_CLOCK_TIME_NONE;
  meta->frame_id = 0;
  meta->spatial_layer = GST_OCTOPUS_LAYER_NONE;
  meta->temporal_layer = GST_OCTOPUS_LAYER_NONE;
  meta->cell_id = GST_OCTOPUS_LAYER_NONE;
  meta->density_layer = GST_OCTOPUS_LAYER_NONE;
  meta->keyframe = FALSE;
  meta->msg_id = 0;
}

void
gst_octopus_meta_copy_fields (GstOctopusMeta *dest, const GstOctopusMeta *src)
{
  GstMeta header = dest->meta;
  *dest = *src;
  dest->meta = header;
}

void
gst_octopus_meta_to_core (const GstOctopusMeta *meta, OctoHeader *header,
    OctoMsgInfo *info)
{
  if (header) {
    *header = (OctoHeader) {
      .msg_id = meta->msg_id,
      .stream_id = meta->stream_id,
      .slack_ms = meta->slack_ms,
      .link_bitrate_threshold_bps = meta->link_bitrate_threshold_bps,
      .priority = meta->priority,
      .priority_threshold = meta->priority_threshold,
      .drop = meta->drop,
    };
  }
  if (info) {
    *info = (OctoMsgInfo) {
      .capture_time = meta->capture_time,
      .frame_id = meta->frame_id,
      .spatial_layer = meta->spatial_layer,
      .temporal_layer = meta->temporal_layer,
      .cell_id = meta->cell_id,
      .density_layer = meta->density_layer,
      .flags = meta->keyframe ? OCTO_MSG_FLAG_KEYFRAME : 0,
    };
  }
}

void
gst_octopus_meta_from_core (GstOctopusMeta *meta, const OctoHeader *header,
    const OctoMsgInfo *info)
{
  meta->msg_id = header->msg_id;
  meta->stream_id = header->stream_id;
  meta->slack_ms = header->slack_ms;
  meta->link_bitrate_threshold_bps = header->link_bitrate_threshold_bps;
  meta->priority = header->priority;
  meta->priority_threshold = header->priority_threshold;
  meta->drop = header->drop;
  if (info) {
    meta->capture_time = info->capture_time;
    meta->frame_id = info->frame_id;
    meta->spatial_layer = info->spatial_layer;
    meta->temporal_layer = info->temporal_layer;
    meta->cell_id = info->cell_id;
    meta->density_layer = info->density_layer;
    meta->keyframe = (info->flags & OCTO_MSG_FLAG_KEYFRAME) != 0;
  }
}

static gboolean
gst_octopus_meta_init (GstMeta *meta, gpointer params, GstBuffer *buffer)
{
  (void) params;
  (void) buffer;
  gst_octopus_meta_reset ((GstOctopusMeta *) meta);
  return TRUE;
}

/* Every transform copies: a message stays a message through encoders,
 * parsers and payloaders, whatever they do to the bytes. */
static gboolean
gst_octopus_meta_transform (GstBuffer *dest, GstMeta *meta, GstBuffer *src,
    GQuark type, gpointer data)
{
  GstOctopusMeta *dmeta;

  (void) src;
  (void) type;
  (void) data;
  dmeta = gst_buffer_get_octopus_meta (dest);
  if (!dmeta)
    dmeta = gst_buffer_add_octopus_meta (dest);
  if (!dmeta)
    return FALSE;
  gst_octopus_meta_copy_fields (dmeta, (GstOctopusMeta *) meta);
  return TRUE;
}

const GstMetaInfo *
gst_octopus_meta_get_info (void)
{
  static const GstMetaInfo *info = NULL;

  if (g_once_init_enter ((GstMetaInfo **) & info)) {
    const GstMetaInfo *mi = gst_meta_register (GST_OCTOPUS_META_API_TYPE,
        "GstOctopusMeta", sizeof (GstOctopusMeta), gst_octopus_meta_init,
        NULL, gst_octopus_meta_transform);
    g_once_init_leave ((GstMetaInfo **) & info, (GstMetaInfo *) mi);
  }
  return info;
}

GstOctopusMeta *
gst_buffer_add_octopus_meta (GstBuffer *buffer)
{
  g_return_val_if_fail (GST_IS_BUFFER (buffer), NULL);
  return (GstOctopusMeta *) gst_buffer_add_meta (buffer,
      GST_OCTOPUS_META_INFO, NULL);
}

GstEvent *
gst_octopus_event_new_bandwidth (guint64 bitrate)
{
  GstStructure *s = gst_structure_new (GST_OCTOPUS_BANDWIDTH_EVENT_NAME,
      "bitrate", G_TYPE_UINT64, bitrate, NULL);
  return gst_event_new_custom (GST_EVENT_CUSTOM_UPSTREAM, s);
}

gboolean
gst_octopus_event_parse_bandwidth (GstEvent *event, guint64 *bitrate)
{
  const GstStructure *s;

  if (GST_EVENT_TYPE (event) != GST_EVENT_CUSTOM_UPSTREAM)
    return FALSE;
  s = gst_event_get_structure (event);
  if (!s || !gst_structure_has_name (s, GST_OCTOPUS_BANDWIDTH_EVENT_NAME))
    return FALSE;
  return gst_structure_get_uint64 (s, "bitrate", bitrate);
}
