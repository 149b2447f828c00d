import Logging
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// The user's answers to the app's notifications, as one `AsyncSequence`
/// (`LocalNotificationCenter.responses`): `.activated` (a click: `actionKey` `default`; a
/// button; a reply, with `userText`) and `.dismissed` events, never `.delivered` ones.
///
/// Each iteration first takes what the store kept for the app while no process of it
/// listened, and yields it once: the launch response (the click that started this
/// process, `origin` `.launch`), then the answers that waited (`.waited`, oldest first).
/// Taking is atomic in the store, so of several iterations or processes only one yields
/// each. Then it yields what happens from now on (`.live`), for as long as it is iterated:
/// answers the desktop gives while the center's firing service runs, and those the app
/// records itself (`recordActivation(of:)`, `recordDismissal(of:)`).
///
/// ```swift
/// for await response in center.responses {
///   switch response.kind {
///   case .activated(let key): open(response.userInfo["room"]?.stringValue, action: key, reply: response.userText)
///   case .dismissed: markSeen(response.notification.id)
///   case .delivered: break  // not yielded here
///   }
/// }
/// ```
public struct NotificationResponses: AsyncSequence, Sendable {
  public typealias Element = NotificationEvent

  let center: LocalNotificationCenter

  /// Starts listening at once, so nothing that happens after this call is missed.
  public func makeAsyncIterator() -> Iterator {
    Iterator(center: center, live: center.events.makeAsyncIterator())
  }

  /// Yields the kept answers, then the live ones.
  public struct Iterator: AsyncIteratorProtocol {
    let center: LocalNotificationCenter
    var live: AsyncStream<NotificationEvent>.Iterator
    var kept: [NotificationEvent]? = nil

    /// The next answer; nil once the center is gone.
    public mutating func next() async -> NotificationEvent? {
      if kept == nil { kept = await center.takeKeptResponses() }
      if let first = kept?.first {
        kept?.removeFirst()
        return first
      }
      while let event = await live.next() {
        if event.kind != .delivered { return event }
      }
      return nil
    }
  }
}

extension LocalNotificationCenter {
  /// The launch response and the answers that waited, taken from the store once, as
  /// events. A store that cannot be read is logged and yields nothing (the answers stay
  /// for the next try).
  package func takeKeptResponses() async -> [NotificationEvent] {
    do {
      if let service {
        // The host's store keeps them; the service takes each once, for this app only.
        let launch = try await service.takeLaunchResponse()
        let waiting = try await service.takeWaitingResponses()
        return (launch.map { [NotificationEvent($0, origin: .launch)] } ?? [])
          + waiting.map { NotificationEvent($0, origin: .waited) }
      }
      let (launch, waiting) = try await calls.run {
        () throws(NotifyError) -> (NotificationResponse?, [NotificationResponse]) in
        (try self.takeLaunchResponse(), try self.takeWaitingResponses())
      }
      return (launch.map { [NotificationEvent($0, origin: .launch)] } ?? [])
        + waiting.map { NotificationEvent($0, origin: .waited) }
    } catch {
      NotifyLogging.logger("notify.responses").warning(
        "could not take the responses kept for app \(app): \(error)")
      return []
    }
  }
}
