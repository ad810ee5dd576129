/* octo-ssim: the project's picture-quality metric (gst-octopus/core/eval/
 * octo-ssim.h) for scripts, so that none of them has an SSIM of its own.
 *
 * Reads two raw files of @width x @height frames, the reference and the
 * distorted one, frame by frame (gray: the luma plane only; i420: the
 * chroma planes follow and are skipped), and writes one CSV row per frame
 * pair:
 *
 *   frame,ssim,psnr_db
 *
 * psnr_db is "inf" for identical frames.  Both files must hold the same
 * number of whole frames. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "octo-ssim.h"

static gint width = 0, height = 0;
static gchar *format = NULL;

static GOptionEntry entries[] = {
  {"width", 0, 0, G_OPTION_ARG_INT, &width, "Frame width", "W"},
  {"height", 0, 0, G_OPTION_ARG_INT, &height, "Frame height", "H"},
  {"format", 0, 0, G_OPTION_ARG_STRING, &format,
      "gray (luma only, default) or i420", "FORMAT"},
  G_OPTION_ENTRY_NULL
};

int
main (int argc, char **argv)
{
  GOptionContext *ctx = g_option_context_new ("REFERENCE DISTORTED - "
      OCTO_SSIM_NAME " and PSNR of each frame");
  GError *error = NULL;
  gchar *ref = NULL, *dist = NULL;
  gsize ref_len, dist_len, luma, frame_bytes;
  gboolean i420;

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc != 3
      || width < OCTO_SSIM_WINDOW || height < OCTO_SSIM_WINDOW
      || (format && strcmp (format, "gray") != 0
          && strcmp (format, "i420") != 0)) {
    g_printerr ("octo-ssim: %s\n%s", error ? error->message :
        "need --width and --height (at least 11), a --format of gray or "
        "i420, and two files", g_option_context_get_help (ctx, TRUE, NULL));
    return 2;
  }
  i420 = format && strcmp (format, "i420") == 0;
  luma = (gsize) width * height;
  frame_bytes = i420 ? luma + 2 * (((gsize) width + 1) / 2) *
      (((gsize) height + 1) / 2) : luma;
  if (!g_file_get_contents (argv[1], &ref, &ref_len, &error)
      || !g_file_get_contents (argv[2], &dist, &dist_len, &error)) {
    g_printerr ("octo-ssim: %s\n", error->message);
    return 1;
  }
  if (ref_len != dist_len || ref_len % frame_bytes != 0) {
    g_printerr ("octo-ssim: %s (%" G_GSIZE_FORMAT " bytes) and %s (%"
        G_GSIZE_FORMAT " bytes) must hold the same number of whole %dx%d "
        "%s frames (%" G_GSIZE_FORMAT " bytes each)\n", argv[1], ref_len,
        argv[2], dist_len, width, height, i420 ? "i420" : "gray",
        frame_bytes);
    return 1;
  }
  printf ("frame,ssim,psnr_db\n");
  for (gsize f = 0; f < ref_len / frame_bytes; f++) {
    const guint8 *a = (const guint8 *) ref + f * frame_bytes;
    const guint8 *b = (const guint8 *) dist + f * frame_bytes;
    gdouble psnr = octo_psnr (a, width, b, width, width, height);
    printf ("%" G_GSIZE_FORMAT ",%.6f,", f,
        octo_ssim (a, width, b, width, width, height));
    if (isinf (psnr))
      printf ("inf\n");
    else
      printf ("%.3f\n", psnr);
  }
  if (fflush (stdout) != 0) {
    g_printerr ("octo-ssim: cannot write: %s\n", g_strerror (errno));
    return 1;
  }
  g_free (ref);
  g_free (dist);
  g_option_context_free (ctx);
  return 0;
}
