/* Replays fuzz corpora through a libFuzzer entry point without libFuzzer, so
 * the seed corpus runs as an ordinary test (and under ASan+UBSan). */
#include <glib.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
replay_path (const gchar *path, guint *n)
{
  gchar *contents;
  gsize len;

  if (g_file_test (path, G_FILE_TEST_IS_DIR)) {
    GDir *dir = g_dir_open (path, 0, NULL);
    const gchar *name;
    while (dir && (name = g_dir_read_name (dir))) {
      gchar *child = g_build_filename (path, name, NULL);
      replay_path (child, n);
      g_free (child);
    }
    if (dir)
      g_dir_close (dir);
    return;
  }
  if (!g_file_get_contents (path, &contents, &len, NULL))
    g_error ("cannot read corpus file %s", path);
  LLVMFuzzerTestOneInput ((const uint8_t *) contents, len);
  g_free (contents);
  (*n)++;
}

int
main (int argc, char **argv)
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    replay_path (argv[i], &n);
  if (n == 0)
    g_error ("no corpus inputs found");
  g_print ("replayed %u inputs\n", n);
  return 0;
}
