#include "octo-json.h"

void
octo_json_append_string (GString *out, const gchar *text)
{
  gchar *valid;

  if (text == NULL) {
    g_string_append (out, "null");
    return;
  }
  valid = g_utf8_make_valid (text, -1);
  g_string_append_c (out, '"');
  for (const gchar *c = valid; *c; c++) {
    if (*c == '"' || *c == '\\')
      g_string_append_printf (out, "\\%c", *c);
    else if ((guchar) *c < 0x20)
      g_string_append_printf (out, "\\u%04x", (guchar) *c);
    else
      g_string_append_c (out, *c);
  }
  g_string_append_c (out, '"');
  g_free (valid);
}
