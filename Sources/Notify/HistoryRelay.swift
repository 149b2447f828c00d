import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Tells a running app what other processes recorded of its notifications: a delivery by
/// the daemon, a click or close the daemon heard, a withdrawal by `notify dismiss`. Reads
/// the app's history past the last row it saw, leaving out the rows its own store
/// connection wrote (those it published as they happened), in one read
/// (`SQLiteStore.history(after:apps:writtenByOthers:)`, as the D-Bus service follows it).
final class HistoryRelay: Sendable {
  let app: String
  let store: SQLiteStore
  let broadcaster: EventBroadcaster
  /// The last history row looked at; nil until `start()`.
  private let cursor = Locked<Int64?>(nil)

  init(app: String, store: SQLiteStore, broadcaster: EventBroadcaster) {
    self.app = app
    self.store = store
    self.broadcaster = broadcaster
  }

  /// From now on: what was recorded before is not news.
  func start() {
    let last = (try? store.lastHistorySequence()) ?? 0
    cursor.value = last
  }

  func stop() { cursor.value = nil }

  /// Publishes what others recorded since the last call. Deliveries and withdrawals reach
  /// every process of the app; a response (a click, an action, a reply, a close) reaches
  /// one (`hears`), so that a reply is sent once.
  func relay() {
    guard let last = cursor.value,
      let gained = try? store.history(after: last, apps: [app], writtenByOthers: true)
    else { return }
    var online: [AppPresence]?
    for event in gained.events {
      guard let published = notificationEvent(for: event) else { continue }
      if event.kind == .activated || event.kind == .dismissed {
        if online == nil { online = (try? store.presences(app: app)) ?? [] }
        guard Self.hears(event, online: online ?? [], me: getpid()) else { continue }
      }
      broadcaster.publish(published)
    }
    cursor.value = gained.top
  }

  /// Whether process `me` is the one to hear a response another connection recorded:
  /// never when an online process of the app recorded it (that one showed the bubble and
  /// heard it itself), else only when `me` is the app's process online longest (`online`
  /// is in that order). No process online means nobody hears it here: a click launches.
  static func hears(_ event: HistoryEvent, online: [AppPresence], me: Int32) -> Bool {
    if let recorder = event.recordedBy, online.contains(where: { $0.owner.pid == recorder }) { return false }
    return online.first?.owner.pid == me
  }

  /// The app's event for a history row, nil for kinds apps do not hear of (cancelled,
  /// discarded, missed, failed).
  func notificationEvent(for event: HistoryEvent) -> NotificationEvent? {
    guard let kind = NotificationEvent.Kind(event.kind, reason: event.reason) else { return nil }
    func text(_ key: String) -> String? {
      if case .string(let value)? = event.detail[key] { return value }
      return nil
    }
    var userInfo: [String: JSONValue] = [:]
    if case .object(let members)? = event.detail["userInfo"] { userInfo = members }
    let notification = LocalNotification(
      id: event.notificationID, app: event.app,
      schedule: Schedule(fireDate: .instant(event.fireDate ?? event.at)),
      title: text("title"), body: text("body"), launchImage: text("launchImage"), userInfo: userInfo,
      actions: NotificationAction.list(fromJSON: event.detail["actions"]),
      deliveredCount: event.occurrence ?? 0, createdAt: event.at)
    return NotificationEvent(kind: kind, notification: notification, date: event.at, userText: text("text"))
  }
}
