import Foundation
import NotifyCore
import NotifyDesktop
import NotifyTestSupport

/// A delivery of a notification with the given content, due now.
func makeDelivery(
  id: String = "n1", app: String = "chat", title: String? = nil, body: String? = nil,
  action: String? = nil, launchImage: String? = nil, sound: SoundName = .none, badge: Int? = nil,
  userInfo: [String: JSONValue] = [:], urgency: Urgency = .normal, occurrence: Int = 1,
  soundFile: String? = nil
) -> Delivery {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let notification = LocalNotification(
    id: id, app: app, schedule: Schedule(fireDate: .instant(now)), title: title, body: body,
    action: action, launchImage: launchImage, sound: sound, badge: badge, userInfo: userInfo,
    urgency: urgency, createdAt: now)
  return Delivery(
    notification: notification, occurrence: occurrence, fireDate: now, deliveredAt: now, late: false,
    soundFile: soundFile)
}

/// Collects the events a sink reports.
final class EventLog {
  var events: [DesktopEvent] = []

  /// Subscribes to `sink`.
  init(_ sink: DesktopSink) {
    sink.onEvent = { [unowned self] event in events.append(event) }
  }

  /// Processes the sink's bus until an event matching `predicate` arrived or `timeout`
  /// passed; the first match, or nil.
  func next(
    from sink: DesktopSink, timeout: Duration = .seconds(5),
    where predicate: (DesktopEvent) -> Bool = { _ in true }
  ) -> DesktopEvent? {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
      sink.processPending()
      if let index = events.firstIndex(where: predicate) { return events.remove(at: index) }
      let left = deadline - clock.now
      if left <= .zero { return nil }
      _ = sink.wait(timeout: min(left, .milliseconds(200)))
    }
  }
}

extension HeadlessDesktop {
  /// A sink connected to this session's bus.
  func makeSink(timeout: Duration = .seconds(5)) throws -> DesktopSink {
    try DesktopSink(configuration: .init(callTimeout: timeout, busAddress: busAddress))
  }
}
