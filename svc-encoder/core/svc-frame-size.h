/* svc-encoder core: the frame sizes a VP9 or VP8 buffer's headers declare,
 * read before libvpx sees the buffer.  libvpx allocates its frame buffers
 * and per-block context from a header's size (VP9: up to 65536 × 65536,
 * VP8: 16383 × 16383), so a few crafted bytes would make it allocate
 * gigabytes; octopussvcdec refuses a buffer that declares more pixels than
 * its max-frame-pixels (docs/design.md §5, the SVC receiver).
 *
 * VP9 (spec v0.6 §6.2): the uncompressed header's frame_size() of key and
 * intra-only frames, frame_size_with_refs() of inter frames (a size taken
 * from a reference declares nothing new), and render_size(); every frame
 * of a superframe index (Annex B) is read.  VP8 (RFC 6386 §9.1): the key
 * frame's width and height. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* 4096 × 2176 (DCI 4K rounded to VP9's 64-pixel superblocks): libvpx then
 * allocates under 64 MB at once */
#define SVC_DEFAULT_MAX_FRAME_PIXELS (4096u * 2176u)

/* VP9 superframe index (Annex B): up to 8 frames.  Returns how many frames
 * the index at the end of @data lists (their sizes in @sizes), or 0 if
 * @data has no valid index (then libvpx decodes it as one frame). */
guint svc_vp9_superframe_index (const guint8 *data, gsize size,
    guint32 sizes[8]);

/* The largest width × height a header in @data declares, coded or render
 * size, as @width and @height; 0 if none declares one (an inter frame, a
 * shown existing frame, or a header too short to say, which libvpx
 * rejects).  VP9: every frame of a superframe, else the frame at the
 * start. */
guint64 svc_vp9_declared_pixels (const guint8 *data, gsize size,
    guint *width, guint *height);
guint64 svc_vp8_declared_pixels (const guint8 *data, gsize size,
    guint *width, guint *height);

G_END_DECLS
