/* Fuzzes the VP9 RTP payload descriptor parser (rtpvp9svcdepay and
 * rtphdrextoctopus read it from the network): no read out of bounds, and a
 * flexible-mode descriptor it accepts without SS resolutions or groups
 * writes back to the same bytes. */
#include "rtpvp9descriptor.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  guint8 *copy = g_memdup2 (data, size);
  guint8 again[32];
  RtpVp9Descriptor d;
  gsize len = rtp_vp9_descriptor_parse (copy, size, &d);

  if (len > size)
    abort ();
  /* the writer's form: flexible, 15-bit id, layers, SS without Y and G */
  gsize ss_at = 1 + 2 + 1 + (d.inter ? d.n_pdiffs : 0);
  if (len > 0 && d.flexible && d.has_picture_id && (copy[1] & 0x80) &&
      d.has_layers && (!d.has_ss || (copy[ss_at] & 0x1f) == 0) &&
      (!d.inter || d.n_pdiffs > 0)) {
    gboolean zero_pdiff = FALSE;
    for (guint i = 0; i < d.n_pdiffs; i++)
      zero_pdiff |= d.pdiff[i] == 0;
    if (!zero_pdiff) {
      gsize n = rtp_vp9_descriptor_write (&d, again, sizeof again);
      if (n != len || memcmp (again, copy, len) != 0)
        abort ();
    }
  }
  g_free (copy);
  return 0;
}
