#include "shim-send.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/udp.h>
#include <string.h>
#include <sys/socket.h>

#ifndef UDP_SEGMENT
#define UDP_SEGMENT 103
#endif

/* Linux caps a GSO send at 64 segments and one IP datagram's payload. */
#define GSO_MAX_SEGMENTS 64
#define GSO_MAX_BYTES 65000

static gboolean gso_refused;

typedef union {
  gchar buf[CMSG_SPACE (sizeof (guint16))];
  struct cmsghdr align;
} GsoControl;

static void
set_gso (struct msghdr *msg, GsoControl *control, guint16 size)
{
  msg->msg_control = control->buf;
  msg->msg_controllen = sizeof control->buf;
  struct cmsghdr *c = CMSG_FIRSTHDR (msg);
  c->cmsg_level = SOL_UDP;
  c->cmsg_type = UDP_SEGMENT;
  c->cmsg_len = CMSG_LEN (sizeof size);
  memcpy (CMSG_DATA (c), &size, sizeof size);
}

/* Errors with which the kernel refuses a GSO send it cannot do: EIO (no
 * checksum offload on the route), EINVAL (segment larger than the route
 * MTU), ENOPROTOOPT / EOPNOTSUPP (no UDP_SEGMENT). */
static gboolean
gso_unsupported (int error)
{
  return error == EIO || error == EINVAL || error == ENOPROTOOPT ||
      error == EOPNOTSUPP;
}

/* Splits @datagrams into messages: a run of equal sizes (the last may be
 * shorter, as GSO allows) becomes one; returns the number of messages and
 * where each starts in @first (first[m] = n). */
static guint
group (const struct iovec *datagrams, guint n, guint *first)
{
  guint m = 0;

  for (guint i = 0; i < n;) {
    gsize size = datagrams[i].iov_len, total = size;
    first[m++] = i++;
    if (gso_refused || size == 0)
      continue;
    while (i < n && i - first[m - 1] < GSO_MAX_SEGMENTS &&
        datagrams[i].iov_len <= size && datagrams[i].iov_len > 0 &&
        total + datagrams[i].iov_len <= GSO_MAX_BYTES) {
      total += datagrams[i].iov_len;
      if (datagrams[i++].iov_len < size)
        break;
    }
  }
  first[m] = n;
  return m;
}

guint
shim_send (int fd, const ShimAddr *to, const struct iovec *datagrams,
    guint n, guint64 *errors)
{
  struct mmsghdr msgs[SHIM_SEND_MAX];
  GsoControl control[SHIM_SEND_MAX];
  guint first[SHIM_SEND_MAX + 1];
  guint m = group (datagrams, n, first), done = 0, accepted = 0;

  for (guint j = 0; j < m; j++) {
    guint count = first[j + 1] - first[j];
    msgs[j].msg_hdr = (struct msghdr) { .msg_name = (void *) &to->ss,
      .msg_namelen = to->len, .msg_iov = (struct iovec *) &datagrams[first[j]],
      .msg_iovlen = count };
    if (count > 1)
      set_gso (&msgs[j].msg_hdr, &control[j],
          (guint16) datagrams[first[j]].iov_len);
  }
  while (done < m) {
    int r = sendmmsg (fd, msgs + done, m - done, 0);
    if (r > 0) {
      for (int j = 0; j < r; j++)
        accepted += first[done + j + 1] - first[done + j];
      done += r;
      continue;
    }
    if (errno == EINTR)
      continue;
    guint count = first[done + 1] - first[done];
    if (count > 1 && !gso_refused && gso_unsupported (errno)) {
      /* No GSO here: send this run one by one, and never try again. */
      gso_refused = TRUE;
      accepted += shim_send (fd, to, &datagrams[first[done]], count, errors);
    } else {
      /* A full buffer (EAGAIN, ENOBUFS) or an unreachable receiver: these
       * datagrams are lost, GSO stays. */
      *errors += count;
    }
    done++;
  }
  return accepted;
}
