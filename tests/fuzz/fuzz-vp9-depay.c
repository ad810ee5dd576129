/* Fuzzes what rtpvp9svcdepay does with a packet's payload: the VP9 payload
 * descriptor parse and the picture-id unwrap into frame ids, over a
 * sequence of packets (2-byte length, then the payload).  The layer-frame
 * assembly itself lives in the element (gstrtpvp9svcdepay.c); its only
 * untrusted inputs are these two.  Nothing may read out of bounds; a frame
 * id's low 15 bits are the picture id and it moves forward by less than
 * 2^15 per picture. */
#include "rtpvp9descriptor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  RtpVp9Unwrap unwrap;
  gboolean have = FALSE;
  guint32 last = 0;
  size_t pos = 0;

  memset (&unwrap, 0, sizeof (unwrap));
  while (pos + 2 <= size) {
    size_t len = MIN ((size_t) (data[pos] << 8 | data[pos + 1]),
        size - pos - 2);
    /* a heap copy of exactly @len bytes so ASan sees any overread */
    guint8 *payload = g_memdup2 (data + pos + 2, len);
    RtpVp9Descriptor d;
    gsize desc_len = rtp_vp9_descriptor_parse (payload, len, &d);

    pos += 2 + len;
    if (desc_len > len)
      abort ();
    if (desc_len > 0 && d.has_picture_id) {
      guint32 frame_id = rtp_vp9_unwrap (&unwrap, d.picture_id);
      if ((frame_id & RTP_VP9_PICTURE_ID_MASK) != d.picture_id
          || (have && frame_id - last > RTP_VP9_PICTURE_ID_MASK))
        abort ();
      have = TRUE;
      last = frame_id;
    }
    g_free (payload);
  }
  return 0;
}
