/* Fuzzes the PLY header-comment reader (the trace source and the scoring
 * tools read "comment KEY VALUE" lines from received files): the first
 * byte is the key's length, then the key, then the file.  No read out of
 * bounds; a value found is a stripped line of the header. */
#include "pc-ply.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  size_t klen = MIN ((size_t) data[0] % 16, size - 1);
  gchar *key = g_strndup ((const gchar *) data + 1, klen);
  size_t len = size - 1 - klen;
  /* a heap copy of exactly the file's bytes so ASan sees any overread */
  guint8 *file = g_memdup2 (data + 1 + klen, len);
  gchar *value = octo_pc_ply_comment (file, len, key);

  if (value && (strlen (value) >= len || strchr (value, '\n')))
    abort ();
  g_free (value);
  g_free (file);
  g_free (key);
  return 0;
}
