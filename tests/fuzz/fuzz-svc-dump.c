/* Fuzzes the layer-dump parser octo-svc-quality runs on a file: it must
 * never read out of bounds, must explain every rejection, and what it
 * accepts must write back to the same header bytes. */
#include "svc-dump.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* a heap copy of exactly @size bytes so ASan sees any overread */
  guint8 *copy = g_memdup2 (data, size);
  gsize offset = 0;

  /* empty data may come as a NULL copy: no pointer arithmetic on it */
  while (offset < size) {
    SvcDumpRecord r;
    guint8 header[SVC_DUMP_RECORD_HEADER];
    GError *error = NULL;
    gssize used = svc_dump_parse_record (copy + offset, size - offset, offset,
        &r, &error);

    if (used == 0)
      abort ();
    if (used < 0) {
      if (!error || !error->message[0])
        abort ();
      g_error_free (error);
      break;
    }
    if ((gsize) used != SVC_DUMP_RECORD_HEADER + r.size
        || r.payload != copy + offset + SVC_DUMP_RECORD_HEADER)
      abort ();
    svc_dump_write_header (&r, header);
    if (memcmp (header, copy + offset, SVC_DUMP_RECORD_HEADER) != 0)
      abort ();
    offset += (gsize) used;
  }
  g_free (copy);
  return 0;
}
