/* gst-octopus point clouds: a PLY reader (ASCII, binary little and big
 * endian) from memory.  Reads the "vertex" element's x, y, z and, when
 * present, red, green, blue (u8, or floats in 0..1); skips every other
 * element and property, lists included.  Errors name the line (header and
 * ASCII body) or the byte offset (binary body) and the reason. */
#pragma once

#include "pc-point.h"

G_BEGIN_DECLS

#define OCTO_PC_PLY_ERROR (octo_pc_ply_error_quark ())
GQuark octo_pc_ply_error_quark (void);

/* The colour of points in files without one. */
#define OCTO_PC_PLY_DEFAULT_GREY 200

/* Parses @len bytes of a PLY file; returns the vertices as an array of
 * OctoPcPoint, or NULL with @error set ("line 7: ..." or "byte offset
 * 1234: ..."). */
GArray *octo_pc_ply_parse (const guint8 *data, gsize len, GError **error);

/* Writes @n points as binary little-endian PLY (x, y, z float; red,
 * green, blue uchar), with one "comment" header line per string of the
 * NULL-terminated @comments (may be NULL). */
GBytes *octo_pc_ply_write (const OctoPcPoint *pts, gsize n,
    const gchar *const *comments);

/* The value of the first "comment KEY VALUE" header line with @key (as
 * octo_pc_ply_write writes them), stripped; NULL if the header has none or
 * does not end within its first OCTO_PC_PLY_COMMENT_SCAN bytes. */
#define OCTO_PC_PLY_COMMENT_SCAN 65536
gchar *octo_pc_ply_comment (const guint8 *data, gsize len, const gchar *key);

G_END_DECLS
