/* libFuzzer target: QUCO chunk trailers from untrusted datagrams.  Parsing
 * never reads outside the buffer, and trimming a parsed datagram leaves a
 * datagram that parses again with the same chunk table. */
#include "qdisc/octo-chunks.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  OctoChunks chunks, again;
  guint8 *copy;
  guint cut;

  if (!octo_chunks_parse (data, size, &chunks))
    return 0;
  g_assert_cmpuint (chunks.chunks_offset, <=, chunks.trailer_offset);
  g_assert_cmpuint (chunks.trailer_offset +
      octo_chunks_trailer_size (chunks.n_chunks), ==, size);

  /* Exact-size copy so ASan sees any overrun. */
  copy = g_memdup2 (data, size);
  gsize len = octo_chunks_trim (copy, size, &chunks, size % 4, &cut);
  g_assert_true (octo_chunks_parse (copy, len, &again));
  g_assert_cmpuint (again.n_chunks, ==, chunks.n_chunks);
  g_assert_cmpuint (again.trimmed, ==, chunks.trimmed + cut);
  g_assert_cmpuint (again.chunks_offset, ==, chunks.chunks_offset);
  g_assert_cmpint (memcmp (again.len, chunks.len,
          chunks.n_chunks * sizeof chunks.len[0]), ==, 0);
  g_assert_cmpint (memcmp (copy, data, chunks.chunks_offset), ==, 0);
  g_free (copy);
  return 0;
}
