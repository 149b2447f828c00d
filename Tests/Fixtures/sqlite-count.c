// An LD_PRELOAD shim that counts what SQLite itself counts as transactions, in the process
// that loads it: a pass-through VFS, registered as the default before the program opens
// anything, that forwards every call to the default one and notes each lock on the WAL
// index (`-shm`) that begins a transaction. A read transaction takes a read mark (a shared
// lock on one of slots 3-7); a write transaction takes one too, then the write lock (an
// exclusive lock on slot 0). Each is appended to SQLITE_COUNT_FILE as one line, `read` or
// `write` (O_APPEND: lines of several threads never interleave), so a test can count the
// lines between two moments. Built by the tests that count (DaemonStoreReadsTests) and by
// Benchmarks/store-reads.sh.
#include <fcntl.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct CountFile {
  sqlite3_file base;  // pMethods: the counting methods
  sqlite3_file *real; // the default VFS's file, in the bytes after this struct
} CountFile;

static sqlite3_vfs *real_vfs;
static sqlite3_vfs count_vfs;
static sqlite3_io_methods count_methods;
static int count_fd = -1;

static void note(const char *line) {
  if (count_fd >= 0) (void)!write(count_fd, line, strlen(line));
}

#define REAL(f) (((CountFile *)(f))->real)

static int c_close(sqlite3_file *f) {
  int rc = REAL(f)->pMethods ? REAL(f)->pMethods->xClose(REAL(f)) : SQLITE_OK;
  return rc;
}
static int c_read(sqlite3_file *f, void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xRead(REAL(f), b, n, o); }
static int c_write(sqlite3_file *f, const void *b, int n, sqlite3_int64 o) { return REAL(f)->pMethods->xWrite(REAL(f), b, n, o); }
static int c_truncate(sqlite3_file *f, sqlite3_int64 s) { return REAL(f)->pMethods->xTruncate(REAL(f), s); }
static int c_sync(sqlite3_file *f, int flags) { return REAL(f)->pMethods->xSync(REAL(f), flags); }
static int c_size(sqlite3_file *f, sqlite3_int64 *s) { return REAL(f)->pMethods->xFileSize(REAL(f), s); }
static int c_lock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int c_unlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int c_check(sqlite3_file *f, int *r) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), r); }
static int c_control(sqlite3_file *f, int op, void *a) {
  // The file pointer asked of the main database is ours; SQLite's own is what callers
  // that look through it (the WAL index copy) expect: give the real one.
  return REAL(f)->pMethods->xFileControl(REAL(f), op, a);
}
static int c_sector(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int c_chars(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int c_shm_map(sqlite3_file *f, int i, int sz, int ext, void volatile **p) {
  return REAL(f)->pMethods->xShmMap(REAL(f), i, sz, ext, p);
}
static int c_shm_lock(sqlite3_file *f, int offset, int n, int flags) {
  int rc = REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
  if (rc == SQLITE_OK && (flags & SQLITE_SHM_LOCK) && n == 1) {
    if ((flags & SQLITE_SHM_SHARED) && offset >= 3 && offset < 8) note("read\n");
    if ((flags & SQLITE_SHM_EXCLUSIVE) && offset == 0) note("write\n");
  }
  return rc;
}
static void c_shm_barrier(sqlite3_file *f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int c_shm_unmap(sqlite3_file *f, int del) { return REAL(f)->pMethods->xShmUnmap(REAL(f), del); }
static int c_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **p) { return REAL(f)->pMethods->xFetch(REAL(f), o, n, p); }
static int c_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p) { return REAL(f)->pMethods->xUnfetch(REAL(f), o, p); }

static int c_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out) {
  (void)vfs;
  CountFile *file = (CountFile *)f;
  file->real = (sqlite3_file *)&file[1];
  int rc = real_vfs->xOpen(real_vfs, name, file->real, flags, out);
  file->base.pMethods = file->real->pMethods ? &count_methods : 0;
  return rc;
}

static int c_delete(sqlite3_vfs *v, const char *n, int s) { (void)v; return real_vfs->xDelete(real_vfs, n, s); }
static int c_access(sqlite3_vfs *v, const char *n, int fl, int *r) { (void)v; return real_vfs->xAccess(real_vfs, n, fl, r); }
static int c_full(sqlite3_vfs *v, const char *n, int sz, char *o) { (void)v; return real_vfs->xFullPathname(real_vfs, n, sz, o); }
static void *c_dlopen(sqlite3_vfs *v, const char *n) { (void)v; return real_vfs->xDlOpen(real_vfs, n); }
static void c_dlerror(sqlite3_vfs *v, int n, char *m) { (void)v; real_vfs->xDlError(real_vfs, n, m); }
static void (*c_dlsym(sqlite3_vfs *v, void *h, const char *s))(void) { (void)v; return real_vfs->xDlSym(real_vfs, h, s); }
static void c_dlclose(sqlite3_vfs *v, void *h) { (void)v; real_vfs->xDlClose(real_vfs, h); }
static int c_random(sqlite3_vfs *v, int n, char *o) { (void)v; return real_vfs->xRandomness(real_vfs, n, o); }
static int c_sleep(sqlite3_vfs *v, int us) { (void)v; return real_vfs->xSleep(real_vfs, us); }
static int c_time(sqlite3_vfs *v, double *t) { (void)v; return real_vfs->xCurrentTime(real_vfs, t); }
static int c_lasterr(sqlite3_vfs *v, int n, char *m) { (void)v; return real_vfs->xGetLastError(real_vfs, n, m); }
static int c_time64(sqlite3_vfs *v, sqlite3_int64 *t) { (void)v; return real_vfs->xCurrentTimeInt64(real_vfs, t); }

__attribute__((constructor)) static void register_counting_vfs(void) {
  const char *path = getenv("SQLITE_COUNT_FILE");
  if (!path || !*path) return;
  count_fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  real_vfs = sqlite3_vfs_find(0);
  if (!real_vfs) return;
  count_methods = (sqlite3_io_methods){
    3, c_close, c_read, c_write, c_truncate, c_sync, c_size, c_lock, c_unlock, c_check, c_control,
    c_sector, c_chars, c_shm_map, c_shm_lock, c_shm_barrier, c_shm_unmap, c_fetch, c_unfetch};
  count_vfs = *real_vfs;
  count_vfs.szOsFile = (int)sizeof(CountFile) + real_vfs->szOsFile;
  count_vfs.zName = "count";
  count_vfs.pNext = 0;
  count_vfs.xOpen = c_open;
  count_vfs.xDelete = c_delete;
  count_vfs.xAccess = c_access;
  count_vfs.xFullPathname = c_full;
  count_vfs.xDlOpen = c_dlopen;
  count_vfs.xDlError = c_dlerror;
  count_vfs.xDlSym = c_dlsym;
  count_vfs.xDlClose = c_dlclose;
  count_vfs.xRandomness = c_random;
  count_vfs.xSleep = c_sleep;
  count_vfs.xCurrentTime = c_time;
  count_vfs.xGetLastError = c_lasterr;
  count_vfs.xCurrentTimeInt64 = c_time64;
  count_vfs.xSetSystemCall = 0;
  count_vfs.xGetSystemCall = 0;
  count_vfs.xNextSystemCall = 0;
  count_vfs.iVersion = 2;
  sqlite3_vfs_register(&count_vfs, 1);
}
