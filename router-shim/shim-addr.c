#include "shim-addr.h"
#include "transport/octo-packet.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

gboolean
shim_addr_parse (const gchar *text, ShimAddr *out, GError **error)
{
  const gchar *colon = strrchr (text, ':');
  gchar *host;
  struct addrinfo hints = { .ai_flags = AI_NUMERICSERV,
    .ai_socktype = SOCK_DGRAM };
  struct addrinfo *res = NULL;
  guint64 port;

  if (colon == NULL || colon == text ||
      !g_ascii_string_to_unsigned (colon + 1, 10, 0, 65535, &port, NULL)) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "'%s' is not ADDR:PORT", text);
    return FALSE;
  }
  host = g_strndup (text, colon - text);
  if (host[0] == '[' && host[strlen (host) - 1] == ']') {
    memmove (host, host + 1, strlen (host) - 2);
    host[strlen (host) - 2] = '\0';
  }
  int rc = getaddrinfo (host, colon + 1, &hints, &res);
  g_free (host);
  if (rc != 0) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "cannot resolve '%s': %s", text, gai_strerror (rc));
    return FALSE;
  }
  memcpy (&out->ss, res->ai_addr, res->ai_addrlen);
  out->len = res->ai_addrlen;
  freeaddrinfo (res);
  return TRUE;
}

const gchar *
shim_addr_to_string (const ShimAddr *addr, gchar *buf)
{
  gchar host[INET6_ADDRSTRLEN] = "?";

  if (addr->ss.ss_family == AF_INET6) {
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *) &addr->ss;
    inet_ntop (AF_INET6, &a->sin6_addr, host, sizeof host);
    snprintf (buf, SHIM_ADDR_STRLEN, "[%s]:%u", host, ntohs (a->sin6_port));
  } else {
    const struct sockaddr_in *a = (const struct sockaddr_in *) &addr->ss;
    inet_ntop (AF_INET, &a->sin_addr, host, sizeof host);
    snprintf (buf, SHIM_ADDR_STRLEN, "%s:%u", host, ntohs (a->sin_port));
  }
  return buf;
}

guint64
shim_addr_key (const ShimAddr *addr)
{
  if (addr->ss.ss_family == AF_INET6) {
    const struct sockaddr_in6 *a = (const struct sockaddr_in6 *) &addr->ss;
    guint64 hi, lo;
    memcpy (&hi, a->sin6_addr.s6_addr, 8);
    memcpy (&lo, a->sin6_addr.s6_addr + 8, 8);
    return ((hi ^ lo) << 16) ^ ntohs (a->sin6_port);
  }
  const struct sockaddr_in *a = (const struct sockaddr_in *) &addr->ss;
  return (guint64) ntohl (a->sin_addr.s_addr) << 16 | ntohs (a->sin_port);
}

/* An IPv6 header is 20 bytes longer than IPv4's. */
#define IPV6_EXTRA_OVERHEAD 20

guint32
shim_addr_overhead (const ShimAddr *addr)
{
  return OCTO_LINK_OVERHEAD +
      (addr->ss.ss_family == AF_INET6 ? IPV6_EXTRA_OVERHEAD : 0);
}
