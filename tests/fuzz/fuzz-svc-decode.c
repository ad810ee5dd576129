/* Fuzzes octopussvcdec's decode path: crafted VP9 or VP8 layers go through
 * the header size check (core/svc-frame-size.c) into libvpx.  Run with
 * -malloc_limit_mb=64: no layer may make libvpx allocate more (the default
 * max-frame-pixels bounds what a header can ask for).
 *
 * Input: byte 0 bit 0 picks the codec (0 VP9, 1 VP8); then layers, each a
 * little-endian u16 length and that many bytes (the last one cut short by
 * the input's end). */
#include "svc-vpx-decoder.h"

#include <stdint.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  SvcVpxDecoder *dec;
  gsize offset = 1;

  if (size < 1)
    return 0;
  dec = svc_vpx_decoder_new (data[0] & 1 ? SVC_CODEC_VP8 : SVC_CODEC_VP9, 1,
      NULL);
  while (offset + 2 <= size) {
    gsize len = data[offset] | (gsize) data[offset + 1] << 8;
    /* a heap copy of exactly the layer so ASan sees any overread */
    guint8 *layer;
    GError *error = NULL;

    offset += 2;
    len = MIN (len, size - offset);
    layer = g_memdup2 (data + offset, len);
    svc_vpx_decoder_decode (dec, layer, len, &error);
    g_clear_error (&error);
    g_free (layer);
    offset += len;
  }
  svc_vpx_decoder_free (dec);
  return 0;
}
