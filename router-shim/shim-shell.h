/* octopus-shim --shell: a command in a network namespace of its own whose
 * traffic to the outside crosses the emulated link (as Mahimahi's mm-link).
 *
 * Two TUN devices: "octo0" inside the new namespace (its default route) and
 * "octo-PID" outside, a /30 of 100.64.0.0/10 between them.  The shim reads
 * whole IP packets from each and writes them to the other through the
 * links: down = into the namespace, up = out of it.  The command learns the
 * addresses from OCTOPUS_SHELL_INSIDE and OCTOPUS_SHELL_OUTSIDE (the
 * outside address is the host's own, so servers on the host are reachable
 * at it).  Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN).
 *
 * With several links (--extra-link) each has a TUN pair and a /30 of its
 * own: "octoN" inside, "octo-PID-N" outside (link 0 as above, and the
 * default route); the command reaches the host over link N at
 * OCTOPUS_SHELL_OUTSIDE_N (the /30's connected route picks octoN), from
 * OCTOPUS_SHELL_INSIDE_N, so an application that sends to both addresses
 * uses both links. */
#pragma once

#include <glib.h>
#include <net/if.h>
#include <sys/types.h>

#define SHIM_SHELL_MAX_LINKS 4

typedef struct {
  int inner_fd, outer_fd;       /* TUN devices, non-blocking */
  gchar inside[16], outside[16];
  gchar outer_name[IFNAMSIZ];
} ShimShellLink;

typedef struct {
  pid_t child;                  /* the command; 0 once reaped */
  int control_fd;               /* releases the child to exec */
  guint n_links;
  ShimShellLink links[SHIM_SHELL_MAX_LINKS];
} ShimShell;

/* A shell not created yet: nothing to close. */
void shim_shell_init (ShimShell *shell);
/* Forks the command into a new network namespace with @n_links TUN pairs
 * set up; it waits for shim_shell_release() before exec.  Call before any
 * signal is blocked or any thread started. */
gboolean shim_shell_create (ShimShell *shell, guint n_links, gchar **argv,
    GError **error);
void shim_shell_release (ShimShell *shell);
/* If the command has exited: TRUE and its status as a shell reports it
 * (the exit code, or 128 + signal). */
gboolean shim_shell_reap (ShimShell *shell, gint *status);
/* Stops a command still running (SIGTERM, then waits), closes the devices
 * (the outside one disappears with its descriptor). */
void shim_shell_destroy (ShimShell *shell, gint *status);
