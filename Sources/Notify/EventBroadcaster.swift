import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Hands every event to every live subscriber. Each subscriber is an `AsyncStream`
/// registered when it is created, so no event published after `center.events` returns is
/// lost, and a subscriber that stops iterating is dropped.
final class EventBroadcaster: @unchecked Sendable {
  // Safe: `subscribers`, `nextKey` and `finished` are only touched with `lock` held.
  private let lock = NSLock()
  private var subscribers: [Int: AsyncStream<NotificationEvent>.Continuation] = [:]
  private var nextKey = 0
  private var finished = false

  /// How many undelivered events a slow subscriber keeps before the oldest are dropped.
  static let bufferSize = 256

  /// A new subscription.
  func subscribe() -> AsyncStream<NotificationEvent> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: NotificationEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferSize))
    let key: Int? = lock.withLock {
      guard !finished else { return nil }
      nextKey += 1
      subscribers[nextKey] = continuation
      return nextKey
    }
    guard let key else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.lock.withLock { _ = self?.subscribers.removeValue(forKey: key) }
    }
    return stream
  }

  /// Sends `event` to every subscriber.
  func publish(_ event: NotificationEvent) {
    let targets = lock.withLock { Array(subscribers.values) }
    for continuation in targets { continuation.yield(event) }
  }

  /// Ends every subscription; later ones end at once.
  func finish() {
    let targets = lock.withLock {
      finished = true
      defer { subscribers.removeAll() }
      return Array(subscribers.values)
    }
    for continuation in targets { continuation.finish() }
  }
}
