/* Shared helpers for the elements' stats structures. */
#pragma once

#include <gst/gst.h>

#include "transport/octo-send-session.h"

G_BEGIN_DECLS

/* Sets @field of @s to a GstValueArray of @n guint64 values. */
void gst_octopus_stats_set_array (GstStructure *s, const gchar *field,
    const guint64 *values, guint n);

/* A sender's stats structure @name holding what every sender reports: the
 * pacing rate, the estimate ("bandwidth"), RTTs, window, inflight, the
 * controller's "mode", what left and what was acked or lost, the queue, and
 * the send buffer's drops by reason (messages, packets, and messages per
 * priority 0..7).  The element adds its own fields. */
GstStructure *gst_octopus_stats_new_sender (const gchar *name,
    const OctoSendStats *st);

/* Posts @s (taking ownership) as an element message of @element. */
void gst_octopus_stats_post (GstElement *element, GstStructure *s);

G_END_DECLS
