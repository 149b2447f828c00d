import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

extension LocalNotificationCenter {
  /// The app's notifications quiet hours hold, oldest first.
  ///
  /// Each fell due while it was quiet and is shown when quiet hours end, unless the app
  /// withdraws it first: `cancel(_:)` and `cancelAll()` cancel held ones as they cancel
  /// pending ones (history `cancelled`, reason `quiet-hours`).
  public func held() async throws(NotificationError) -> [HeldNotification] {
    try await backend.held()
  }
}
