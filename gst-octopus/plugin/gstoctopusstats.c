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
