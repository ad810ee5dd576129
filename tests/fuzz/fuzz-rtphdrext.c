/* Fuzzes rtphdrextoctopus's read path on a received RTP packet: the
 * RFC 8285 extension walk (octo-rtpext), the Octopus header parse of each
 * element's bytes as GStreamer hands them to read() (octo-wire), and the
 * VP9 descriptor that tells a message's end.  Nothing may read out of
 * bounds; an accepted header packs back to its element's 12 bytes. */
#include "octo-rtpext.h"
#include "octo-wire.h"
#include "rtpvp9descriptor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* a heap copy of exactly @size bytes so ASan sees any overread */
  guint8 *copy = g_memdup2 (data, size);
  OctoRtpPacket rtp;
  guint8 id, packed[OCTO_WIRE_HEADER_LEN];
  const guint8 *edata;
  gsize elen;

  if (octo_rtp_parse (copy, size, &rtp) == OCTO_RTP_PARSE_OK) {
    for (guint i = 0; octo_rtp_ext_element (&rtp, i, &id, &edata, &elen);
        i++) {
      /* the element's bytes alone, as read() gets them */
      guint8 *element = g_memdup2 (edata, elen);
      OctoHeader h;
      OctoParseResult r = octo_header_parse (element, elen, &h);
      if (r >= OCTO_PARSE_N_RESULTS || !octo_parse_result_to_string (r))
        abort ();
      if (r == OCTO_PARSE_OK && (!octo_header_pack (&h, packed)
              || memcmp (packed, element, OCTO_WIRE_HEADER_LEN) != 0))
        abort ();
      g_free (element);
    }
    /* the payload follows the extension block, or the CSRCs */
    gsize at = rtp.ext ? (gsize) (rtp.ext - copy) + rtp.ext_len :
        12 + 4 * (gsize) (copy[0] & 0x0f);
    if (at < size) {
      RtpVp9Descriptor d;
      guint8 *payload = g_memdup2 (copy + at, size - at);
      if (rtp_vp9_descriptor_parse (payload, size - at, &d) > size - at)
        abort ();
      g_free (payload);
    }
  }
  g_free (copy);
  return 0;
}
