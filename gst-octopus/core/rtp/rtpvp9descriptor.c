/* VP9 RTP payload descriptor (RFC 9628 §4.2):
 *
 *   |I|P|L|F|B|E|V|Z|            always
 *   |M| PICTURE ID  | EXT PID    I (M: 15-bit id)
 *   | TID |U| SID |D|            L
 *   |   TL0PICIDX   |            L and not F
 *   | P_DIFF      |N|            P and F, up to 3
 *   SS                           V
 */
#include "rtpvp9descriptor.h"

#include <string.h>

enum {
  BIT_I = 0x80, BIT_P = 0x40, BIT_L = 0x20, BIT_F = 0x10,
  BIT_B = 0x08, BIT_E = 0x04, BIT_V = 0x02, BIT_Z = 0x01,
};

gsize
rtp_vp9_descriptor_size (const RtpVp9Descriptor *d)
{
  return 1 + (d->has_picture_id ? 2 : 0) + (d->has_layers ? 1 : 0) +
      (d->inter ? d->n_pdiffs : 0) + (d->has_ss ? 1 : 0);
}

gsize
rtp_vp9_descriptor_write (const RtpVp9Descriptor *d, guint8 *out, gsize size)
{
  gsize need = rtp_vp9_descriptor_size (d), i = 0;

  if (size < need || d->tid > 7 || d->sid > 7 || d->n_pdiffs >
      RTP_VP9_MAX_PDIFFS || (d->inter && d->n_pdiffs == 0) ||
      (d->has_ss && (d->ss_spatial_layers < 1 ||
              d->ss_spatial_layers > RTP_VP9_MAX_SPATIAL_LAYERS)))
    return 0;
  out[i++] = (guint8) ((d->has_picture_id ? BIT_I : 0) |
      (d->inter ? BIT_P : 0) | (d->has_layers ? BIT_L : 0) | BIT_F |
      (d->start ? BIT_B : 0) | (d->end ? BIT_E : 0) |
      (d->has_ss ? BIT_V : 0) | (d->not_reference ? BIT_Z : 0));
  if (d->has_picture_id) {
    guint16 pid = d->picture_id & RTP_VP9_PICTURE_ID_MASK;
    out[i++] = (guint8) (0x80 | pid >> 8);
    out[i++] = pid & 0xff;
  }
  if (d->has_layers)
    out[i++] = (guint8) (d->tid << 5 | (d->switch_up ? 0x10 : 0) |
        d->sid << 1 | (d->inter_layer ? 1 : 0));
  for (guint k = 0; d->inter && k < d->n_pdiffs; k++) {
    if (d->pdiff[k] == 0 || d->pdiff[k] > 127)
      return 0;
    out[i++] = (guint8) (d->pdiff[k] << 1 | (k + 1 < d->n_pdiffs ? 1 : 0));
  }
  if (d->has_ss)            /* N_S, no resolutions (Y = 0), no group (G = 0) */
    out[i++] = (guint8) ((d->ss_spatial_layers - 1) << 5);
  return i;
}

/* The scalability structure at @data; its length, or 0 if truncated. */
static gsize
parse_ss (const guint8 *data, gsize len, RtpVp9Descriptor *out)
{
  gsize i = 1;

  if (len < 1)
    return 0;
  out->ss_spatial_layers = (data[0] >> 5) + 1;
  if (data[0] & 0x10)           /* Y: width and height per layer */
    i += 4 * (gsize) out->ss_spatial_layers;
  if (data[0] & 0x08) {         /* G: the picture group */
    if (i >= len)
      return 0;
    guint n_g = data[i++];
    for (guint g = 0; g < n_g; g++) {
      if (i >= len)
        return 0;
      i += 1 + ((data[i] >> 2) & 0x03);
    }
  }
  return i <= len ? i : 0;
}

gsize
rtp_vp9_descriptor_parse (const guint8 *data, gsize len,
    RtpVp9Descriptor *out)
{
  gsize i = 1;

  memset (out, 0, sizeof *out);
  if (len < 1)
    return 0;
  guint8 b = data[0];
  out->has_picture_id = (b & BIT_I) != 0;
  out->inter = (b & BIT_P) != 0;
  out->has_layers = (b & BIT_L) != 0;
  out->flexible = (b & BIT_F) != 0;
  out->start = (b & BIT_B) != 0;
  out->end = (b & BIT_E) != 0;
  out->has_ss = (b & BIT_V) != 0;
  out->not_reference = (b & BIT_Z) != 0;
  if (out->has_picture_id) {
    if (i >= len)
      return 0;
    if (data[i] & 0x80) {
      if (i + 1 >= len)
        return 0;
      out->picture_id = (guint16) ((data[i] & 0x7f) << 8 | data[i + 1]);
      i += 2;
    } else {
      out->picture_id = data[i] & 0x7f;
      i++;
    }
  }
  if (out->has_layers) {
    if (i >= len)
      return 0;
    out->tid = data[i] >> 5;
    out->switch_up = (data[i] & 0x10) != 0;
    out->sid = (data[i] >> 1) & 0x07;
    out->inter_layer = data[i] & 1;
    i++;
    if (!out->flexible) {
      if (i >= len)
        return 0;
      out->tl0_pic_idx = data[i++];
    }
  }
  if (out->flexible && out->inter) {
    gboolean more = TRUE;
    while (more) {
      if (i >= len || out->n_pdiffs == RTP_VP9_MAX_PDIFFS)
        return 0;
      out->pdiff[out->n_pdiffs++] = data[i] >> 1;
      more = data[i] & 1;
      i++;
    }
  }
  if (out->has_ss) {
    gsize ss = parse_ss (data + i, len - i, out);
    if (ss == 0)
      return 0;
    i += ss;
  }
  return i;
}

void
rtp_vp9_pictures_init (RtpVp9Pictures *p, guint16 first_picture_id)
{
  memset (p, 0, sizeof *p);
  p->picture_id = first_picture_id & RTP_VP9_PICTURE_ID_MASK;
}

void
rtp_vp9_pictures_next (RtpVp9Pictures *p, guint32 frame_id, guint8 sid,
    guint8 tid, gboolean keyframe, RtpVp9Descriptor *d)
{
  guint best = G_MAXUINT;

  if (p->started && frame_id != p->frame_id)
    p->picture_id = (p->picture_id + 1) & RTP_VP9_PICTURE_ID_MASK;
  p->started = TRUE;
  p->frame_id = frame_id;
  if (keyframe && sid == 0)
    memset (p->seen, 0, sizeof p->seen);

  d->has_picture_id = TRUE;
  d->picture_id = p->picture_id;
  d->inter = !keyframe;
  d->n_pdiffs = 0;
  if (d->inter) {
    for (guint t = 0; t <= tid; t++) {
      if (!p->seen[sid][t] || (t == tid && tid != 0))
        continue;
      guint diff = (p->picture_id - p->last_pid[sid][t]) &
          RTP_VP9_PICTURE_ID_MASK;
      if (diff > 0 && diff < best)
        best = diff;
    }
    d->n_pdiffs = 1;
    d->pdiff[0] = best <= 127 ? (guint8) best : 1;
  }
  p->seen[sid][tid] = TRUE;
  p->last_pid[sid][tid] = p->picture_id;
}

guint32
rtp_vp9_unwrap (RtpVp9Unwrap *u, guint16 picture_id)
{
  picture_id &= RTP_VP9_PICTURE_ID_MASK;
  if (!u->started)
    u->frame_id = picture_id;
  else
    u->frame_id += (picture_id - u->last_picture_id) &
        RTP_VP9_PICTURE_ID_MASK;
  u->started = TRUE;
  u->last_picture_id = picture_id;
  return u->frame_id;
}
