import Logging
import NotifyCore
import NotifyStore

/// Everything that happens to the app's notifications, as one `AsyncSequence`
/// (`LocalNotificationCenter.events`): `.delivered` (a delivery by this process: presented,
/// or fired by its firing service), `.activated` (a click: `actionKey` `default`; a button;
/// a reply, with `userText`) and `.dismissed`. The answers are what
/// `userNotificationCenter(_:didReceive:)` gets, the deliveries what `willPresent` sees.
///
/// The first iteration first takes what the store kept for the app while no process of it
/// listened, and yields it once: the launch response (the click that started this process,
/// `origin` `.launch`), then the answers that waited (`.waited`, oldest first). Taking is
/// atomic in the store, so of several sequences or processes only one yields each. Then it
/// yields what happens from the moment the sequence was made (`.live`), for as long as it
/// is iterated and the center lives: deliveries, answers the desktop gives while the
/// center's firing service runs, and those the app records itself (`recordActivation(of:)`,
/// `recordDismissal(of:)`).
///
/// Each access to `events` makes one subscription, listening from that moment (make it
/// before the call whose events it should see); iterate it once.
///
/// ```swift
/// for await event in center.events {
///   switch event.kind {
///   case .activated(let key): open(event.userInfo["room"]?.stringValue, action: key, reply: event.userText)
///   case .dismissed: markSeen(event.notification.id)
///   case .delivered: break  // shown (or, with presentation .none, to be shown by the app)
///   }
/// }
/// ```
public struct NotificationEvents: AsyncSequence, Sendable {
  public typealias Element = NotificationEvent

  /// The answers kept in the store, taken on the first `next()`.
  let kept: @Sendable () async -> [NotificationEvent]
  /// What happens from the moment the sequence was made.
  let live: AsyncStream<NotificationEvent>

  /// Subscribes at once, so nothing that happens after this call is missed.
  init(center: LocalNotificationCenter) {
    live = center.broadcaster.subscribe()
    // Weakly: iterating does not keep the center alive, and its end ends the sequence.
    kept = { [weak center] in await center?.takeKeptResponses() ?? [] }
  }

  public func makeAsyncIterator() -> Iterator {
    Iterator(take: kept, live: live.makeAsyncIterator())
  }

  /// Yields the kept answers, then everything live.
  public struct Iterator: AsyncIteratorProtocol {
    let take: @Sendable () async -> [NotificationEvent]
    var live: AsyncStream<NotificationEvent>.Iterator
    var kept: [NotificationEvent]? = nil

    /// The next event; nil once the center is gone.
    public mutating func next() async -> NotificationEvent? {
      if kept == nil { kept = await take() }
      if let first = kept?.first {
        kept?.removeFirst()
        return first
      }
      return await live.next()
    }
  }
}

extension LocalNotificationCenter {
  /// The launch response and the answers that waited, taken from the store once, as
  /// events. A store that cannot be read is logged and yields nothing (the answers stay
  /// for the next try).
  package func takeKeptResponses() async -> [NotificationEvent] {
    do {
      let (launch, waiting) = try await backend.takeKeptResponses()
      return (launch.map { [NotificationEvent($0, origin: .launch)] } ?? [])
        + waiting.map { NotificationEvent($0, origin: .waited) }
    } catch {
      NotifyLogging.logger("notify.responses").warning(
        "could not take the responses kept for app \(app): \(error)")
      return []
    }
  }
}
