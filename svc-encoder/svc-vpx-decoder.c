#include "svc-vpx-decoder.h"

#include "core/svc-frame-size.h"
#include "core/svc-pattern.h"

#include <string.h>
#include <vpx/vp8dx.h>
#include <vpx/vpx_decoder.h>

/* A superframe index for one frame of 4-byte size (Annex B): marker,
 * size, marker. */
#define ONE_FRAME_INDEX_MARKER (0xc0 | (4 - 1) << 3 | (1 - 1))
#define ONE_FRAME_INDEX_LEN 6

struct _SvcVpxDecoder {
  vpx_codec_ctx_t codec;
  SvcCodec kind;
  guint64 max_frame_pixels;
  GByteArray *indexed;          /* a VP9 buffer with a one-frame index added */
};

SvcVpxDecoder *
svc_vpx_decoder_new (SvcCodec codec, guint threads, GError **error)
{
  SvcVpxDecoder *dec = g_new0 (SvcVpxDecoder, 1);
  vpx_codec_dec_cfg_t cfg = { .threads = MAX (threads, 1u) };

  if (vpx_codec_dec_init (&dec->codec, codec == SVC_CODEC_VP9 ?
          vpx_codec_vp9_dx () : vpx_codec_vp8_dx (), &cfg, 0)) {
    g_set_error (error, SVC_DECODER_ERROR, 0, "libvpx decoder init: %s",
        vpx_codec_error (&dec->codec));
    g_free (dec);
    return NULL;
  }
  dec->kind = codec;
  dec->max_frame_pixels = SVC_DEFAULT_MAX_FRAME_PIXELS;
  dec->indexed = g_byte_array_new ();
  return dec;
}

void
svc_vpx_decoder_set_max_frame_pixels (SvcVpxDecoder *dec, guint64 max_pixels)
{
  dec->max_frame_pixels = max_pixels;
}

/* libvpx decodes a VP9 buffer without an index as frame after frame, the
 * next one starting where its bool decoder stopped reading: only the first
 * frame's header can be checked, so the buffer gets an index that lists
 * that one frame. */
static const guint8 *
vp9_one_frame (SvcVpxDecoder *dec, const guint8 *data, gsize *size)
{
  guint32 sizes[8];
  guint8 index[ONE_FRAME_INDEX_LEN] = { ONE_FRAME_INDEX_MARKER,
    *size & 0xff, (*size >> 8) & 0xff, (*size >> 16) & 0xff,
    (*size >> 24) & 0xff, ONE_FRAME_INDEX_MARKER
  };

  if (svc_vp9_superframe_index (data, *size, sizes) > 0)
    return data;
  g_byte_array_set_size (dec->indexed, 0);
  g_byte_array_append (dec->indexed, data, (guint) *size);
  g_byte_array_append (dec->indexed, index, sizeof index);
  *size = dec->indexed->len;
  return dec->indexed->data;
}

void
svc_vpx_decoder_free (SvcVpxDecoder *dec)
{
  if (!dec)
    return;
  vpx_codec_destroy (&dec->codec);
  g_byte_array_unref (dec->indexed);
  g_free (dec);
}

const vpx_image_t *
svc_vpx_decoder_decode (SvcVpxDecoder *dec, const guint8 *data, gsize size,
    GError **error)
{
  vpx_codec_iter_t iter = NULL;
  vpx_image_t *img, *newest = NULL;
  guint width, height;
  guint64 pixels;

  /* libvpx takes an unsigned int, and the one-frame index adds 6 bytes */
  if (size == 0 || size > G_MAXUINT32 - ONE_FRAME_INDEX_LEN) {
    g_set_error (error, SVC_DECODER_ERROR, SVC_DECODER_ERROR_FAILED,
        "cannot decode %" G_GSIZE_FORMAT " bytes", size);
    return NULL;
  }
  pixels = dec->kind == SVC_CODEC_VP9 ?
      svc_vp9_declared_pixels (data, size, &width, &height) :
      svc_vp8_declared_pixels (data, size, &width, &height);
  if (pixels > dec->max_frame_pixels) {
    g_set_error (error, SVC_DECODER_ERROR, SVC_DECODER_ERROR_TOO_LARGE,
        "a header declares a %ux%u frame, over the limit of %"
        G_GUINT64_FORMAT " pixels", width, height, dec->max_frame_pixels);
    return NULL;
  }
  if (dec->kind == SVC_CODEC_VP9)
    data = vp9_one_frame (dec, data, &size);
  if (vpx_codec_decode (&dec->codec, data, (unsigned int) size, NULL, 0)) {
    g_set_error (error, SVC_DECODER_ERROR, SVC_DECODER_ERROR_FAILED,
        "libvpx cannot decode %" G_GSIZE_FORMAT " bytes: %s", size,
        vpx_codec_error (&dec->codec));
    return NULL;
  }
  while ((img = vpx_codec_get_frame (&dec->codec, &iter)))
    newest = img;
  return newest;
}

gboolean
svc_vpx_decoder_vp8_references (SvcVpxDecoder *dec, guint *used,
    guint *updated)
{
  int used_flags = 0, updated_flags = 0;

  /* libvpx's VP8 reference flags have the values of our SvcSlot bits */
  G_STATIC_ASSERT ((int) VP8_LAST_FRAME == (int) SVC_SLOT_LAST
      && (int) VP8_GOLD_FRAME == (int) SVC_SLOT_GOLDEN
      && (int) VP8_ALTR_FRAME == (int) SVC_SLOT_ALTREF);
  if (vpx_codec_control (&dec->codec, VP8D_GET_LAST_REF_USED, &used_flags)
      || vpx_codec_control (&dec->codec, VP8D_GET_LAST_REF_UPDATES,
          &updated_flags))
    return FALSE;
  *used = (guint) used_flags;
  *updated = (guint) updated_flags;
  return TRUE;
}

static gboolean
peek_keyframe (vpx_codec_iface_t *iface, const guint8 *data, gsize size)
{
  vpx_codec_stream_info_t info = { .sz = sizeof (info) };

  return vpx_codec_peek_stream_info (iface, data, (unsigned int) size,
      &info) == VPX_CODEC_OK && info.is_kf && info.w > 0 && info.h > 0;
}

gboolean
svc_vpx_peek_keyframe (const guint8 *data, gsize size, SvcCodec *codec)
{
  /* VP9 first: VP8's peek checks nothing but the start code of key frames,
   * VP9's the frame marker and the sync code */
  if (size == 0 || size > G_MAXUINT32)
    return FALSE;
  if (peek_keyframe (vpx_codec_vp9_dx (), data, size))
    *codec = SVC_CODEC_VP9;
  else if (peek_keyframe (vpx_codec_vp8_dx (), data, size))
    *codec = SVC_CODEC_VP8;
  else
    return FALSE;
  return TRUE;
}

gboolean
svc_vpx_decoder_display_size (SvcVpxDecoder *dec, guint *width,
    guint *height)
{
  int size[2] = { 0, 0 };

  if (vpx_codec_control (&dec->codec, VP9D_GET_DISPLAY_SIZE, size)
      || size[0] <= 0 || size[1] <= 0)
    return FALSE;
  *width = (guint) size[0];
  *height = (guint) size[1];
  return TRUE;
}
