// What the store needs of SQLite beyond GRDB and Swift can not call itself: one variadic,
// and a look at the WAL index through SQLite's own mapping.
// Keep this file tiny.
#ifndef NOTIFY_CSQLITE_SHIM_H
#define NOTIFY_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

/// `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE` on (`sqlite3_db_config` is variadic): a connection
/// that is the last to close leaves the WAL as it is, without a checkpoint and its syncs,
/// for the next process to use. Returns SQLite's result code.
static inline int notify_sqlite_no_checkpoint_on_close(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

/// Copies the first `size` bytes of the WAL index (the `-shm` file) as SQLite maps it for
/// `db`'s main database into `out`: no lock, no transaction, and no file descriptor of our
/// own, whose close would drop every POSIX lock this process holds on the file (SQLite's
/// among them). Returns 0 when copied, 1 when the index is not mapped or cannot be.
static inline int notify_sqlite_wal_index_header(sqlite3 *db, unsigned char *out, int size) {
  sqlite3_file *file = 0;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK || !file) return 1;
  if (!file->pMethods || file->pMethods->iVersion < 2 || !file->pMethods->xShmMap) return 1;
  volatile void *region = 0;
  if (file->pMethods->xShmMap(file, 0, 32768, 0, &region) != SQLITE_OK || !region) return 1;
  const volatile unsigned char *bytes = (const volatile unsigned char *)region;
  for (int i = 0; i < size; i++) out[i] = bytes[i];
  return 0;
}

/// Syncs the WAL of `db`'s main database through SQLite's own descriptor of it (`xSync`):
/// every commit made to it so far is on the disk when this returns 0 (SQLITE_OK). A store
/// with no WAL open has nothing to sync. A first sync of a new WAL also syncs its folder,
/// as SQLite's own commits do.
static inline int notify_sqlite_sync_wal(sqlite3 *db) {
  sqlite3_file *file = 0;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &file) != SQLITE_OK) return SQLITE_ERROR;
  if (!file || !file->pMethods) return SQLITE_OK;
  return file->pMethods->xSync(file, SQLITE_SYNC_NORMAL);
}

/// The busy handler of every store connection (`notify_sqlite_busy_timeout`): while another
/// connection holds the lock, look again every 100 µs for the first 10 ms, then every
/// millisecond, until `timeout_ms` have passed since the first look (CLOCK_MONOTONIC, per
/// thread: one busy wait at a time runs on a thread). SQLite's own handler sleeps 1, 2, 5,
/// 10 ... 100 ms between looks: a writer that commits every few milliseconds (the D-Bus
/// service under a flood of batches) then keeps another (the firer's claim) out for
/// hundreds of milliseconds, since whoever looks first after a commit takes the lock.
static inline int notify_sqlite_busy(void *context, int count) {
  static __thread struct timespec started;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (count == 0) started = now;
  long long waited_us =
    (now.tv_sec - started.tv_sec) * 1000000LL + (now.tv_nsec - started.tv_nsec) / 1000;
  if (waited_us >= (long long)(intptr_t)context * 1000LL) return 0;
  usleep(waited_us < 10000 ? 100 : 1000);
  return 1;
}

/// Sets `notify_sqlite_busy` as `db`'s busy handler, giving up after `timeout_ms`.
static inline int notify_sqlite_busy_timeout(sqlite3 *db, int timeout_ms) {
  return sqlite3_busy_handler(db, notify_sqlite_busy, (void *)(intptr_t)timeout_ms);
}

#endif
