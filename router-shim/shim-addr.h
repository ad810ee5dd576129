/* octopus-shim: "ADDR:PORT" parsing and printing (IPv4, or [IPv6]:PORT). */
#pragma once

#include <glib.h>
#include <sys/socket.h>

typedef struct {
  struct sockaddr_storage ss;
  socklen_t len;
} ShimAddr;

gboolean shim_addr_parse (const gchar *text, ShimAddr *out, GError **error);
/* "1.2.3.4:5" or "[::1]:5" into @buf (at least SHIM_ADDR_STRLEN bytes). */
#define SHIM_ADDR_STRLEN 64
const gchar *shim_addr_to_string (const ShimAddr *addr, gchar *buf);
/* A 64-bit identity for the engine's per-sender stream keys. */
guint64 shim_addr_key (const ShimAddr *addr);
/* IP + UDP header bytes a datagram of this family adds on the link. */
guint32 shim_addr_overhead (const ShimAddr *addr);
