import Foundation
import GRDB
import NotifyCore

extension SQLiteStore {
  /// The categories `app` has registered, by identifier.
  public func categories(app: String) throws(NotifyError) -> [NotificationCategory] {
    try read { db in try CategoryTable.all(app: app, in: db) }
  }

  /// Registers `category` for `app`, replacing the one with its identifier; returns whether
  /// it replaced one. Refuses a category the rules refuse, and a new one past
  /// `NotificationCategory.maximumCount`, leaving the store as it was.
  @discardableResult
  public func setCategory(_ category: NotificationCategory, app: String) throws(NotifyError) -> Bool {
    try Validator.app(app)
    try Validator.category(category)
    return try write { db in
      let existing = try CategoryTable.identifiers(app: app, in: db)
      let replaces = existing.contains(category.identifier)
      if !replaces, existing.count >= NotificationCategory.maximumCount {
        throw NotifyError(
          .invalidData,
          "app '\(app)' has \(existing.count) categories, the most an app may register",
          fix: "remove one first (notify category remove)")
      }
      try CategoryTable.insert(category, app: app, in: db)
      return replaces
    }
  }

  /// Replaces every category of `app` with `categories` (`setNotificationCategories`), in
  /// one transaction: all of them, or, refused, none.
  public func setCategories(_ categories: [NotificationCategory], app: String) throws(NotifyError) {
    try Validator.app(app)
    try Validator.categories(categories)
    try write { db in
      try db.execute(sql: "DELETE FROM category WHERE app = ?", arguments: [app])
      for category in categories { try CategoryTable.insert(category, app: app, in: db) }
    }
  }

  /// Removes `app`'s category `identifier`; false when it had none by that name.
  /// Notifications that name it are shown without buttons from then on.
  public func removeCategory(_ identifier: String, app: String) throws(NotifyError) -> Bool {
    try Validator.categoryIdentifier(identifier)
    return try write { db in
      try db.execute(
        sql: "DELETE FROM category WHERE app = ? AND identifier = ?", arguments: [app, identifier])
      return db.changesCount > 0
    }
  }
}

/// The `category` table.
enum CategoryTable {
  /// `app`'s categories by identifier, inside the caller's transaction (the claim's reads them
  /// with the settings).
  static func all(app: String, in db: Database) throws -> [NotificationCategory] {
    try Row.fetchAll(
      db.cachedStatement(sql: "SELECT identifier, actions FROM category WHERE app = ? ORDER BY identifier"),
      arguments: [app]
    ).map { row in
      NotificationCategory(
        identifier: row["identifier"], actions: NotificationAction.fromStoreText(row["actions"]))
    }
  }

  static func identifiers(app: String, in db: Database) throws -> Set<String> {
    Set(try String.fetchAll(db, sql: "SELECT identifier FROM category WHERE app = ?", arguments: [app]))
  }

  static func insert(_ category: NotificationCategory, app: String, in db: Database) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO category (app, identifier, actions) VALUES (?, ?, ?)",
      arguments: [app, category.identifier, NotificationAction.storeText(category.actions)])
  }
}
