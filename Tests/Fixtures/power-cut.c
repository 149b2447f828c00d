// An LD_PRELOAD shim that models a power cut for the files under some folders: what the
// disk holds of a file is its content at its last fsync or fdatasync, nothing later.
//
// POWER_CUT_ROOTS  folders whose files are watched, separated by ':'
// POWER_CUT_DISK   a folder outside them: the disk's copy of each watched file, by inode
// POWER_CUT_AFTER  (optional) cut the power right after this many syncs of watched files,
//                  counted across every process that loads the shim
// POWER_CUT_GROUP  (with POWER_CUT_AFTER) the process group the cut kills with SIGKILL
//
// Every sync of a watched regular file copies its whole content to POWER_CUT_DISK/DEV-INO
// (through a temporary file and a rename, under an flock on POWER_CUT_DISK/lock so two
// processes never interleave); a sync of a watched folder records its names in
// POWER_CUT_DISK/DEV-INO.names. `power-cut-restore` (this file built with
// -DPOWER_CUT_RESTORE) then plays the cut back after every process was killed:
// each watched file gets its disk copy back, a file that was never synced is removed
// (its data never reached the disk), and a name that a synced folder did not list when it
// was last synced is removed (a link or rename never made durable). Built and driven by
// `Tests/Support/PowerCut.swift`.
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <ftw.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *disk(void) { return getenv("POWER_CUT_DISK"); }

/// Whether `path` lies under one of POWER_CUT_ROOTS (or is one of them).
static int watched(const char *path) {
  const char *roots = getenv("POWER_CUT_ROOTS");
  if (!roots || !disk()) return 0;
  size_t length = strlen(path);
  for (const char *root = roots; *root;) {
    const char *end = strchr(root, ':');
    size_t size = end ? (size_t)(end - root) : strlen(root);
    if (size > 0 && length >= size && strncmp(path, root, size) == 0 &&
        (length == size || path[size] == '/'))
      return 1;
    if (!end) break;
    root = end + 1;
  }
  return 0;
}

static int copy_all(int from, int to) {
  char buffer[65536];
  off_t offset = 0;
  for (;;) {
    ssize_t count = pread(from, buffer, sizeof buffer, offset);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return -1;
    if (count == 0) return 0;
    for (ssize_t done = 0; done < count;) {
      ssize_t n = write(to, buffer + done, (size_t)(count - done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return -1;
      done += n;
    }
    offset += count;
  }
}

/// Records what a sync of `fd` made durable.
static void record(int fd) {
  char link[64], path[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t length = readlink(link, path, sizeof path - 1);
  if (length <= 0) return;
  path[length] = 0;
  if (!watched(path)) return;
  struct stat info;
  if (fstat(fd, &info) != 0) return;
  char target[PATH_MAX], temporary[PATH_MAX + 32], lockpath[PATH_MAX];
  snprintf(lockpath, sizeof lockpath, "%s/lock", disk());
  int lock = open(lockpath, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (lock >= 0) flock(lock, LOCK_EX);
  if (S_ISREG(info.st_mode)) {
    snprintf(target, sizeof target, "%s/%lu-%lu", disk(), (unsigned long)info.st_dev,
             (unsigned long)info.st_ino);
    snprintf(temporary, sizeof temporary, "%s.%d", target, getpid());
    // A file open for writing only is read through a descriptor of our own; any other
    // through `fd` itself, since closing a second descriptor of a file would drop this
    // process's POSIX locks on it (SQLite's).
    int own = (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY;
    int in = own ? open(link, O_RDONLY | O_CLOEXEC) : fd;
    int out = in >= 0 ? open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : -1;
    if (out >= 0) {
      int ok = copy_all(in, out) == 0;
      close(out);
      if (ok) rename(temporary, target); else unlink(temporary);
    }
    if (own && in >= 0) close(in);
  } else if (S_ISDIR(info.st_mode)) {
    snprintf(target, sizeof target, "%s/%lu-%lu.names", disk(), (unsigned long)info.st_dev,
             (unsigned long)info.st_ino);
    snprintf(temporary, sizeof temporary, "%s.%d", target, getpid());
    FILE *out = fopen(temporary, "we");
    DIR *folder = opendir(path);
    if (out && folder) {
      for (struct dirent *entry; (entry = readdir(folder));) fprintf(out, "%s\n", entry->d_name);
    }
    if (folder) closedir(folder);
    if (out) {
      fclose(out);
      rename(temporary, target);
    }
  }
  if (lock >= 0) close(lock);  // releases the flock
}

/// Counts a sync of a watched file; cuts the power when it is the chosen one.
static void count_and_maybe_cut(int fd) {
  const char *after = getenv("POWER_CUT_AFTER");
  const char *group = getenv("POWER_CUT_GROUP");
  if (!after || !group || !disk()) return;
  char link[64], path[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t length = readlink(link, path, sizeof path - 1);
  if (length <= 0) return;
  path[length] = 0;
  if (!watched(path)) return;
  char counter[PATH_MAX];
  snprintf(counter, sizeof counter, "%s/syncs", disk());
  int file = open(counter, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (file < 0) return;
  flock(file, LOCK_EX);
  char text[32] = {0};
  long count = pread(file, text, sizeof text - 1, 0) > 0 ? atol(text) : 0;
  count += 1;
  int size = snprintf(text, sizeof text, "%ld\n", count);
  pwrite(file, text, (size_t)size, 0);
  if (count == atol(after)) {
    // The power goes: every process of the run stops here, this one with the lock held.
    kill(-(pid_t)atol(group), SIGKILL);
    for (;;) pause();
  }
  close(file);
}

#ifndef POWER_CUT_RESTORE

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  int result = real(fd);
  if (result == 0) {
    record(fd);
    count_and_maybe_cut(fd);
  }
  return result;
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  int result = real(fd);
  if (result == 0) {
    record(fd);
    count_and_maybe_cut(fd);
  }
  return result;
}

#else

static int remove_one(const char *path, const struct stat *info, int kind, struct FTW *walk) {
  (void)info, (void)walk;
  return kind == FTW_DP ? rmdir(path) : unlink(path);
}

/// Records everything under `path` as on the disk now: the state a run starts from.
static void snapshot(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return;
  struct stat info;
  if (fstat(fd, &info) == 0) {
    record(fd);
    if (S_ISDIR(info.st_mode)) {
      DIR *folder = fdopendir(dup(fd));
      for (struct dirent *entry; folder && (entry = readdir(folder));) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
        char child[PATH_MAX];
        snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
        snapshot(child);
      }
      if (folder) closedir(folder);
    }
  }
  close(fd);
}

/// power-cut-restore ROOT...: plays the cut back under each ROOT (POWER_CUT_DISK set).
static int restore(const char *path) {
  DIR *folder = opendir(path);
  if (!folder) return 0;
  struct stat own;
  char names[PATH_MAX];
  FILE *listed = NULL;
  if (stat(path, &own) == 0) {
    snprintf(names, sizeof names, "%s/%lu-%lu.names", disk(), (unsigned long)own.st_dev,
             (unsigned long)own.st_ino);
    listed = fopen(names, "re");
  }
  char *durable = NULL;
  size_t durable_size = 0;
  if (listed) {
    FILE *memory = open_memstream(&durable, &durable_size);
    int c;
    fputc('\n', memory);
    while ((c = fgetc(listed)) != EOF) fputc(c, memory);
    fclose(memory);
    fclose(listed);
  }
  int changed = 0;
  for (struct dirent *entry; (entry = readdir(folder));) {
    if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) continue;
    char child[PATH_MAX];
    snprintf(child, sizeof child, "%s/%s", path, entry->d_name);
    if (durable) {
      char needle[NAME_MAX + 3];
      snprintf(needle, sizeof needle, "\n%s\n", entry->d_name);
      if (!strstr(durable, needle)) {
        // A name the folder's last sync did not have: never made durable.
        nftw(child, remove_one, 16, FTW_DEPTH | FTW_PHYS);
        changed++;
        continue;
      }
    }
    struct stat info;
    if (lstat(child, &info) != 0) continue;
    if (S_ISDIR(info.st_mode)) {
      changed += restore(child);
      continue;
    }
    if (!S_ISREG(info.st_mode)) continue;
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s/%lu-%lu", disk(), (unsigned long)info.st_dev,
             (unsigned long)info.st_ino);
    int from = open(copy, O_RDONLY | O_CLOEXEC);
    if (from < 0) {
      unlink(child);  // never synced: its data never reached the disk
      changed++;
      continue;
    }
    int to = open(child, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (to >= 0) {
      copy_all(from, to);
      close(to);
      changed++;
    }
    close(from);
  }
  free(durable);
  closedir(folder);
  return changed;
}

/// `power-cut-restore --snapshot ROOT...` records the roots as they are (with
/// POWER_CUT_ROOTS naming them); `power-cut-restore ROOT...` plays the cut back.
int main(int argc, char **argv) {
  if (!disk()) {
    fprintf(stderr, "power-cut-restore: POWER_CUT_DISK is not set\n");
    return 2;
  }
  if (argc > 1 && strcmp(argv[1], "--snapshot") == 0) {
    for (int i = 2; i < argc; i++) snapshot(argv[i]);
    return 0;
  }
  int changed = 0;
  for (int i = 1; i < argc; i++) changed += restore(argv[i]);
  printf("%d\n", changed);
  return 0;
}

#endif
