/* Fuzzes the PLY reader: no crash or overread on any bytes, and every
 * refusal names a line or a byte offset. */
#include "pc-ply.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  guint8 *copy = g_memdup2 (data, size);
  GError *error = NULL;
  GArray *pts = octo_pc_ply_parse (copy, size, &error);

  if ((pts == NULL) == (error == NULL))
    abort ();
  if (error && !g_str_has_prefix (error->message, "line ")
      && !g_str_has_prefix (error->message, "byte offset "))
    abort ();
  g_clear_error (&error);
  if (pts)
    g_array_unref (pts);
  g_free (copy);
  return 0;
}
