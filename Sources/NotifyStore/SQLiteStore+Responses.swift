import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  /// Leaves `response` for the app a click is about to launch; returns its key for
  /// `withdrawResponse` should the launch fail. With `launching` false it waits for the
  /// app to ask (`takeWaitingResponses`): an action that does not open the app, picked
  /// while no process of the app ran. At most `waitingLimit` wait per app; older ones go.
  public func leave(_ response: NotificationResponse, launching: Bool = true) throws(NotifyError) -> Int64 {
    try write { db in
      try ResponseTable.insert(response, launched: launching, in: db)
      let key = db.lastInsertedRowID
      if !launching {
        try db.execute(
          sql: """
            DELETE FROM response WHERE app = ? AND launched = 0 AND seq NOT IN
              (SELECT seq FROM response WHERE app = ? AND launched = 0 ORDER BY seq DESC LIMIT ?)
            """,
          arguments: [response.notification.app, response.notification.app, Self.waitingLimit])
      }
      return key
    }
  }

  /// How many responses may wait for an app that has not asked for them.
  public static let waitingLimit = 256

  /// Takes every response waiting for `app` that did not launch it, oldest first: actions
  /// the user picked while no process of the app ran. They are gone from the store after
  /// this call.
  public func takeWaitingResponses(app: String) throws(NotifyError) -> [NotificationResponse] {
    try write { db in
      let rows = try Row.fetchAll(
        db, sql: "SELECT * FROM response WHERE app = ? AND launched = 0 ORDER BY seq", arguments: [app])
      try db.execute(sql: "DELETE FROM response WHERE app = ? AND launched = 0", arguments: [app])
      return rows.map(ResponseTable.decode)
    }
  }

  /// Removes a response left for a launch that did not happen.
  public func withdrawResponse(_ key: Int64) throws(NotifyError) {
    try write { db in try db.execute(sql: "DELETE FROM response WHERE seq = ?", arguments: [key]) }
  }

  /// Takes the oldest response waiting for `app` (it is gone from the store after this
  /// call); responses older than `NotificationResponse.launchWindow` are dropped unread.
  public func takeLaunchResponse(app: String, now: Date) throws(NotifyError) -> NotificationResponse? {
    try write { db in
      try db.execute(
        sql: "DELETE FROM response WHERE app = ? AND launched = 1 AND at < ?",
        arguments: [app, Millis.from(now - NotificationResponse.launchWindow)])
      guard
        let row = try Row.fetchOne(
          db, sql: "SELECT * FROM response WHERE app = ? AND launched = 1 ORDER BY seq LIMIT 1",
          arguments: [app])
      else { return nil }
      try db.execute(sql: "DELETE FROM response WHERE seq = ?", arguments: [row["seq"] as Int64])
      return ResponseTable.decode(row)
    }
  }

  /// The app's history events after `sequence` that another store connection wrote,
  /// oldest first: what an app's center has not heard of yet.
  public func history(app: String, after sequence: Int64, writtenByOthers: Bool) throws(NotifyError)
    -> [HistoryEvent]
  {
    try read { db in
      let writerFilter = writtenByOthers ? "AND (writer IS NULL OR writer <> ?)" : ""
      var arguments: StatementArguments = [app, sequence]
      if writtenByOthers { arguments += [writer] }
      return try Row.fetchAll(
        db.cachedStatement(
          sql: "SELECT * FROM event WHERE app = ? AND seq > ? \(writerFilter) ORDER BY seq LIMIT 256"),
        arguments: arguments
      ).map(HistoryWriter.decode)
    }
  }

  /// What history gained after `sequence`, in order and in one read: the rows of `apps`
  /// (every app's when nil), leaving out this connection's own when `writtenByOthers`; and
  /// the newest sequence number of all history then (`top`), where the next call starts.
  /// The one way history is followed: the D-Bus service's signals and an app's events.
  public func history(after sequence: Int64, apps: Set<String>?, writtenByOthers: Bool) throws(NotifyError)
    -> (events: [HistoryEvent], top: Int64)
  {
    try read { db in
      let top = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM event") ?? 0
      guard top > sequence, apps?.isEmpty != true else { return ([], top) }
      var filter = "seq > ? AND seq <= ?"
      var arguments: StatementArguments = [sequence, top]
      if let apps {
        filter += " AND app IN (\(Array(repeating: "?", count: apps.count).joined(separator: ", ")))"
        arguments += StatementArguments(apps.sorted())
      }
      if writtenByOthers {
        filter += " AND (writer IS NULL OR writer <> ?)"
        arguments += [writer]
      }
      let rows = try Row.fetchAll(
        db, sql: "SELECT * FROM event WHERE \(filter) ORDER BY seq", arguments: arguments)
      return (rows.map(HistoryWriter.decode), top)
    }
  }

  /// The newest history sequence number (0 for an empty history).
  public func lastHistorySequence() throws(NotifyError) -> Int64 {
    try read { db in try Int64.fetchOne(db, sql: "SELECT max(seq) FROM event") ?? 0 }
  }
}

/// The `response` table: clicks waiting for the app they launched.
enum ResponseTable {
  static func insert(_ response: NotificationResponse, launched: Bool, in db: Database) throws {
    try db.execute(
      sql: """
        INSERT INTO response (at, action_key, occurrence, activation_token, user_text, launched,
          \(ContentColumns.names))
        VALUES (?, ?, ?, ?, ?, ?, \(ContentColumns.placeholders))
        """,
      arguments: [
        Millis.from(response.date), response.actionKey, response.occurrence, response.activationToken,
        response.userText, launched ? 1 : 0,
      ]
        + ContentColumns.values(response.notification))
  }

  static func decode(_ row: Row) -> NotificationResponse {
    let date = Millis.date(row["at"])
    return NotificationResponse(
      notification: ContentColumns.notification(row, date: date), actionKey: row["action_key"],
      occurrence: row["occurrence"], activationToken: row["activation_token"], date: date,
      userText: row["user_text"])
  }
}
