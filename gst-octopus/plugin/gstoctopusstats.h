/* Shared helpers for the elements' stats structures. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

/* Sets @field of @s to a GstValueArray of @n guint64 values. */
void gst_octopus_stats_set_array (GstStructure *s, const gchar *field,
    const guint64 *values, guint n);

/* Posts @s (taking ownership) as an element message of @element. */
void gst_octopus_stats_post (GstElement *element, GstStructure *s);

G_END_DECLS
