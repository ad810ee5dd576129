/* svc-encoder: frames of a video file as I420 at a given size, in order,
 * looping at the end — the source frames for scoring and benchmarks. */
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct _SvcClip SvcClip;

SvcClip *svc_clip_open (const gchar *path, guint width, guint height,
    GError **error);
void svc_clip_free (SvcClip *clip);

/* The next frame (tightly packed I420, width * height * 3 / 2 bytes, owned
 * by the clip until the next call); after the last frame of the file the
 * first one again.  NULL with @error if the file yields no frame. */
const guint8 *svc_clip_next (SvcClip *clip, GError **error);

/* Frames returned so far. */
guint64 svc_clip_position (const SvcClip *clip);

G_END_DECLS
