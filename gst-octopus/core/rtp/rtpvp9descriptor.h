/* The VP9 RTP payload descriptor (RFC 9628 §4.2), pure pack and parse for
 * rtpvp9svcpay, rtpvp9svcdepay and rtphdrextoctopus.  No I/O. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define RTP_VP9_MAX_PDIFFS 3
#define RTP_VP9_MAX_SPATIAL_LAYERS 8
#define RTP_VP9_PICTURE_ID_MASK 0x7fff

typedef struct {
  gboolean inter;               /* P: inter-picture predicted */
  gboolean flexible;            /* F */
  gboolean start, end;          /* B, E: first/last packet of a layer frame */
  gboolean not_reference;       /* Z: no upper spatial layer uses it */
  gboolean has_picture_id;      /* I (written as 15 bits) */
  guint16 picture_id;
  gboolean has_layers;          /* L */
  guint8 tid, sid;
  gboolean switch_up;           /* U */
  gboolean inter_layer;         /* D: depends on the lower spatial layer */
  guint8 tl0_pic_idx;           /* non-flexible mode only (parse) */
  guint n_pdiffs;               /* flexible mode, with P */
  guint8 pdiff[RTP_VP9_MAX_PDIFFS];
  gboolean has_ss;              /* V: scalability structure follows */
  guint8 ss_spatial_layers;     /* N_S + 1 (written without resolutions) */
} RtpVp9Descriptor;

/* Bytes rtp_vp9_descriptor_write() needs. */
gsize rtp_vp9_descriptor_size (const RtpVp9Descriptor *d);
/* Writes flexible-mode descriptors; returns the bytes written, 0 if @size
 * is too small or a field is out of range. */
gsize rtp_vp9_descriptor_write (const RtpVp9Descriptor *d, guint8 *out,
    gsize size);
/* Parses any descriptor (flexible or not, any SS); returns its length, 0
 * if malformed or truncated.  Never reads past @len. */
gsize rtp_vp9_descriptor_parse (const guint8 *data, gsize len,
    RtpVp9Descriptor *out);

/* The receiver's frame ids from 15-bit picture ids: the first id as is,
 * then each id as the next one at or after the previous (its distance
 * modulo 2^15), so a reordered older id reads as ~32767 pictures later.
 * Zero-initialise (memset) to start. */
typedef struct {
  gboolean started;
  guint16 last_picture_id;
  guint32 frame_id;
} RtpVp9Unwrap;

guint32 rtp_vp9_unwrap (RtpVp9Unwrap *u, guint16 picture_id);

G_END_DECLS

G_BEGIN_DECLS

/* Flexible mode's picture ids and references for a sender that knows only
 * each layer frame's ids: a picture per frame id; a TL0 frame references
 * the previous TL0 frame of its spatial layer, a TLt frame the most recent
 * one of a lower temporal layer (the structures of docs/design.md); unknown
 * (before any key frame): the previous picture. */
typedef struct {
  gboolean started;
  guint32 frame_id;
  guint16 picture_id;
  gboolean seen[RTP_VP9_MAX_SPATIAL_LAYERS][8];
  guint16 last_pid[RTP_VP9_MAX_SPATIAL_LAYERS][8];
} RtpVp9Pictures;

void rtp_vp9_pictures_init (RtpVp9Pictures *p, guint16 first_picture_id);
/* Sets @d's picture id, P and P_DIFF for layer frame (@sid, @tid) of input
 * frame @frame_id (@sid < RTP_VP9_MAX_SPATIAL_LAYERS, @tid < 8). */
void rtp_vp9_pictures_next (RtpVp9Pictures *p, guint32 frame_id, guint8 sid,
    guint8 tid, gboolean keyframe, RtpVp9Descriptor *d);

G_END_DECLS
