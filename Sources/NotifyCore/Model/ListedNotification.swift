import Foundation

/// One entry of an app's list (`notify list`): a pending notification, or an occurrence
/// quiet hours hold. A held one is the app's as much as a pending one: it lists it and can
/// cancel it until quiet ends.
public enum ListedNotification: Hashable, Sendable {
  /// Held for quiet hours: shown when they end, unless cancelled first.
  case held(HeldNotification)
  /// Scheduled, waiting for its next fire instant.
  case pending(StoredNotification)

  /// The list: held ones first, oldest first (they fell due already and come out as soon as
  /// quiet ends), then the pending ones in the order given (soonest first).
  public static func list(held: [HeldNotification], pending: [StoredNotification]) -> [ListedNotification] {
    held.sorted { ($0.fireDate, $0.key) < ($1.fireDate, $1.key) }.map(Self.held) + pending.map(Self.pending)
  }

  /// `held` or `pending`: the `state` member of `list --json`.
  public var state: String {
    switch self {
    case .held: "held"
    case .pending: "pending"
    }
  }

  /// The notification (a held one as it was when it fell due: content only, as a one-shot).
  public var notification: LocalNotification {
    switch self {
    case .held(let held): held.notification
    case .pending(let pending): pending.notification
    }
  }

  /// A pending one's next fire instant; the instant a held one fell due.
  public var fireDate: Date? {
    switch self {
    case .held(let held): held.fireDate
    case .pending(let pending): pending.nextFireDate
    }
  }

  /// `list --json`'s object: the notification JSON (SPEC.md §5), then `state`; a held one
  /// also has `occurrence` (1-based) and `heldAt` (RFC 3339 with milliseconds), and a held
  /// re-alert `realertNumber` and `realertOccurrence` as a pending one has.
  public var jsonRecord: JSONRecord {
    switch self {
    case .held(let held):
      var r = held.notification.jsonRecord(fireDate: held.fireDate)
      r.set("state", state)
      r.set("occurrence", held.occurrence)
      r.set("heldAt", RFC3339.string(from: held.heldAt, milliseconds: true))
      if let realert = held.realertCopy {
        r.set("realertNumber", realert.number)
        r.set("realertOccurrence", realert.occurrence)
      }
      return r
    case .pending(let pending):
      var r = pending.jsonRecord
      r.set("state", state)
      return r
    }
  }
}
