/* gst-octopus core: big-endian fields of the transport's packets, read and
 * written at any alignment. */
#pragma once

#include <glib.h>

static inline void
octo_put_u16 (guint8 *p, guint16 v)
{
  p[0] = v >> 8;
  p[1] = v;
}

static inline void
octo_put_u32 (guint8 *p, guint32 v)
{
  p[0] = v >> 24;
  p[1] = v >> 16;
  p[2] = v >> 8;
  p[3] = v;
}

static inline guint16
octo_get_u16 (const guint8 *p)
{
  return ((guint16) p[0] << 8) | p[1];
}

static inline guint32
octo_get_u32 (const guint8 *p)
{
  return ((guint32) p[0] << 24) | ((guint32) p[1] << 16) |
      ((guint32) p[2] << 8) | p[3];
}
