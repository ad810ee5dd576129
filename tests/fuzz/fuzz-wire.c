/* Fuzzes the header parser: it must never read out of bounds, must name a
 * reason for every rejection, and whatever it accepts must pack back to the
 * same 12 bytes. */
#include "octo-wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* a heap copy of exactly @size bytes so ASan sees any overread */
  guint8 *copy = g_memdup2 (data, size);
  guint8 packed[OCTO_WIRE_HEADER_LEN];
  OctoHeader header;
  OctoParseResult result = octo_header_parse (copy, size, &header);

  if (result >= OCTO_PARSE_N_RESULTS)
    abort ();
  if (octo_parse_result_to_string (result) == NULL)
    abort ();
  if (result == OCTO_PARSE_OK) {
    if (!octo_header_pack (&header, packed))
      abort ();
    if (memcmp (packed, copy, OCTO_WIRE_HEADER_LEN) != 0)
      abort ();
  }
  g_free (copy);
  return 0;
}
