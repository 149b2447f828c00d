// The part of libsystemd that notify uses, plus inline shims for what Swift cannot
// call directly (C variadics and macros). Keep this file tiny.
#ifndef NOTIFY_CSYSTEMD_SHIM_H
#define NOTIFY_CSYSTEMD_SHIM_H

#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <systemd/sd-journal.h>
#include <sys/uio.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>
#include <sys/xattr.h>
#include <sys/auxv.h>
#include <elf.h>
#include <malloc.h>
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <unistd.h>
#include <spawn.h>

/// `SD_BUS_ERROR_NULL` as a value Swift can use.
static inline sd_bus_error notify_bus_error_null(void) {
  sd_bus_error e = SD_BUS_ERROR_NULL;
  return e;
}

/// `sd_journal_sendv` takes an iovec array, which Swift can build; re-exported for clarity.
static inline int notify_journal_sendv(const struct iovec *iov, int n) {
  return sd_journal_sendv(iov, n);
}

/// Names the calling thread (`prctl` is variadic): what `top -H` and
/// `/proc/PID/task/*/comm` show. At most 15 bytes are kept.
static inline int notify_name_thread(const char *name) {
  return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/// `CMSG_SPACE(length)` (a macro Swift does not see).
static inline int notify_cmsg_space(int length) { return (int)CMSG_SPACE((size_t)length); }

/// Copies the descriptors of the `SCM_RIGHTS` messages in the control data `control`
/// (`length` bytes, as `recvmsg` left them) into `out`, at most `capacity`; returns how many.
static inline int notify_cmsg_rights(const void *control, int length, int *out, int capacity) {
  struct msghdr message = {0};
  message.msg_control = (void *)control;
  message.msg_controllen = (size_t)length;
  int count = 0;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    int n = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    const int *fds = (const int *)CMSG_DATA(header);
    for (int i = 0; i < n && count < capacity; i++) out[count++] = fds[i];
  }
  return count;
}

/// Puts one descriptor in `message`'s control buffer as `SCM_RIGHTS` (its `msg_control`
/// must hold `CMSG_SPACE(sizeof(int))` bytes) and sets `msg_controllen` to match.
static inline void notify_cmsg_put_rights(struct msghdr *message, int fd) {
  message->msg_controllen = CMSG_SPACE(sizeof(int));
  struct cmsghdr *header = CMSG_FIRSTHDR(message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  *(int *)CMSG_DATA(header) = fd;
}

/// The calling thread's id (`syscall` is variadic; glibc's `gettid` is not in the module).
static inline int notify_thread_id(void) { return (int)syscall(SYS_gettid); }

/// glibc's `POSIX_SPAWN_SETSID` (a GNU extension the Swift module does not see): the
/// launched app gets a session of its own, apart from the daemon's.
static inline short notify_spawn_setsid_flag(void) { return 0x80; }

/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29+), declared here for the same reason.
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);

#endif
