import Foundation
import NotifyCore
import NotifyDesktop

/// One signal of the interface, for the connections that hear its app: made from the
/// history row the store recorded (whichever process delivered the notification or heard
/// the click), so the signals follow the one path every notification takes.
struct SchedulerSignal: Equatable {
  /// `Delivered`, `Activated` or `Dismissed`.
  var member: String
  /// The app it concerns.
  var app: String
  /// The signal's arguments.
  var values: [BusValue]

  /// The closing reasons of `Dismissed` (`u`), as org.freedesktop.Notifications numbers them.
  enum DismissReason: UInt32 {
    case expired = 1, dismissedByUser = 2, closedByCall = 3, undefined = 4

    init(history reason: String?) {
      switch reason {
      case "expired": self = .expired
      case "dismissed-by-user": self = .dismissedByUser
      case "closed-by-call", "dismissed-by-app": self = .closedByCall
      default: self = .undefined
      }
    }
  }

  /// The signal for a history row, nil for kinds apps do not hear of.
  init?(_ event: HistoryEvent) {
    func text(_ key: String) -> String? {
      if case .string(let value)? = event.detail[key] { return value }
      return nil
    }
    var details: [(String, BusValue)] = [("at", .int64(RFC3339.millisecondsSince1970(event.at)))]
    if let occurrence = event.occurrence {
      details.append(("occurrence", .uint32(UInt32(clamping: occurrence))))
    }
    let userInfo = event.detail["userInfo"].flatMap(BusValue.init(json:)) ?? .vardict([])
    switch event.kind {
    case .delivered:
      member = "Delivered"
      if let fireDate = event.fireDate {
        details.append(("fireDateMs", .int64(RFC3339.millisecondsSince1970(fireDate))))
      }
      if let late = event.late { details.append(("late", .bool(late))) }
      if let title = text("title") { details.append(("title", .string(title))) }
      details.append(("userInfo", userInfo))
      values = [.string(event.app), .string(event.notificationID), .vardict(details)]
    case .activated:
      member = "Activated"
      details.append(("action", .string(event.reason ?? "default")))
      if let reply = text("text") { details.append(("reply", .string(reply))) }
      if let token = text("activationToken") { details.append(("activationToken", .string(token))) }
      details.append(("userInfo", userInfo))
      values = [.string(event.app), .string(event.notificationID), .vardict(details)]
    case .dismissed:
      member = "Dismissed"
      if let reason = event.reason { details.append(("reason", .string(reason))) }
      values = [
        .string(event.app), .string(event.notificationID),
        .uint32(DismissReason(history: event.reason).rawValue),
        .vardict(details),
      ]
    default:
      return nil
    }
    app = event.app
  }
}
