#include "octo-chunks.h"

#include <string.h>

gboolean
octo_chunks_parse (const guint8 *data, gsize len, OctoChunks *out)
{
  gsize present = 0;

  if (len < octo_chunks_trailer_size (1) ||
      data[len - 2] != OCTO_CHUNKS_MAGIC0 ||
      data[len - 1] != OCTO_CHUNKS_MAGIC1)
    return FALSE;
  out->n_chunks = data[len - 3] >> 4;
  out->trimmed = data[len - 3] & 0x0f;
  if (out->n_chunks == 0 || out->trimmed > out->n_chunks ||
      len < octo_chunks_trailer_size (out->n_chunks))
    return FALSE;
  out->trailer_offset = len - octo_chunks_trailer_size (out->n_chunks);
  for (guint i = 0; i < out->n_chunks; i++) {
    const guint8 *p = data + out->trailer_offset + 2 * i;
    out->len[i] = (guint16) (p[0] << 8 | p[1]);
    if (i < out->n_chunks - out->trimmed)
      present += out->len[i];
  }
  if (present > out->trailer_offset)
    return FALSE;
  out->chunks_offset = out->trailer_offset - present;
  return TRUE;
}

gboolean
octo_chunks_write_trailer (guint8 *out, const guint16 *lens, guint n_chunks)
{
  if (n_chunks == 0 || n_chunks > OCTO_CHUNKS_MAX)
    return FALSE;
  for (guint i = 0; i < n_chunks; i++) {
    out[2 * i] = lens[i] >> 8;
    out[2 * i + 1] = lens[i] & 0xff;
  }
  out[2 * n_chunks] = (guint8) (n_chunks << 4);
  out[2 * n_chunks + 1] = OCTO_CHUNKS_MAGIC0;
  out[2 * n_chunks + 2] = OCTO_CHUNKS_MAGIC1;
  return TRUE;
}

gsize
octo_chunks_trim (guint8 *data, gsize len, const OctoChunks *chunks,
    guint count, guint *trimmed_now)
{
  guint present = chunks->n_chunks - chunks->trimmed;
  guint cut_chunks = MIN (count, present);
  gsize cut = 0;
  gsize trailer = octo_chunks_trailer_size (chunks->n_chunks);

  for (guint i = present - cut_chunks; i < present; i++)
    cut += chunks->len[i];
  memmove (data + chunks->trailer_offset - cut, data + chunks->trailer_offset,
      trailer);
  len -= cut;
  data[len - 3] = (guint8) (chunks->n_chunks << 4 |
      (chunks->trimmed + cut_chunks));
  *trimmed_now = cut_chunks;
  return len;
}
