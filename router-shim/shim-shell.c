/* octopus-shim --shell: namespace, TUN devices and the command's process.
 * See shim-shell.h. */
#include "shim-shell.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/route.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define INNER_NAME "octo0"
/* 100.64.0.0/10 (RFC 6598, shared address space): one /30 per shim. */
#define SHELL_NET_BASE 0x64400000u
#define SHELL_NET_BLOCKS (1u << 20)
#define SHELL_PREFIX_MASK 0xfffffffcu

static int
tun_open (const gchar *name)
{
  struct ifreq ifr = { .ifr_flags = IFF_TUN | IFF_NO_PI };
  int fd = open ("/dev/net/tun", O_RDWR | O_CLOEXEC);

  if (fd < 0)
    return -1;
  g_strlcpy (ifr.ifr_name, name, IFNAMSIZ);
  if (ioctl (fd, TUNSETIFF, &ifr) < 0) {
    int saved = errno;
    close (fd);
    errno = saved;
    return -1;
  }
  return fd;
}

static gboolean
set_ipv4 (int s, const gchar *name, unsigned long request, guint32 value)
{
  struct ifreq ifr = { 0 };
  struct sockaddr_in *sin = (struct sockaddr_in *) &ifr.ifr_addr;

  g_strlcpy (ifr.ifr_name, name, IFNAMSIZ);
  sin->sin_family = AF_INET;
  sin->sin_addr.s_addr = htonl (value);
  return ioctl (s, request, &ifr) == 0;
}

static gboolean
set_up (int s, const gchar *name)
{
  struct ifreq ifr = { 0 };

  g_strlcpy (ifr.ifr_name, name, IFNAMSIZ);
  if (ioctl (s, SIOCGIFFLAGS, &ifr) < 0)
    return FALSE;
  ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
  return ioctl (s, SIOCSIFFLAGS, &ifr) == 0;
}

/* Best effort: no IPv6 router solicitations or the like on the link. */
static void
disable_ipv6 (const gchar *name)
{
  gchar *path = g_strdup_printf ("/proc/sys/net/ipv6/conf/%s/disable_ipv6",
      name);
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    if (write (fd, "1", 1) < 0)
      g_debug ("cannot disable IPv6 on %s", name);
    close (fd);
  }
  g_free (path);
}

/* Address @addr/30 on @name, up; @gateway (if not 0) the default route. */
static const gchar *
configure (const gchar *name, guint32 addr, guint32 gateway)
{
  int s = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  const gchar *failed = NULL;

  disable_ipv6 (name);
  if (s < 0)
    failed = "socket";
  else if (!set_ipv4 (s, name, SIOCSIFADDR, addr))
    failed = "SIOCSIFADDR";
  else if (!set_ipv4 (s, name, SIOCSIFNETMASK, SHELL_PREFIX_MASK))
    failed = "SIOCSIFNETMASK";
  else if (!set_up (s, name))
    failed = "SIOCSIFFLAGS";
  if (!failed && gateway) {
    struct rtentry rt = { .rt_flags = RTF_UP | RTF_GATEWAY,
      .rt_dev = (char *) name };
    ((struct sockaddr_in *) &rt.rt_dst)->sin_family = AF_INET;
    ((struct sockaddr_in *) &rt.rt_genmask)->sin_family = AF_INET;
    ((struct sockaddr_in *) &rt.rt_gateway)->sin_family = AF_INET;
    ((struct sockaddr_in *) &rt.rt_gateway)->sin_addr.s_addr = htonl (gateway);
    if (ioctl (s, SIOCADDRT, &rt) < 0)
      failed = "SIOCADDRT (default route)";
  }
  if (s >= 0)
    close (s);
  return failed;
}

/* The child: after a failure it sends the reason instead of a descriptor. */
static void G_GNUC_NORETURN
child_fail (int control, const gchar *what)
{
  gchar msg[256];
  int n = g_snprintf (msg, sizeof msg, "%s: %s", what, g_strerror (errno));
  if (send (control, msg, (gsize) n, 0) < 0)
    _exit (126);
  _exit (126);
}

static void G_GNUC_NORETURN
run_child (int control, gchar **argv, guint32 inside, guint32 outside,
    const gchar *inside_text, const gchar *outside_text)
{
  sigset_t none;
  union {
    gchar buf[CMSG_SPACE (sizeof (int))];
    struct cmsghdr align;
  } control_msg;
  gchar ok = 'k', go;
  struct iovec iov = { &ok, 1 };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
    .msg_control = control_msg.buf, .msg_controllen = sizeof control_msg.buf };
  const gchar *failed;
  int tun, lo;

  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (unshare (CLONE_NEWNET) < 0)
    child_fail (control, "unshare (CLONE_NEWNET), needs root");
  lo = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (lo < 0 || !set_up (lo, "lo"))
    child_fail (control, "bringing up lo");
  close (lo);
  tun = tun_open (INNER_NAME);
  if (tun < 0)
    child_fail (control, "opening /dev/net/tun inside");
  if ((failed = configure (INNER_NAME, inside, outside)))
    child_fail (control, failed);

  struct cmsghdr *c = CMSG_FIRSTHDR (&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN (sizeof (int));
  memcpy (CMSG_DATA (c), &tun, sizeof tun);
  if (sendmsg (control, &msg, 0) < 0)
    _exit (126);
  close (tun);
  /* the shim's go, or its end */
  if (read (control, &go, 1) != 1)
    _exit (126);
  close (control);
  setenv ("OCTOPUS_SHELL_INSIDE", inside_text, 1);
  setenv ("OCTOPUS_SHELL_OUTSIDE", outside_text, 1);
  execvp (argv[0], argv);
  fprintf (stderr, "octopus-shim: cannot run %s: %s\n", argv[0],
      g_strerror (errno));
  _exit (127);
}

/* The child's descriptor, or -1 with its reason in @error. */
static int
receive_inner (int control, GError **error)
{
  union {
    gchar buf[CMSG_SPACE (sizeof (int))];
    struct cmsghdr align;
  } control_msg;
  gchar text[256];
  struct iovec iov = { text, sizeof text - 1 };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
    .msg_control = control_msg.buf, .msg_controllen = sizeof control_msg.buf };
  ssize_t n = recvmsg (control, &msg, MSG_CMSG_CLOEXEC);
  struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR (&msg) : NULL;
  int fd;

  if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
    memcpy (&fd, CMSG_DATA (c), sizeof fd);
    return fd;
  }
  text[n > 0 ? n : 0] = '\0';
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM,
      "--shell: setting up the namespace failed: %s",
      n > 0 ? text : "the child exited");
  return -1;
}

gboolean
shim_shell_create (ShimShell *shell, gchar **argv, GError **error)
{
  guint32 base = SHELL_NET_BASE + 4 * ((guint32) getpid () %
      SHELL_NET_BLOCKS);
  guint32 outside = base + 1, inside = base + 2;
  struct in_addr a;
  int sp[2];
  const gchar *failed;

  *shell = (ShimShell) { .control_fd = -1, .inner_fd = -1, .outer_fd = -1 };
  a.s_addr = htonl (inside);
  inet_ntop (AF_INET, &a, shell->inside, sizeof shell->inside);
  a.s_addr = htonl (outside);
  inet_ntop (AF_INET, &a, shell->outside, sizeof shell->outside);
  g_snprintf (shell->outer_name, sizeof shell->outer_name, "octo-%u",
      (guint) getpid () % 10000000u);

  if (socketpair (AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "--shell: socketpair: %s", g_strerror (errno));
    return FALSE;
  }
  fflush (NULL);
  shell->child = fork ();
  if (shell->child < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "--shell: fork: %s", g_strerror (errno));
    close (sp[0]);
    close (sp[1]);
    return FALSE;
  }
  if (shell->child == 0) {
    close (sp[0]);
    run_child (sp[1], argv, inside, outside, shell->inside, shell->outside);
  }
  close (sp[1]);
  shell->control_fd = sp[0];
  shell->inner_fd = receive_inner (sp[0], error);
  if (shell->inner_fd < 0)
    return FALSE;
  shell->outer_fd = tun_open (shell->outer_name);
  if (shell->outer_fd < 0) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "--shell: creating TUN device %s: %s", shell->outer_name,
        g_strerror (errno));
    return FALSE;
  }
  if ((failed = configure (shell->outer_name, outside, 0))) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "--shell: configuring %s (%s): %s", shell->outer_name, failed,
        g_strerror (errno));
    return FALSE;
  }
  fcntl (shell->inner_fd, F_SETFL, O_NONBLOCK);
  fcntl (shell->outer_fd, F_SETFL, O_NONBLOCK);
  return TRUE;
}

void
shim_shell_release (ShimShell *shell)
{
  if (write (shell->control_fd, "g", 1) != 1)
    g_printerr ("octopus-shim: --shell: cannot start the command\n");
  close (shell->control_fd);
  shell->control_fd = -1;
}

static gint
exit_status (int wstatus)
{
  if (WIFEXITED (wstatus))
    return WEXITSTATUS (wstatus);
  return 128 + (WIFSIGNALED (wstatus) ? WTERMSIG (wstatus) : 0);
}

gboolean
shim_shell_reap (ShimShell *shell, gint *status)
{
  int wstatus;

  if (shell->child <= 0 || waitpid (shell->child, &wstatus, WNOHANG) !=
      shell->child)
    return FALSE;
  shell->child = 0;
  *status = exit_status (wstatus);
  return TRUE;
}

void
shim_shell_destroy (ShimShell *shell, gint *status)
{
  int wstatus;

  if (shell->control_fd >= 0)
    close (shell->control_fd);  /* an unreleased child exits on EOF */
  if (shell->child > 0) {
    kill (shell->child, SIGTERM);
    if (waitpid (shell->child, &wstatus, 0) == shell->child)
      *status = exit_status (wstatus);
    shell->child = 0;
  }
  if (shell->inner_fd >= 0)
    close (shell->inner_fd);
  if (shell->outer_fd >= 0)
    close (shell->outer_fd);
  shell->control_fd = shell->inner_fd = shell->outer_fd = -1;
}
