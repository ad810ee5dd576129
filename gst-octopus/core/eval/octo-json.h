/* gst-octopus core: JSON string values for the run summaries the shells
 * write (octo-sim, octo-metrics, octopus-shim --stats).  Names a user
 * chooses, such as trace paths, end up in them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Appends @text as a JSON string (RFC 8259): quotes, backslash and control
 * characters escaped, invalid UTF-8 replaced by U+FFFD; NULL as null. */
void octo_json_append_string (GString *out, const gchar *text);

G_END_DECLS
