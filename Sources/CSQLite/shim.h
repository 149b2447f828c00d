// What the store needs of SQLite beyond GRDB and Swift can not call itself: one variadic.
// Keep this file tiny.
#ifndef NOTIFY_CSQLITE_SHIM_H
#define NOTIFY_CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE` on (`sqlite3_db_config` is variadic): a connection
/// that is the last to close leaves the WAL as it is, without a checkpoint and its syncs,
/// for the next process to use. Returns SQLite's result code.
static inline int notify_sqlite_no_checkpoint_on_close(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
