import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

extension HistoryEvent {
  /// The history entry for an activation or dismissal the desktop reported (SPEC.md §7),
  /// with the notification's title, body, launch image and userInfo.
  package init(_ event: DesktopEvent, at date: Date) {
    let (kind, reason): (Kind, String) =
      switch event.kind {
      case .activated(let actionKey): (.activated, actionKey)
      case .dismissed(let why): (.dismissed, why.name)
      }
    self = .interaction(
      kind, reason: reason, app: event.app, id: event.id, occurrence: event.occurrence,
      userInfo: event.userInfo, at: date)
    if let notification = event.notification { detail = HistoryEvent.detail(of: notification) }
  }
}
