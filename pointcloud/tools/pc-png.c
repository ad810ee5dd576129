/* PNG output for the point-cloud tools. */
#include "pc-png.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>

gboolean
pc_png_write (const gchar *path, const guint8 *rgb, guint width,
    guint height, GError **error)
{
  FILE *f = fopen (path, "wb");
  png_structp png;
  png_infop info;

  if (!f) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot write %s: %s", path, g_strerror (errno));
    return FALSE;
  }
  png = png_create_write_struct (PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  info = png ? png_create_info_struct (png) : NULL;
  if (!info || setjmp (png_jmpbuf (png))) {
    png_destroy_write_struct (&png, &info);
    fclose (f);
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
        "libpng failed writing %s", path);
    return FALSE;
  }
  png_init_io (png, f);
  png_set_IHDR (png, info, width, height, 8, PNG_COLOR_TYPE_RGB,
      PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
      PNG_FILTER_TYPE_DEFAULT);
  png_write_info (png, info);
  for (guint y = 0; y < height; y++)
    png_write_row (png, (png_const_bytep) (rgb + (gsize) y * width * 3));
  png_write_end (png, NULL);
  png_destroy_write_struct (&png, &info);
  return fclose (f) == 0;
}
