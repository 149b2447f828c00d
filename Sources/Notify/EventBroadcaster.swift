import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones
import Synchronization

/// Hands every event to every live subscriber. Each subscriber is an `AsyncStream`
/// registered when it is created, so no event published after `center.events` returns is
/// lost, and a subscriber that stops iterating is dropped.
final class EventBroadcaster: Sendable {
  private struct Subscribers {
    var byKey: [Int: AsyncStream<NotificationEvent>.Continuation] = [:]
    var nextKey = 0
    var finished = false
  }
  /// Shared by design: the owner and the app's tasks publish, the app's tasks subscribe.
  private let subscribers = Mutex(Subscribers())

  /// How many undelivered events a slow subscriber keeps before the oldest are dropped.
  static let bufferSize = 256

  /// A new subscription.
  func subscribe() -> AsyncStream<NotificationEvent> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: NotificationEvent.self, bufferingPolicy: .bufferingNewest(Self.bufferSize))
    let key: Int? = subscribers.withLock { subscribers in
      guard !subscribers.finished else { return nil }
      subscribers.nextKey += 1
      subscribers.byKey[subscribers.nextKey] = continuation
      return subscribers.nextKey
    }
    guard let key else {
      continuation.finish()
      return stream
    }
    continuation.onTermination = { [weak self] _ in
      self?.subscribers.withLock { _ = $0.byKey.removeValue(forKey: key) }
    }
    return stream
  }

  /// Sends `event` to every subscriber.
  func publish(_ event: NotificationEvent) {
    let targets = subscribers.withLock { Array($0.byKey.values) }
    for continuation in targets { continuation.yield(event) }
  }

  /// Ends every subscription; later ones end at once.
  func finish() {
    let targets = subscribers.withLock { subscribers in
      subscribers.finished = true
      defer { subscribers.byKey.removeAll() }
      return Array(subscribers.byKey.values)
    }
    for continuation in targets { continuation.finish() }
  }
}
