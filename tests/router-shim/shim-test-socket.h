/* The shim tests' loopback UDP sockets. */
#pragma once

#include <glib.h>

/* A UDP socket bound to 127.0.0.1 on a free port (returned in @port), with a
 * 4 MiB receive buffer so a test's bursts are not lost in the kernel. */
int shim_test_udp_socket (guint16 *port, gboolean nonblocking);
