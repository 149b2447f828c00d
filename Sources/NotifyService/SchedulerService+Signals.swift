import NotifyCore
import NotifyStore

extension SchedulerService {
  /// The signals for what the store recorded since the last call, for the apps someone
  /// hears, with the connections each goes to, read in one transaction. The first call
  /// only notes where history stands: what happened before the service ran is not news.
  /// While nobody hears any app, history is not read at all: `cursor` is forgotten, and
  /// the next `Subscribe` notes where history stands then (`startFollowing`).
  func newSignals(after cursor: inout Int64?) -> [(destination: String, signal: SchedulerSignal)] {
    let apps = subscriptions.apps
    guard !apps.isEmpty else {
      cursor = nil
      return []
    }
    guard let last = cursor else {
      startFollowing(&cursor)
      return []
    }
    guard let gained = try? store.history(after: last, apps: apps, writtenByOthers: false) else { return [] }
    cursor = gained.top
    var out: [(String, SchedulerSignal)] = []
    for event in gained.events {
      // (announced as it was handed over)
      if event.kind == .delivered, announced.take(event) { continue }
      guard let signal = SchedulerSignal(event) else { continue }
      for connection in subscriptions.connections(hearing: event.app) { out.append((connection, signal)) }
    }
    return out
  }

  /// `Delivered` for the deliveries the daemon's firer handed over in process, for the
  /// connections that hear their apps.
  func signals(for deliveries: [Delivery]) -> [(destination: String, signal: SchedulerSignal)] {
    var out: [(String, SchedulerSignal)] = []
    for delivery in deliveries {
      let event = HistoryEvent(delivery: delivery)
      guard let signal = SchedulerSignal(event) else { continue }
      announced.insert(event)
      for connection in subscriptions.connections(hearing: delivery.notification.app) {
        out.append((connection, signal))
      }
    }
    return out
  }

  /// Notes where history stands, when `cursor` does not follow it yet: a subscriber hears
  /// what is recorded from now on.
  func startFollowing(_ cursor: inout Int64?) {
    guard cursor == nil else { return }
    cursor = try? store.lastHistorySequence()
  }
}
