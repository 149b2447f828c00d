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
  /// The row's columns as one JSON object, keys sorted (the text of
  /// `JSONValue.object(...).compactText`), written straight from the row: a claim writes one
  /// for every occurrence it claims, and building the object first cost about half of it.
  static func encode(_ row: Row) -> String {
    // The last column of a name wins, as it did in a dictionary.
    var columns: [(name: String, value: DatabaseValue)] = []
    columns.reserveCapacity(row.count)
    for (column, value) in row {
      if let earlier = columns.firstIndex(where: { $0.name == column }) { columns.remove(at: earlier) }
      columns.append((column, value))
    }
    columns.sort { $0.name < $1.name }
    var out: [UInt8] = [UInt8(ascii: "{")]
    out.reserveCapacity(1024)
    for (i, column) in columns.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      JSONValue.string(column.name).write(to: &out)
      out.append(UInt8(ascii: ":"))
      json(column.value).write(to: &out)
    }
    out.append(UInt8(ascii: "}"))
    return String(decoding: out, as: UTF8.self)
  }

  private static func json(_ value: DatabaseValue) -> JSONValue {
    switch value.storage {
    case .null: .null
    case .int64(let v): .int(v)
    case .double(let v): .double(v)
    case .string(let v): .string(v)
    case .blob(let v): .string(String(decoding: v, as: UTF8.self))
    }
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
