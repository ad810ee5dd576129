/* gst-octopus core: QUCO chunked payloads (paper 004), docs/quco-chunks.md.
 *
 * A chunked datagram ends with a trailer that lists its chunks, most
 * important first; the chunks sit right before it, so a router trims the
 * least important ones by cutting bytes off the end and rewriting the
 * trailer.  Everything before chunk 0 (Octopus header, transport fields) is
 * never touched:
 *
 *   prefix | chunk 0 | ... | chunk n-t-1 | len 0 .. len n-1 | n<<4|t | 'Q' 'C'
 *
 * lens are big-endian 16-bit and keep describing trimmed chunks, so the
 * receiver knows exactly what it lost; t counts the trimmed (absent) chunks. */
#pragma once

#include "octo-types.h"

G_BEGIN_DECLS

#define OCTO_CHUNKS_MAX 15
#define OCTO_CHUNKS_MAGIC0 0x51   /* 'Q' */
#define OCTO_CHUNKS_MAGIC1 0x43   /* 'C' */

typedef struct {
  guint n_chunks;               /* 1..OCTO_CHUNKS_MAX */
  guint trimmed;                /* 0..n_chunks, the last ones */
  guint16 len[OCTO_CHUNKS_MAX];
  gsize chunks_offset;          /* where chunk 0 starts */
  gsize trailer_offset;         /* where the length table starts */
} OctoChunks;

static inline gsize
octo_chunks_trailer_size (guint n_chunks)
{
  return 2 * (gsize) n_chunks + 3;
}

/* FALSE unless @data ends in a consistent trailer.  Never reads outside
 * @data[0..len). */
gboolean octo_chunks_parse (const guint8 *data, gsize len, OctoChunks *out);

/* Writes the trailer for @n_chunks untrimmed chunks into @out (which must
 * hold octo_chunks_trailer_size() bytes).  FALSE if @n_chunks is 0 or above
 * OCTO_CHUNKS_MAX. */
gboolean octo_chunks_write_trailer (guint8 *out, const guint16 *lens,
    guint n_chunks);

/* Trims up to @count more chunks off @data in place, least important
 * first: *@len becomes its new length and *@trimmed_now how many chunks were
 * cut.  FALSE (nothing changed) unless @data ends in a consistent trailer,
 * exactly as octo_chunks_parse() decides.  Never reads outside
 * @data[0..*len). */
gboolean octo_chunks_trim (guint8 *data, gsize *len, guint count,
    guint *trimmed_now);

G_END_DECLS
