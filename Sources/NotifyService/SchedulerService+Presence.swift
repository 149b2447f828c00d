import Foundation
import NotifyCore
import NotifyStore

/// A subscribed app is a running app (docs/decisions/0037): while a connection hears an
/// app's signals, the daemon keeps a presence row for the app in the store, as a process
/// of the app that runs a center does. A click then reaches it as it reaches any running
/// app (history, heard as `Activated`) instead of also being kept as an answer that waits
/// for the app, which its next `TakeResponses` would hand over a second time.
extension SchedulerService {
  /// `connection` hears `app` from now on; the app is present while someone hears it.
  func subscribe(_ connection: String, app: String) throws(SchedulerError) {
    try changeSubscriptions { subscriptions throws(SchedulerError) in
      try subscriptions.add(connection, app: app)
    }
  }

  /// `connection` left the bus: it hears nothing any more.
  func drop(_ connection: String) {
    changeSubscriptions { $0.drop(connection) }
    clientVersions.drop(connection)
  }

  /// The daemon stops serving: no app is present through it any more.
  func leaveAll() {
    changeSubscriptions { $0 = Subscriptions() }
  }

  /// Applies `change` to the subscriptions, and enters or leaves the presence of each app
  /// that gained its first hearer or lost its last.
  func changeSubscriptions<E: Error>(_ change: (inout Subscriptions) throws(E) -> Void) throws(E) {
    let before = subscriptions.apps
    try change(&subscriptions)
    let after = subscriptions.apps
    for app in after.subtracting(before).sorted() {
      do { try store.enter(Self.presence(app), at: clock.now()) } catch {
        logger.notice("\(app) is heard but could not be recorded as running: \(error)")
      }
    }
    for app in before.subtracting(after).sorted() {
      do { try store.leave(Self.presence(app)) } catch {
        logger.notice("\(app) is no longer heard but is still recorded as running: \(error)")
      }
    }
  }

  /// The presence of `app` the daemon holds for its subscribers: not firing, no sink.
  static func presence(_ app: String) -> AppPresence {
    AppPresence(app: app, owner: .current, fires: false, sink: nil)
  }
}
