import Foundation
import GRDB
import NotifyCore

/// Who owns a claim, as text: a live `FirerIdentity`, or anything else (a dead firer,
/// `released`), which any firer may take over.
enum ClaimOwner {
  /// The owner of a claim given back by a firer that could not put its row back.
  static let released = "released"

  static func isAlive(_ owner: String) -> Bool {
    FirerIdentity(owner)?.isAlive ?? false
  }
}

/// The notification row as it was when claimed, as JSON, so that a claim can still be
/// delivered after the row was cancelled, replaced or moved on.
enum ClaimSnapshot {
  static func encode(_ row: Row) -> String {
    var members: [String: JSONValue] = [:]
    for (column, value) in row {
      switch value.storage {
      case .null: members[column] = .null
      case .int64(let v): members[column] = .int(v)
      case .double(let v): members[column] = .double(v)
      case .string(let v): members[column] = .string(v)
      case .blob(let v): members[column] = .string(String(decoding: v, as: UTF8.self))
      }
    }
    return JSONValue.object(members).compactText
  }

  static func decode(_ text: String) -> LocalNotification? {
    guard case .object(let members)? = try? JSONValue.parse(text), members["app"] != nil else { return nil }
    var values: [String: (any DatabaseValueConvertible)?] = [:]
    for (key, value) in members {
      switch value {
      case .int(let v): values[key] = v
      case .double(let v): values[key] = v
      case .string(let v): values[key] = v
      case .bool(let v): values[key] = v
      default: values.updateValue(nil, forKey: key)
      }
    }
    return NotificationRow.decode(Row(values)).notification
  }
}
