/* Fuzzes the RTP side of the core and the shim's classifier: demultiplexing,
 * the RTP header and RFC 8285 extension walk, id learning, and the IP/UDP
 * parsing of --shell.  Nothing may read
 * out of bounds; every element found lies inside the packet; whatever header
 * is accepted packs back to the element's 12 bytes. */
#include "octo-rtpext.h"
#include "shim-classify.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
check_elements (const guint8 *copy, gsize size, const OctoRtpPacket *rtp)
{
  guint8 id, packed[OCTO_RTPEXT_LEN];
  const guint8 *edata;
  gsize elen;
  OctoHeader h;

  for (guint i = 0; octo_rtp_ext_element (rtp, i, &id, &edata, &elen); i++) {
    if (edata < copy || edata + elen > copy + size)
      abort ();
    if (octo_rtp_get_header (rtp, id, &h) == OCTO_PARSE_OK) {
      if (!octo_header_pack (&h, packed))
        abort ();
      /* the first element with this id is the one read */
      guint8 first_id;
      const guint8 *first_data;
      gsize first_len;
      for (guint j = 0; octo_rtp_ext_element (rtp, j, &first_id, &first_data,
              &first_len); j++) {
        if (first_id == id) {
          if (first_len != OCTO_RTPEXT_LEN ||
              memcmp (packed, first_data, OCTO_RTPEXT_LEN) != 0)
            abort ();
          break;
        }
      }
    }
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* a heap copy of exactly @size bytes so ASan sees any overread */
  guint8 *copy = g_memdup2 (data, size);
  OctoRtpPacket rtp;
  OctoRtpParseResult r;
  OctoRtpextLearner learner;
  ShimClassifier given, learning;
  OctoPacket op = { 0 };
  ShimAddr source;

  if (octo_dgram_classify (copy, size) >= OCTO_DGRAM_N_KINDS)
    abort ();
  r = octo_rtp_parse (copy, size, &rtp);
  if (r >= OCTO_RTP_PARSE_N_RESULTS || !octo_rtp_parse_result_to_string (r))
    abort ();
  if (r == OCTO_RTP_PARSE_OK) {
    if (rtp.ext && (rtp.ext < copy || rtp.ext + rtp.ext_len > copy + size))
      abort ();
    check_elements (copy, size, &rtp);
    octo_rtpext_learner_init (&learner);
    for (guint i = 0; i < OCTO_RTPEXT_LEARN_PACKETS; i++)
      octo_rtpext_learner_feed (&learner, &rtp);
  }
  shim_classifier_init (&given, size > 0 ? copy[size - 1] : 1);
  shim_classifier_init (&learning, OCTO_RTPEXT_ID_NONE);
  for (guint i = 0; i < OCTO_RTPEXT_LEARN_PACKETS; i++) {
    if (shim_classify (&given, copy, size, 1, &op) >= OCTO_PARSE_N_RESULTS ||
        shim_classify (&learning, copy, size, 1, &op) >=
        OCTO_PARSE_N_RESULTS)
      abort ();
  }
  /* the same bytes as a whole IP packet (--shell) */
  gssize payload = shim_ip_udp_payload (copy, size, &source);
  if (payload > (gssize) size)
    abort ();
  if (shim_classify_ip (&learning, copy, size, &source, &op) >=
      OCTO_PARSE_N_RESULTS)
    abort ();
  g_free (copy);
  return 0;
}
