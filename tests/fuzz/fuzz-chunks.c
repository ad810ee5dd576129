/* libFuzzer target: QUCO chunk trailers from untrusted datagrams.  Parsing
 * never reads outside the buffer, trimming accepts exactly what parsing
 * accepts, and a trimmed datagram parses again with the same chunk table. */
#include "qdisc/octo-chunks.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  OctoChunks chunks, again;
  guint8 *copy;
  guint cut, count;

  if (size == 0)
    return 0;
  /* any count a queue may ask for, up to every chunk */
  count = data[0] % (OCTO_CHUNKS_MAX + 1);
  /* Exact-size copy so ASan sees any overrun. */
  copy = g_memdup2 (data, size);
  gsize len = size;
  gboolean trimmed = octo_chunks_trim (copy, &len, count, &cut);
  if (!octo_chunks_parse (data, size, &chunks)) {
    g_assert_false (trimmed);
    g_assert_cmpuint (len, ==, size);
    g_assert_cmpuint (cut, ==, 0);
    g_assert_cmpint (memcmp (copy, data, size), ==, 0);
    g_free (copy);
    return 0;
  }
  g_assert_true (trimmed);
  g_assert_cmpuint (cut, ==, MIN (count, chunks.n_chunks - chunks.trimmed));
  g_assert_cmpuint (chunks.chunks_offset, <=, chunks.trailer_offset);
  g_assert_cmpuint (chunks.trailer_offset +
      octo_chunks_trailer_size (chunks.n_chunks), ==, size);

  g_assert_true (octo_chunks_parse (copy, len, &again));
  g_assert_cmpuint (again.n_chunks, ==, chunks.n_chunks);
  g_assert_cmpuint (again.trimmed, ==, chunks.trimmed + cut);
  g_assert_cmpuint (again.chunks_offset, ==, chunks.chunks_offset);
  g_assert_cmpint (memcmp (again.len, chunks.len,
          chunks.n_chunks * sizeof chunks.len[0]), ==, 0);
  /* everything before the new trailer (prefix and kept chunks) untouched */
  g_assert_cmpint (memcmp (copy, data, again.trailer_offset), ==, 0);
  g_free (copy);
  return 0;
}
