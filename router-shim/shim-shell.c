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

#define INNER_PREFIX "octo"
/* 100.64.0.0/10 (RFC 6598, shared address space): one /30 per link. */
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

/* What the child is told of each link. */
typedef struct {
  guint32 inside, outside;
  const gchar *inside_text, *outside_text;
} ChildLink;

static void
set_link_env (guint i, const ChildLink *l)
{
  gchar name[40];

  g_snprintf (name, sizeof name, "OCTOPUS_SHELL_INSIDE_%u", i);
  setenv (name, l->inside_text, 1);
  g_snprintf (name, sizeof name, "OCTOPUS_SHELL_OUTSIDE_%u", i);
  setenv (name, l->outside_text, 1);
  if (i == 0) {
    setenv ("OCTOPUS_SHELL_INSIDE", l->inside_text, 1);
    setenv ("OCTOPUS_SHELL_OUTSIDE", l->outside_text, 1);
  }
}

static void G_GNUC_NORETURN
run_child (int control, gchar **argv, const ChildLink *links, guint n_links)
{
  sigset_t none;
  union {
    gchar buf[CMSG_SPACE (SHIM_SHELL_MAX_LINKS * sizeof (int))];
    struct cmsghdr align;
  } control_msg;
  gchar ok = 'k', go;
  struct iovec iov = { &ok, 1 };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
    .msg_control = control_msg.buf,
    .msg_controllen = CMSG_SPACE (n_links * sizeof (int)) };
  const gchar *failed;
  int tun[SHIM_SHELL_MAX_LINKS], lo;

  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (unshare (CLONE_NEWNET) < 0)
    child_fail (control, "unshare (CLONE_NEWNET), needs root");
  lo = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (lo < 0 || !set_up (lo, "lo"))
    child_fail (control, "bringing up lo");
  close (lo);
  for (guint i = 0; i < n_links; i++) {
    gchar name[IFNAMSIZ];

    g_snprintf (name, sizeof name, INNER_PREFIX "%u", i);
    tun[i] = tun_open (name);
    if (tun[i] < 0)
      child_fail (control, "opening /dev/net/tun inside");
    /* link 0 is the default route; the others reach their /30 only */
    if ((failed = configure (name, links[i].inside,
                i == 0 ? links[i].outside : 0)))
      child_fail (control, failed);
  }

  struct cmsghdr *c = CMSG_FIRSTHDR (&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN (n_links * sizeof (int));
  memcpy (CMSG_DATA (c), tun, n_links * sizeof (int));
  if (sendmsg (control, &msg, 0) < 0)
    _exit (126);
  for (guint i = 0; i < n_links; i++)
    close (tun[i]);
  /* the shim's go, or its end */
  if (read (control, &go, 1) != 1)
    _exit (126);
  close (control);
  for (guint i = 0; i < n_links; i++)
    set_link_env (i, &links[i]);
  execvp (argv[0], argv);
  fprintf (stderr, "octopus-shim: cannot run %s: %s\n", argv[0],
      g_strerror (errno));
  _exit (127);
}

/* The child's @n descriptors into @shell's links; FALSE with its reason in
 * @error. */
static gboolean
receive_inner (int control, ShimShell *shell, guint n, GError **error)
{
  union {
    gchar buf[CMSG_SPACE (SHIM_SHELL_MAX_LINKS * sizeof (int))];
    struct cmsghdr align;
  } control_msg;
  gchar text[256];
  struct iovec iov = { text, sizeof text - 1 };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
    .msg_control = control_msg.buf, .msg_controllen = sizeof control_msg.buf };
  ssize_t len = recvmsg (control, &msg, MSG_CMSG_CLOEXEC);
  struct cmsghdr *c = len > 0 ? CMSG_FIRSTHDR (&msg) : NULL;

  if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
      c->cmsg_len == CMSG_LEN (n * sizeof (int))) {
    int fds[SHIM_SHELL_MAX_LINKS];

    memcpy (fds, CMSG_DATA (c), n * sizeof (int));
    for (guint i = 0; i < n; i++)
      shell->links[i].inner_fd = fds[i];
    return TRUE;
  }
  text[len > 0 ? len : 0] = '\0';
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_PERM,
      "--shell: setting up the namespace failed: %s",
      len > 0 ? text : "the child exited");
  return FALSE;
}

void
shim_shell_init (ShimShell *shell)
{
  *shell = (ShimShell) { .control_fd = -1 };
  for (guint i = 0; i < SHIM_SHELL_MAX_LINKS; i++)
    shell->links[i].inner_fd = shell->links[i].outer_fd = -1;
}

gboolean
shim_shell_create (ShimShell *shell, guint n_links, gchar **argv,
    GError **error)
{
  /* one /30 per link, a run of them per shim */
  guint32 first = SHELL_NET_BASE + 4 * SHIM_SHELL_MAX_LINKS *
      ((guint32) getpid () % (SHELL_NET_BLOCKS / SHIM_SHELL_MAX_LINKS));
  ChildLink child[SHIM_SHELL_MAX_LINKS];
  struct in_addr a;
  int sp[2];
  const gchar *failed;

  shim_shell_init (shell);
  g_return_val_if_fail (n_links >= 1 && n_links <= SHIM_SHELL_MAX_LINKS,
      FALSE);
  shell->n_links = n_links;
  for (guint i = 0; i < n_links; i++) {
    ShimShellLink *l = &shell->links[i];
    guint32 base = first + 4 * i;

    child[i].outside = base + 1;
    child[i].inside = base + 2;
    a.s_addr = htonl (child[i].inside);
    inet_ntop (AF_INET, &a, l->inside, sizeof l->inside);
    a.s_addr = htonl (child[i].outside);
    inet_ntop (AF_INET, &a, l->outside, sizeof l->outside);
    child[i].inside_text = l->inside;
    child[i].outside_text = l->outside;
    if (i == 0)
      g_snprintf (l->outer_name, sizeof l->outer_name, "octo-%u",
          (guint) getpid () % 10000000u);
    else
      g_snprintf (l->outer_name, sizeof l->outer_name, "octo-%u-%u",
          (guint) getpid () % 10000000u, i);
  }

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
    run_child (sp[1], argv, child, n_links);
  }
  close (sp[1]);
  shell->control_fd = sp[0];
  if (!receive_inner (sp[0], shell, n_links, error))
    return FALSE;
  for (guint i = 0; i < n_links; i++) {
    ShimShellLink *l = &shell->links[i];

    l->outer_fd = tun_open (l->outer_name);
    if (l->outer_fd < 0) {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
          "--shell: creating TUN device %s: %s", l->outer_name,
          g_strerror (errno));
      return FALSE;
    }
    if ((failed = configure (l->outer_name, child[i].outside, 0))) {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
          "--shell: configuring %s (%s): %s", l->outer_name, failed,
          g_strerror (errno));
      return FALSE;
    }
    fcntl (l->inner_fd, F_SETFL, O_NONBLOCK);
    fcntl (l->outer_fd, F_SETFL, O_NONBLOCK);
  }
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
  for (guint i = 0; i < SHIM_SHELL_MAX_LINKS; i++) {
    if (shell->links[i].inner_fd >= 0)
      close (shell->links[i].inner_fd);
    if (shell->links[i].outer_fd >= 0)
      close (shell->links[i].outer_fd);
    shell->links[i].inner_fd = shell->links[i].outer_fd = -1;
  }
  shell->control_fd = -1;
}
