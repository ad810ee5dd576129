/* Writes an RGB image as PNG (libpng), for the point-cloud tools. */
#pragma once

#include <glib.h>

gboolean pc_png_write (const gchar *path, const guint8 *rgb, guint width,
    guint height, GError **error);
