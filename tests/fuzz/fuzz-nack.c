/* Fuzzes the QUCO NACK parser: no out-of-bounds read, a named reason for
 * every rejection, and whatever it accepts writes back to the same bytes. */
#include "transport/octo-packet.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  guint8 *copy = g_memdup2 (data, size);
  guint8 back[OCTO_NACK_LEN];
  OctoNack nack;
  OctoNackParseResult result = octo_nack_parse (copy, size, &nack);

  if (result >= OCTO_NACK_N_RESULTS ||
      strcmp (octo_nack_parse_result_to_string (result), "invalid") == 0)
    abort ();
  if (result == OCTO_NACK_OK &&
      (octo_nack_write (&nack, back, sizeof back) != size ||
          memcmp (back, copy, size) != 0))
    abort ();
  g_free (copy);
  return 0;
}
