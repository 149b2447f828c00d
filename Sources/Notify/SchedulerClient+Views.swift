import Foundation
import NotifyCore
import NotifyDesktop

/// The calls of the service's version 3 (docs/dbus.md): what is on screen, the
/// history, what quiet hours hold, the answers that waited, categories and the
/// authorization request, each for the client's app only (the service decides which app
/// that is), read back into the library's values.
extension SchedulerClient {
  /// The app's notifications on screen, newest first (`ListDelivered`).
  package func delivered() async throws(NotificationError) -> [HistoryEvent] {
    try await records("ListDelivered", [.string(app)]).compactMap(Self.historyEvent)
  }

  /// The app's history, newest first, at most `limit` events (`ListHistory`; the service
  /// returns at most 1000).
  package func history(limit: Int) async throws(NotificationError) -> [HistoryEvent] {
    guard limit > 0 else { return [] }
    let bounded = UInt32(clamping: limit)
    return try await records("ListHistory", [.string(app), .uint32(bounded)]).compactMap(Self.historyEvent)
  }

  /// What quiet hours hold of the app, oldest first (`ListHeld`).
  package func held() async throws(NotificationError) -> [HeldNotification] {
    try await records("ListHeld", [.string(app)]).compactMap { Self.held($0, app: app) }
  }

  /// The answers that waited while no process of the app listened, oldest first, taken
  /// once (`TakeResponses`).
  package func takeWaitingResponses() async throws(NotificationError) -> [NotificationResponse] {
    try await records("TakeResponses", [.string(app)]).compactMap { record in
      record.vardictEntries.flatMap { Self.response($0, app: app) }
    }
  }

  /// Replaces the app's categories, all or none (`SetCategories`).
  package func setCategories(_ categories: [NotificationCategory]) async throws(NotificationError) {
    let values = categories.map { category in
      BusValue.vardict([
        ("identifier", .string(category.identifier)),
        ("actions", .array(element: "a{sv}", category.actions.compactMap { BusValue(json: $0.jsonValue) })),
      ])
    }
    _ = try await call("SetCategories", [.string(app), .array(element: "a{sv}", values)])
  }

  /// The app's categories (`GetCategories`).
  package func categories() async throws(NotificationError) -> [NotificationCategory] {
    try await records("GetCategories", [.string(app)]).compactMap { record in
      guard case .object(let r)? = record.json, case .string(let identifier)? = r["identifier"] else {
        return nil
      }
      return NotificationCategory(
        identifier: identifier, actions: NotificationAction.list(fromJSON: r["actions"]))
    }
  }

  /// Records that the app asked for `kinds`; what its settings grant of them
  /// (`RequestAuthorization`).
  package func requestAuthorization(_ kinds: PresentationOptions) async throws(NotificationError)
    -> PresentationOptions
  {
    let values = try await call("RequestAuthorization", [.string(app), .uint32(UInt32(kinds.rawValue))])
    guard case .uint32(let granted)? = values.first else { return [] }
    return PresentationOptions(rawValue: Int(granted)).intersection(kinds)
  }

  /// The records of an `aa{sv}` reply.
  private func records(_ member: String, _ arguments: [BusValue]) async throws(NotificationError)
    -> [BusValue]
  {
    guard case .array(_, let records)? = try await call(member, arguments).first else { return [] }
    return records
  }

  /// The keys of a history record that are the event's own fields; the others are its
  /// `detail` (`HistoryEvent.jsonRecord`).
  static let historyFields: Set<String> = [
    "event", "at", "app", "id", "reason", "occurrence", "fireDate", "late", "soundRequested", "soundNote",
    "sequence", "atMs",
  ]

  /// A record of `ListDelivered` or `ListHistory` (`notify history --json`'s keys plus
  /// `sequence` and `atMs`); nil for one that does not read as an event.
  static func historyEvent(_ record: BusValue) -> HistoryEvent? {
    guard case .object(let r)? = record.json,
      let kind = r["event"]?.stringValue.flatMap(HistoryEvent.Kind.init),
      let app = r["app"]?.stringValue, let id = r["id"]?.stringValue
    else { return nil }
    let at =
      r["atMs"]?.intValue.map { Date(timeIntervalSince1970: Double($0) / 1000) }
      ?? r["at"]?.stringValue.flatMap(RFC3339.date(from:)) ?? Date(timeIntervalSince1970: 0)
    var event = HistoryEvent(
      sequence: Int64(r["sequence"]?.intValue ?? 0), at: at, app: app, notificationID: id, kind: kind,
      reason: r["reason"]?.stringValue, occurrence: r["occurrence"]?.intValue.map { Int($0) },
      fireDate: r["fireDate"]?.stringValue.flatMap(RFC3339.date(from:)), late: r["late"]?.boolValue,
      soundRequested: r["soundRequested"]?.stringValue, soundNote: r["soundNote"]?.stringValue)
    for (key, value) in r where !historyFields.contains(key) && !value.isNull { event.detail[key] = value }
    return event
  }

  /// A record of `ListHeld` (`notify list --json`'s held keys plus `fireDateMs`, `heldAtMs`).
  static func held(_ record: BusValue, app: String) -> HeldNotification? {
    guard case .object(let r)? = record.json, let stored = stored(record, app: app) else { return nil }
    let heldAt =
      r["heldAtMs"]?.intValue.map { Date(timeIntervalSince1970: Double($0) / 1000) }
      ?? r["heldAt"]?.stringValue.flatMap(RFC3339.date(from:)) ?? Date(timeIntervalSince1970: 0)
    return HeldNotification(
      key: 0, notification: stored.notification, occurrence: Int(r["occurrence"]?.intValue ?? 1),
      fireDate: stored.nextFireDate ?? heldAt, heldAt: heldAt)
  }
}
