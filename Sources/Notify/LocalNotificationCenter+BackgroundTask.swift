import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

extension LocalNotificationCenter {
  /// Begins work that must finish within `budget` (iOS `beginBackgroundTask`): the
  /// expiration handler runs once, shortly before the budget is spent, so the work can
  /// stop starting new things and put back what it has not begun. Call `end()` when done.
  ///
  /// ```swift
  /// let task = center.beginBackgroundTask(name: "flush", budget: .seconds(10)) { stop.set() }
  /// defer { task.end() }
  /// while !stop.isSet, let next = outbox.popFirst() { try await center.add(NotificationRequest(content: next, trigger: nil)) }
  /// print(task.timeRemaining)
  /// ```
  public func beginBackgroundTask(
    name: String, budget: Duration, expirationHandler: @escaping @Sendable () -> Void
  ) -> BackgroundTask {
    let parts = budget.components
    return BackgroundTask.begin(
      named: name, budget: Double(parts.seconds) + Double(parts.attoseconds) / 1e18, clock: clock,
      trigger: .dispatch, expirationHandler: expirationHandler)
  }
}
