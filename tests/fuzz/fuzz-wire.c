/* Fuzzes the header parser: it must never read out of bounds, must name a
 * reason for every rejection, and whatever it accepts must pack back to the
 * same 12 bytes.  The cached parser, primed with the input's first 12 bytes,
 * must parse the rest exactly as the plain one does. */
#include "octo-wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static gboolean
same_header (const OctoHeader *a, const OctoHeader *b)
{
  return a->msg_id == b->msg_id && a->stream_id == b->stream_id
      && a->slack_ms == b->slack_ms
      && a->link_bitrate_threshold_bps == b->link_bitrate_threshold_bps
      && a->priority == b->priority
      && a->priority_threshold == b->priority_threshold
      && a->first == b->first && a->last == b->last && a->drop == b->drop;
}

static void
check_cached_parse (const guint8 *data, gsize size)
{
  OctoHeaderCache cache;
  OctoHeader plain, cached;
  guint8 *rest;
  OctoParseResult result;

  if (size < OCTO_WIRE_HEADER_LEN)
    return;
  octo_header_cache_init (&cache);
  octo_header_parse_cached (&cache, data, OCTO_WIRE_HEADER_LEN, &cached);
  rest = g_memdup2 (data + OCTO_WIRE_HEADER_LEN, size - OCTO_WIRE_HEADER_LEN);
  result = octo_header_parse (rest, size - OCTO_WIRE_HEADER_LEN, &plain);
  if (octo_header_parse_cached (&cache, rest, size - OCTO_WIRE_HEADER_LEN,
          &cached) != result)
    abort ();
  if (result == OCTO_PARSE_OK && !same_header (&plain, &cached))
    abort ();
  g_free (rest);
}

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
  check_cached_parse (copy, size);
  g_free (copy);
  return 0;
}
