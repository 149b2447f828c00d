import Foundation
import GRDB
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyStore

@Suite("The store file", .ownThreads)
struct StoreFileTests {
  @Test("a new store is private: folder 0700, file 0600, WAL mode")
  func newStoreIsPrivate() throws {
    // Given a path whose folder does not exist
    let folder = TemporaryFolder()
    let path = folder.file("state/notify/notify.db")
    // When the store is opened
    let store = try SQLiteStore(path: path)
    // Then the folder and file are the user's own and the journal is WAL
    #expect(try permissions(folder.file("state/notify")) == 0o700)
    #expect(try permissions(path) == 0o600)
    let mode = try store.queue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
    #expect(mode == "wal")
    #expect(try store.integrityCheck() == "ok")
  }

  @Test("a corrupt file is reported with exit 74 and never replaced")
  func corruptFileIsRefused() throws {
    // Given a file that is not SQLite
    let folder = TemporaryFolder()
    let path = folder.file("notify.db")
    let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
    FileManager.default.createFile(atPath: path, contents: garbage)
    // When it is opened, Then it is refused as unreadable and left byte for byte
    let error = #expect(throws: NotifyError.self) { try SQLiteStore(path: path) }
    #expect(error?.kind == .ioError)
    #expect(error?.description.contains("corrupt") == true)
    #expect(fileBytes(path) == garbage)
  }

  @Test("a store from a newer notify is refused with exit 74")
  func newerSchemaIsRefused() throws {
    // Given a store that a later version migrated further
    let folder = TemporaryFolder()
    let path = folder.file("notify.db")
    let store = try SQLiteStore(path: path)
    try store.queue.write { db in
      try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
    }
    // When it is opened again, Then it is refused with a message saying what to do
    let error = #expect(throws: NotifyError.self) { try SQLiteStore(path: path) }
    #expect(error?.kind == .ioError)
    #expect(error?.description.contains("newer version of notify") == true)
  }

  @Test("a store of the first schema is migrated in place and keeps its notifications")
  func firstSchemaIsMigrated() throws {
    // Given a store that the first release created, holding one pending notification
    let folder = TemporaryFolder()
    let path = folder.file("notify.db")
    do {
      let old = try DatabaseQueue(path: path)
      try StoreSchema.migrator.migrate(old, upTo: "v1-notifications-claims-history")
      try old.write { db in
        try db.execute(
          sql: """
            INSERT INTO notification (app, id, title, fire_instant, created_at, next_fire_at)
            VALUES ('a', 'kept', 'still here', 1800000000000, 1700000000000, 1800000000000)
            """)
        // and a dismissal as the old daemon wrote it
        try db.execute(
          sql: """
            INSERT INTO event (at, app, notification_id, kind, reason, detail)
            VALUES (1700000000000, 'a', 'gone', 'dismissed', 'dismissedByUser', '{}')
            """)
      }
    }
    // When this version opens it
    let store = try SQLiteStore(path: path)
    // Then the later migrations ran and the notification is still pending
    let applied = try store.queue.read {
      try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations")
    }
    #expect(
      applied == [
        "v1-notifications-claims-history", "v2-local-zone-index", "v3-dismiss-reason-names",
        "v4-responses-presence", "v5-left-bubbles", "v6-settings-quiet-hours", "v7-actions-snooze",
        "v8-repeat-rule", "v9-presence-sink", "v10-rich-content", "v11-categories", "v12-threads",
        "v13-realert", "v14-time-sensitive", "v15-thread-shown-by", "v16-calendars",
        "v17-wake",
      ])
    #expect(try store.pending(app: "a").map(\.notification.title) == ["still here"])
    // And a notification from before waking neither wakes the machine nor expires
    #expect(try store.pending(app: "a").first?.notification.wake == false)
    #expect(try store.pending(app: "a").first?.notification.expireLate == nil)
    // And a notification from before levels stands at the level its urgency means
    #expect(try store.pending(app: "a").map(\.notification.interruptionLevel) == [.active])
    // And a notification from before calendar rules has none
    #expect(try store.pending(app: "a").first?.notification.schedule.rule == nil)
    // And the old dismissal reads as every dismissal is written now
    #expect(try store.history(app: "a", limit: 10).map(\.reason) == ["dismissed-by-user"])
    // And history written from now on names its writer (an old row has none)
    try store.record(HistoryEvent(at: Date(), app: "a", notificationID: "x", kind: .activated))
    let writers = try store.queue.read {
      try String?.fetchAll($0, sql: "SELECT writer FROM event ORDER BY seq")
    }
    #expect(writers == [nil, store.writer])
    #expect(try store.integrityCheck() == "ok")
  }

  @Test("a store held by another writer past the busy timeout fails with exit 75")
  func busyStoreIsTemporary() throws {
    // Given a store whose write lock another connection holds
    let folder = TemporaryFolder()
    let path = folder.file("notify.db")
    let store = try SQLiteStore(path: path, busyTimeout: 0.5)
    let blocker = try DatabaseQueue(path: path)
    try blocker.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      defer { try? db.execute(sql: "ROLLBACK") }
      // When a write is attempted, Then it gives up after the timeout as temporary
      let started = Date()
      let error = #expect(throws: NotifyError.self) {
        try store.setBadge(app: "a", count: 1, at: Date())
      }
      #expect(error?.kind == .temporary)
      #expect(
        error?.description.contains("stayed busy for more than 0.5 s") == true, "\(String(describing: error))"
      )
      #expect(Date().timeIntervalSince(started) >= 0.45)
    }
  }

  @Test("a busy wait keeps this process's own locks: it closes no descriptor of the store's files")
  func busyWaitKeepsOwnLocks() throws {
    // Given a store whose write lock another connection of this process holds
    let folder = TemporaryFolder()
    let path = folder.file("notify.db")
    let store = try SQLiteStore(path: path, busyTimeout: 0.3)
    let blocker = try DatabaseQueue(path: path)
    try blocker.writeWithoutTransaction { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      defer { try? db.execute(sql: "ROLLBACK") }
      let held = Self.ownLocks(on: [path, path + "-shm"])
      #expect(held.contains { $0.hasSuffix(" 120 120") }, "\(held)")
      // When a write waits for it, looking at the store's files all the while, and gives up
      #expect(throws: NotifyError.self) { try store.setBadge(app: "a", count: 1, at: Date()) }
      // Then this process holds the same locks as before (a descriptor of the store's files
      // opened and closed by the look would have dropped them all)
      #expect(Self.ownLocks(on: [path, path + "-shm"]) == held)
    }
  }

  /// This process's POSIX locks on `files`, as `/proc/locks` lists them ("INODE START END").
  static func ownLocks(on files: [String]) -> Set<String> {
    let inodes = Set(
      files.compactMap { file -> String? in
        var info = stat()
        return stat(file, &info) == 0 ? String(info.st_ino) : nil
      })
    // (read to its end: one read of a long table gives its first page only)
    let data = FileHandle(forReadingAtPath: "/proc/locks").flatMap { try? $0.readToEnd() } ?? Data()
    let table = String(decoding: data, as: UTF8.self)
    var locks = Set<String>()
    for line in table.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 8, fields[1] == "POSIX", fields[4] == "\(getpid())",
        let inode = fields[5].split(separator: ":").last.map(String.init), inodes.contains(inode)
      else { continue }
      locks.insert("\(inode) \(fields[3]) \(fields[6]) \(fields[7])")
    }
    return locks
  }

  private func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }
}
