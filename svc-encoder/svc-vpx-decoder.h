/* svc-encoder: the libvpx side of octopussvcdec — decodes the layers it is
 * given, one at a time, and keeps the newest picture. */
#pragma once

#include <glib.h>
#include <vpx/vpx_image.h>

#include "svc-vpx-encoder.h"

G_BEGIN_DECLS

typedef struct _SvcVpxDecoder SvcVpxDecoder;

#define SVC_DECODER_ERROR g_quark_from_static_string ("svc-decoder-error")
typedef enum {
  SVC_DECODER_ERROR_FAILED,     /* libvpx rejected the data */
  SVC_DECODER_ERROR_TOO_LARGE,  /* a header declares more than the limit */
} SvcDecoderError;

SvcVpxDecoder *svc_vpx_decoder_new (SvcCodec codec, guint threads,
    GError **error);
void svc_vpx_decoder_free (SvcVpxDecoder *dec);

/* Buffers whose headers declare more pixels than this (coded or render
 * size, core/svc-frame-size.h) are refused before libvpx sees them;
 * default SVC_DEFAULT_MAX_FRAME_PIXELS. */
void svc_vpx_decoder_set_max_frame_pixels (SvcVpxDecoder *dec,
    guint64 max_pixels);

/* Decodes one layer (VP9) or frame (VP8); returns the picture it produced,
 * owned by the decoder and valid until the next call, or NULL with @error
 * set when libvpx rejects the data (SVC_DECODER_ERROR_FAILED) or a header
 * declares a frame over the limit (SVC_DECODER_ERROR_TOO_LARGE; libvpx is
 * not called).  A VP9 buffer without a superframe index is decoded as one
 * frame, as the sizes checked are its first frame's.  A layer that produces
 * no picture returns NULL without error. */
const vpx_image_t *svc_vpx_decoder_decode (SvcVpxDecoder *dec,
    const guint8 *data, gsize size, GError **error);

/* Whether @data is a key frame of VP9 or VP8 (libvpx's stream peek), and
 * which: how octopussvcdec tells the codec when no caps say it. */
gboolean svc_vpx_peek_keyframe (const guint8 *data, gsize size,
    SvcCodec *codec);

/* VP9: the display (render) size the last decoded frame's header carries.
 * libvpx's SVC encoder writes the configured full size there in every
 * spatial layer, so a base layer already tells the top layer's size. */
gboolean svc_vpx_decoder_display_size (SvcVpxDecoder *dec, guint *width,
    guint *height);

/* VP8: the reference slots (SvcSlot bits) the last decoded frame read and
 * wrote, as its bitstream says. */
gboolean svc_vpx_decoder_vp8_references (SvcVpxDecoder *dec, guint *used,
    guint *updated);

G_END_DECLS
