/* The frame sizes VP9 and VP8 headers declare (svc-frame-size.h). */
#include "svc-frame-size.h"

#define VP9_FRAME_MARKER 2
#define VP9_SYNC_CODE 0x498342
#define VP9_CS_RGB 7

typedef struct {
  const guint8 *data;
  gsize size, bit;
  gboolean overrun;             /* read past the end: the header is cut */
} BitReader;

static guint
read_bits (BitReader *r, guint n)
{
  guint v = 0;

  for (guint i = 0; i < n; i++, r->bit++) {
    if (r->bit / 8 >= r->size) {
      r->overrun = TRUE;
      return 0;
    }
    v = v << 1 | ((r->data[r->bit / 8] >> (7 - r->bit % 8)) & 1);
  }
  return v;
}

static void
keep_largest (guint w, guint h, guint64 *pixels, guint *width, guint *height)
{
  if ((guint64) w * h > *pixels) {
    *pixels = (guint64) w * h;
    *width = w;
    *height = h;
  }
}

/* color_config() (§6.2.2) */
static void
skip_color_config (BitReader *r, guint profile)
{
  if (profile >= 2)
    read_bits (r, 1);           /* ten_or_twelve_bit */
  if (read_bits (r, 3) != VP9_CS_RGB) {
    read_bits (r, 1);           /* color_range */
    if (profile == 1 || profile == 3)
      read_bits (r, 3);         /* subsampling_x, _y, reserved_zero */
  } else if (profile == 1 || profile == 3) {
    read_bits (r, 1);           /* reserved_zero */
  }
}

/* frame_size() then render_size() (§6.2.3, §6.2.4); @explicit_size FALSE:
 * the coded size came from a reference, only render_size() follows. */
static void
read_sizes (BitReader *r, gboolean explicit_size, guint64 *pixels,
    guint *width, guint *height)
{
  if (explicit_size) {
    guint w = read_bits (r, 16) + 1, h = read_bits (r, 16) + 1;
    if (r->overrun)
      return;
    keep_largest (w, h, pixels, width, height);
  }
  if (read_bits (r, 1)) {       /* render_and_frame_size_different */
    guint w = read_bits (r, 16) + 1, h = read_bits (r, 16) + 1;
    if (!r->overrun)
      keep_largest (w, h, pixels, width, height);
  }
}

/* One frame's uncompressed header, up to its sizes. */
static void
vp9_frame_sizes (const guint8 *data, gsize size, guint64 *pixels,
    guint *width, guint *height)
{
  BitReader r = { data, size, 0, FALSE };
  guint profile;
  gboolean key, show_frame, error_resilient, intra_only = FALSE;

  if (read_bits (&r, 2) != VP9_FRAME_MARKER)
    return;
  profile = read_bits (&r, 1);
  profile |= read_bits (&r, 1) << 1;
  if (profile == 3)
    read_bits (&r, 1);          /* reserved_zero */
  if (read_bits (&r, 1))        /* show_existing_frame: no new size */
    return;
  key = read_bits (&r, 1) == 0;
  show_frame = read_bits (&r, 1);
  error_resilient = read_bits (&r, 1);
  if (key) {
    if (read_bits (&r, 24) != VP9_SYNC_CODE)
      return;
    skip_color_config (&r, profile);
    read_sizes (&r, TRUE, pixels, width, height);
    return;
  }
  if (!show_frame)
    intra_only = read_bits (&r, 1);
  if (!error_resilient)
    read_bits (&r, 2);          /* reset_frame_context */
  if (intra_only) {
    if (read_bits (&r, 24) != VP9_SYNC_CODE)
      return;
    if (profile > 0)
      skip_color_config (&r, profile);
    read_bits (&r, 8);          /* refresh_frame_flags */
    read_sizes (&r, TRUE, pixels, width, height);
    return;
  }
  read_bits (&r, 8);            /* refresh_frame_flags */
  read_bits (&r, 3 * 4);        /* ref_frame_idx, ref_frame_sign_bias */
  /* frame_size_with_refs(): a found_ref takes a reference's size */
  for (guint i = 0; i < 3 && !r.overrun; i++)
    if (read_bits (&r, 1)) {
      read_sizes (&r, FALSE, pixels, width, height);
      return;
    }
  read_sizes (&r, TRUE, pixels, width, height);
}

guint
svc_vp9_superframe_index (const guint8 *data, gsize size, guint32 sizes[8])
{
  guint8 marker;
  guint frames, mag;
  gsize index_size;

  if (size == 0)
    return 0;
  marker = data[size - 1];
  if ((marker & 0xe0) != 0xc0)
    return 0;
  frames = (marker & 0x7) + 1;
  mag = ((marker >> 3) & 0x3) + 1;
  index_size = 2 + mag * frames;
  if (size < index_size || data[size - index_size] != marker)
    return 0;
  for (guint i = 0; i < frames; i++) {
    const guint8 *p = data + size - index_size + 1 + i * mag;
    guint32 s = 0;
    for (guint b = 0; b < mag; b++)
      s |= (guint32) p[b] << (8 * b);
    sizes[i] = s;
  }
  return frames;
}

guint64
svc_vp9_declared_pixels (const guint8 *data, gsize size, guint *width,
    guint *height)
{
  guint32 sizes[8];
  guint frames = svc_vp9_superframe_index (data, size, sizes);
  guint64 pixels = 0;
  gsize offset = 0;

  *width = *height = 0;
  if (frames == 0) {
    vp9_frame_sizes (data, size, &pixels, width, height);
    return pixels;
  }
  /* libvpx decodes the listed frames one after another and stops at the
   * first that overruns the buffer */
  for (guint i = 0; i < frames && sizes[i] <= size - offset; i++) {
    vp9_frame_sizes (data + offset, sizes[i], &pixels, width, height);
    offset += sizes[i];
  }
  return pixels;
}

guint64
svc_vp8_declared_pixels (const guint8 *data, gsize size, guint *width,
    guint *height)
{
  guint w, h;

  *width = *height = 0;
  /* frame tag bit 0 clear: a key frame, whose start code 9d 01 2a follows
   * the 3-byte tag, then 14-bit width and height (2 scaling bits each) */
  if (size < 10 || (data[0] & 1) || data[3] != 0x9d || data[4] != 0x01
      || data[5] != 0x2a)
    return 0;
  w = (data[6] | data[7] << 8) & 0x3fff;
  h = (data[8] | data[9] << 8) & 0x3fff;
  *width = w;
  *height = h;
  return (guint64) w * h;
}
