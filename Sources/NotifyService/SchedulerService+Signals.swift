import NotifyCore
import NotifyStore

extension SchedulerService {
  /// The signals for what the store recorded since the last call, for the apps someone
  /// hears, with the connections each goes to. The first call only notes where history
  /// stands: what happened before the service ran is not news.
  func newSignals(after cursor: inout Int64?) -> [(destination: String, signal: SchedulerSignal)] {
    guard let top = try? store.lastHistorySequence() else { return [] }
    guard let last = cursor else {
      cursor = top
      return []
    }
    guard top > last else { return [] }
    defer { cursor = top }
    var out: [(String, SchedulerSignal)] = []
    for app in subscriptions.apps.sorted() {
      let hearers = subscriptions.connections(hearing: app)
      var seen = last
      reading: while let events = try? store.history(app: app, after: seen, writtenByOthers: false),
        !events.isEmpty
      {
        for event in events {
          guard event.sequence <= top else { break reading }
          seen = event.sequence
          guard let signal = SchedulerSignal(event) else { continue }
          for connection in hearers { out.append((connection, signal)) }
        }
      }
    }
    return out
  }
}
