import NotifyCore
import NotifyDesktop
import NotifyStore

/// Taking the app's notifications off the screen, whichever process showed them; blocking,
/// on the owner of the sinks.
extension OwnStoreBackend {
  /// Takes the app's delivered notifications with these ids off the screen
  /// (`removeDeliveredNotifications(withIdentifiers:)`), whichever process showed them,
  /// and records each as `dismissed` (`dismissed-by-app`). Returns the ids that were not
  /// on screen (as far as the store knows); the others are withdrawn anyway. Throws
  /// `.unavailable` when no notification server answers.
  @discardableResult
  package func removeDelivered(_ ids: [String]) throws(NotifyError) -> [String] {
    try firer.owner.runBlocking { () throws(NotifyError) in try self.removeDeliveredOnOwner(ids) }
  }

  /// `removeDelivered`, on the owner of the sinks.
  private func removeDeliveredOnOwner(_ ids: [String]) throws(NotifyError) -> [String] {
    let known = Dictionary(
      try store.desktopServerIDs().filter { $0.app == app }.map {
        ($0.id, ServerBubbleID($0.serverID, server: $0.server))
      }
    ) { $1 }
    var missing = ids.filter { known[$0] == nil }
    let targets = ids.filter { known[$0] != nil }
    guard !targets.isEmpty else { return missing }
    var desktop = sinks.desktop
    for id in targets {
      if known[id]?.server == PortalSink.serverInstance {
        // Shown through the portal: only the portal can take it back, and only this app's.
        guard let portal = sinks.portal else {
          missing.append(id)
          continue
        }
        try portal.withdraw(id: id)
      } else {
        if desktop == nil { desktop = try DesktopSink() }
        guard let desktop, try desktop.withdraw(app: app, id: id, stored: known[id]) else {
          missing.append(id)
          continue
        }
      }
      try store.setDesktopServerID(nil, app: app, id: id)
      try interactions.record(
        .dismissed(reason: LocalNotificationCenter.withdrawnReason), id: id, evenIfUnknown: true)
    }
    return missing
  }

  /// Takes the app's delivered notifications of `thread` still on screen off it (the
  /// thread's bubble); returns their ids.
  @discardableResult
  package func removeDelivered(thread: String) throws(NotifyError) -> [String] {
    let ids = try deliveredOnScreen(thread: thread).map(\.notificationID)
    let missing = Set(try removeDelivered(ids))
    return ids.filter { !missing.contains($0) }
  }

  /// The app's notifications of `thread` the desktop still shows, newest first: the
  /// thread's bubble shows the latest (`ThreadSummary`).
  package func deliveredOnScreen(thread: String) throws(NotifyError) -> [HistoryEvent] {
    try store.onScreen(app: app).filter { $0.detail["threadIdentifier"] == .string(thread) }
  }

  /// Takes every delivered notification of the app still on screen off it; returns their ids.
  @discardableResult
  package func removeAllDelivered() throws(NotifyError) -> [String] {
    let ids = try store.desktopServerIDs().filter { $0.app == app }.map(\.id)
    let missing = Set(try removeDelivered(ids))
    return ids.filter { !missing.contains($0) }
  }
}
