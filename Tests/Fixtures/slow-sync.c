// An LD_PRELOAD shim that makes every fsync and fdatasync slow and one at a time across
// all processes that load it, as a slow disk does: each takes SLOW_SYNC_MS milliseconds
// (default 50) while holding an flock on SLOW_SYNC_LOCK. Built by SlowDiskTests.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static void wait_for_the_disk(void) {
  const char *ms = getenv("SLOW_SYNC_MS");
  const char *lock = getenv("SLOW_SYNC_LOCK");
  long millis = ms ? atol(ms) : 50;
  int fd = lock ? open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600) : -1;
  if (fd >= 0) flock(fd, LOCK_EX);
  struct timespec pause = {millis / 1000, (millis % 1000) * 1000000L};
  while (nanosleep(&pause, &pause) != 0) {}
  if (fd >= 0) close(fd);  // releases the flock
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  wait_for_the_disk();
  return real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  wait_for_the_disk();
  return real(fd);
}
