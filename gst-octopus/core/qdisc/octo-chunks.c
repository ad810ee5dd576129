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

/* memmove for a trailer of 3 to 6 chunks (9..15 bytes), inline: two
 * overlapping 8-byte words, both read before either is written.  The
 * library call costs a trimming queue more than the rest of the move. */
static inline void
move_trailer (guint8 *dst, const guint8 *src, gsize n)
{
  if (n >= 8 && n <= 16) {
    guint64 head, tail;
    memcpy (&head, src, 8);
    memcpy (&tail, src + n - 8, 8);
    memcpy (dst, &head, 8);
    memcpy (dst + n - 8, &tail, 8);
  } else {
    memmove (dst, src, n);
  }
}

/* One pass over the trailer, as a queue trims every arriving packet: the
 * checks are octo_chunks_parse()'s, without filling an OctoChunks. */
gboolean
octo_chunks_trim (guint8 *data, gsize *len, guint count, guint *trimmed_now)
{
  gsize size = *len, trailer, trailer_offset, present_bytes = 0, cut = 0;
  guint n_chunks, trimmed, present, keep;

  *trimmed_now = 0;
  if (size < octo_chunks_trailer_size (1) ||
      data[size - 2] != OCTO_CHUNKS_MAGIC0 ||
      data[size - 1] != OCTO_CHUNKS_MAGIC1)
    return FALSE;
  n_chunks = data[size - 3] >> 4;
  trimmed = data[size - 3] & 0x0f;
  trailer = octo_chunks_trailer_size (n_chunks);
  if (n_chunks == 0 || trimmed > n_chunks || size < trailer)
    return FALSE;
  trailer_offset = size - trailer;
  present = n_chunks - trimmed;
  keep = present - MIN (count, present);
  for (guint i = 0; i < present; i++) {
    const guint8 *p = data + trailer_offset + 2 * i;
    gsize chunk = (gsize) (p[0] << 8 | p[1]);
    present_bytes += chunk;
    if (i >= keep)
      cut += chunk;
  }
  if (present_bytes > trailer_offset)
    return FALSE;
  if (keep == present)
    return TRUE;
  move_trailer (data + trailer_offset - cut, data + trailer_offset, trailer);
  size -= cut;
  data[size - 3] = (guint8) (n_chunks << 4 | (trimmed + present - keep));
  *len = size;
  *trimmed_now = present - keep;
  return TRUE;
}
