import Foundation
import NotifyCore
import NotifyDesktop

extension HistoryEvent {
  /// The history entry for an activation or dismissal the desktop reported (SPEC.md §7).
  public init(_ event: DesktopEvent, at date: Date) {
    switch event.kind {
    case .activated(let actionKey):
      self.init(
        at: date, app: event.app, notificationID: event.id, kind: .activated, reason: actionKey,
        occurrence: event.occurrence, detail: ["userInfo": .object(event.userInfo)])
    case .dismissed(let reason):
      self.init(
        at: date, app: event.app, notificationID: event.id, kind: .dismissed, reason: "\(reason)",
        occurrence: event.occurrence, detail: ["userInfo": .object(event.userInfo)])
    }
  }
}
