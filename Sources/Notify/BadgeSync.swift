import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Keeps the launcher's badges in step with the store from a process that stays on the
/// bus (SPEC.md §7): every app's badge is published when the daemon starts, and again
/// whenever it (or the app's badge setting) changes in the store, e.g. by `notify badge N` from another process.
package final class BadgeSync {
  private let store: SQLiteStore
  private let desktop: DesktopSink
  private var published: [String: Int] = [:]

  /// Creates a sync publishing `store`'s badges through `desktop`.
  public init(store: SQLiteStore, desktop: DesktopSink) {
    self.store = store
    self.desktop = desktop
  }

  /// Publishes every badge that differs from what this process last published.
  public func sync() {
    guard let badges = try? store.badges() else { return }
    var shown: [String: Int] = [:]
    for (app, stored) in badges { shown[app] = Self.launcherCount(stored, app: app, store: store) }
    sync(launcherBadges: shown)
  }

  /// Publishes every badge of `launcherBadges` (what the launcher shows per app, read by
  /// `SQLiteStore.busOutlook`) that differs from what this process last published.
  public func sync(launcherBadges: [String: Int]) {
    for (app, count) in launcherBadges.sorted(by: { $0.key < $1.key }) {
      guard published[app] != count else { continue }
      do {
        try desktop.publishBadge(app: app, count: count)
        published[app] = count
      } catch {
        // The bus is gone for now; the next change or restart publishes it again.
        return
      }
    }
  }

  /// What the launcher shows for `app`'s stored badge `count`: nothing (0) when the user
  /// switched the app's badges off (the store still counts); unreadable settings show it.
  static func launcherCount(_ count: Int, app: String, store: SQLiteStore?) -> Int {
    (try? store?.settingsInForce(app: app).badges) == false ? 0 : count
  }
}
