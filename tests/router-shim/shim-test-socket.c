#include "shim-test-socket.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

int
shim_test_udp_socket (guint16 *port, gboolean nonblocking)
{
  struct sockaddr_in a = { .sin_family = AF_INET,
    .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof a;
  int size = 4 << 20;
  int fd = socket (AF_INET, SOCK_DGRAM | (nonblocking ? SOCK_NONBLOCK : 0), 0);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (bind (fd, (struct sockaddr *) &a, sizeof a), ==, 0);
  setsockopt (fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
  getsockname (fd, (struct sockaddr *) &a, &len);
  *port = ntohs (a.sin_port);
  return fd;
}
