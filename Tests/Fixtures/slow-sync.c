// An LD_PRELOAD shim that makes every fsync and fdatasync slow and one at a time across
// all processes that load it, as a slow disk does: each takes SLOW_SYNC_MS milliseconds
// (default 50) while holding an flock on SLOW_SYNC_LOCK. With SLOW_WRITE_MS set, every
// pwrite and pwrite64 (SQLite's writes) first waits that many milliseconds too, on its own
// (writes queue nowhere: only their latency is slow). With SLOW_SYNC_FAKE=1 a sync is the
// wait alone, the real one skipped: the disk is then all the shim's, and the host's own
// (shared with whatever else runs there) adds no time of its own. Built by SlowDiskTests.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static void pause_for(long millis) {
  struct timespec pause = {millis / 1000, (millis % 1000) * 1000000L};
  while (nanosleep(&pause, &pause) != 0) {}
}

static void wait_for_the_disk(void) {
  const char *ms = getenv("SLOW_SYNC_MS");
  const char *lock = getenv("SLOW_SYNC_LOCK");
  long millis = ms ? atol(ms) : 50;
  int fd = lock ? open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600) : -1;
  if (fd >= 0) flock(fd, LOCK_EX);
  pause_for(millis);
  if (fd >= 0) close(fd);  // releases the flock
}

static int fake_sync(void) {
  const char *fake = getenv("SLOW_SYNC_FAKE");
  return fake && atoi(fake) != 0;
}

static void wait_to_write(void) {
  const char *ms = getenv("SLOW_WRITE_MS");
  long millis = ms ? atol(ms) : 0;
  if (millis > 0) pause_for(millis);
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  wait_for_the_disk();
  return fake_sync() ? 0 : real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  wait_for_the_disk();
  return fake_sync() ? 0 : real(fd);
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
  static ssize_t (*real)(int, const void *, size_t, off_t);
  if (!real) real = (ssize_t (*)(int, const void *, size_t, off_t))dlsym(RTLD_NEXT, "pwrite");
  wait_to_write();
  return real(fd, buffer, count, offset);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off64_t offset) {
  static ssize_t (*real)(int, const void *, size_t, off64_t);
  if (!real) real = (ssize_t (*)(int, const void *, size_t, off64_t))dlsym(RTLD_NEXT, "pwrite64");
  wait_to_write();
  return real(fd, buffer, count, offset);
}
