/* Shared helpers for the elements' stats structures. */
#include "gstoctopusstats.h"

void
gst_octopus_stats_set_array (GstStructure *s, const gchar *field,
    const guint64 *values, guint n)
{
  GValue array = G_VALUE_INIT, v = G_VALUE_INIT;

  gst_value_array_init (&array, n);
  g_value_init (&v, G_TYPE_UINT64);
  for (guint i = 0; i < n; i++) {
    g_value_set_uint64 (&v, values[i]);
    gst_value_array_append_value (&array, &v);
  }
  gst_structure_take_value (s, field, &array);
  g_value_unset (&v);
}

void
gst_octopus_stats_post (GstElement *element, GstStructure *s)
{
  gst_element_post_message (element,
      gst_message_new_element (GST_OBJECT (element), s));
}

GstStructure *
gst_octopus_stats_new_sender (const gchar *name, const OctoSendStats *st)
{
  GstStructure *s;

  s = gst_structure_new (name,
      "pacing-rate", G_TYPE_UINT64, st->pacing_rate,
      "bandwidth", G_TYPE_UINT64, st->bandwidth,
      "app-rate", G_TYPE_UINT64, st->app_rate,
      "min-rtt", G_TYPE_UINT64, (guint64) st->min_rtt,
      "srtt", G_TYPE_UINT64, (guint64) st->srtt,
      "cwnd", G_TYPE_UINT64, st->cwnd,
      "inflight", G_TYPE_UINT64, st->inflight,
      "queued-bytes", G_TYPE_UINT64, st->queued_bytes,
      "queued-packets", G_TYPE_UINT, st->queued_packets,
      "mode", G_TYPE_STRING, st->state,
      "packets-sent", G_TYPE_UINT64, st->flight->packets_sent,
      "bytes-sent", G_TYPE_UINT64, st->flight->bytes_sent,
      "packets-acked", G_TYPE_UINT64, st->flight->packets_acked,
      "packets-lost", G_TYPE_UINT64, st->flight->packets_lost,
      "restarts", G_TYPE_UINT64, st->restarts, NULL);
  for (guint r = 0; r < OCTO_DROP_N_REASONS; r++) {
    const gchar *reason = octo_drop_reason_to_string (r);
    guint64 messages = 0;
    gchar *field;

    for (guint p = 0; p < OCTO_N_PRIORITIES; p++)
      messages += st->buffer->messages_dropped[r][p];
    field = g_strdup_printf ("messages-dropped-%s", reason);
    gst_structure_set (s, field, G_TYPE_UINT64, messages, NULL);
    g_free (field);
    /* Packets too: with rules=false the buffer knows no messages. */
    field = g_strdup_printf ("packets-dropped-%s", reason);
    gst_structure_set (s, field, G_TYPE_UINT64,
        st->buffer->packets_dropped[r], NULL);
    g_free (field);
    /* Per priority 0..7, the dropping rules' view of what was shed. */
    field = g_strdup_printf ("messages-dropped-%s-by-priority", reason);
    gst_octopus_stats_set_array (s, field, st->buffer->messages_dropped[r],
        OCTO_N_PRIORITIES);
    g_free (field);
  }
  return s;
}
