// What the store needs of SQLite beyond GRDB and Swift can not call itself: one variadic,
// and a look at the WAL index through SQLite's own mapping (a call through SQLite's method
// table). The busy handler is Swift (StoreBusyHandler).
// Keep this file tiny.
#ifndef NOTIFY_CSQLITE_SHIM_H
#define NOTIFY_CSQLITE_SHIM_H

#include <sqlite3.h>
#include <stdint.h>

/// `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE` on (`sqlite3_db_config` is variadic): a connection
/// that is the last to close leaves the WAL as it is, without a checkpoint and its syncs,
/// for the next process to use. Returns SQLite's result code.
static inline int notify_sqlite_no_checkpoint_on_close(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

/// The main database file of `db` as SQLite opened it, or 0. The pointer stays valid as
/// long as the connection is open.
static inline sqlite3_file *notify_sqlite_main_file(sqlite3 *db) {
  sqlite3_file *file = 0;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK) return 0;
  return file;
}

/// Copies the first `size` bytes of the WAL index (the `-shm` file) as SQLite maps it for
/// `file` (`notify_sqlite_main_file`) into `out`: no lock, no transaction, and no file
/// descriptor of our own, whose close would drop every POSIX lock this process holds on
/// the file (SQLite's among them). Only for a connection in WAL mode, whose index SQLite has
/// mapped already: for any other, mapping would create the `-shm` file. Returns 0 when
/// copied, 1 when the index is not mapped or cannot be.
static inline int notify_sqlite_wal_index_copy(sqlite3_file *file, unsigned char *out, int size) {
  if (!file || !file->pMethods || file->pMethods->iVersion < 2 || !file->pMethods->xShmMap) return 1;
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

/// `notify_sqlite_wal_index_copy` for `db`'s main database.
static inline int notify_sqlite_wal_index_header(sqlite3 *db, unsigned char *out, int size) {
  return notify_sqlite_wal_index_copy(notify_sqlite_main_file(db), out, size);
}

#endif
