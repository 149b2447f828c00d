import Foundation

/// What quiet hours do to a delivery, and how what they held comes out when they end.
public enum QuietRelease {
  /// The history reason of an occurrence held during quiet hours.
  public static let heldReason = "quiet-hours"
  /// The history reason of a held occurrence that came out inside a summary bubble.
  public static let summarizedReason = "quiet-hours-summary"
  /// More held occurrences of one app than this come out as one summary bubble.
  public static let summaryThreshold = 3

  /// Whether `notification` is held at this moment: it is quiet, the user did not let its
  /// app break through, it is not critical, and it is not time-sensitive where the user lets
  /// the app's time-sensitive notifications through (`NotificationSettings.timeSensitive`).
  public static func holds(_ notification: LocalNotification, quiet: Bool, settings: NotificationSettings)
    -> Bool
  {
    guard quiet, !settings.breaksQuietHours else { return false }
    switch notification.interruptionLevel {
    case .critical: return false
    case .timeSensitive: return !settings.timeSensitive
    case .passive, .active: return true
    }
  }

  /// Of the apps with held notifications, those to release now (quiet hours are over, or
  /// the app may break through), each with its settings, and whether some stay held.
  public static func releasable(_ apps: [String: NotificationSettings], quiet: Bool)
    -> (release: [String: NotificationSettings], stillHeld: Bool)
  {
    let release = apps.filter { !quiet || $0.value.breaksQuietHours }
    return (release, release.count < apps.count)
  }

  /// When a firer is to look at what quiet hours hold again, after a wake-up that leaves
  /// something held (`holding`: held before and still quiet for its app, or held by this
  /// wake-up): when the quiet in force ends, or at once when it has ended already (it ended
  /// during the wake-up). Nil when nothing is held, or when the quiet ends only by hand
  /// (`notify quiet off` commits to the store, which wakes every firer).
  ///
  /// A firer arms the earliest of this and its next due instant, so that what it held comes
  /// out when quiet ends by itself (`quiet on --for`, a nightly window) with nothing else due.
  public static func nextLook(holding: Bool, quiet: QuietHours, at now: Date, in zone: Zone) -> Date? {
    guard holding else { return nil }
    guard quiet.isQuiet(at: now, in: zone) else { return now }
    return quiet.currentPeriodEnd(after: now, in: zone)
  }

  /// One step of a release.
  public enum Step: Hashable, Sendable {
    /// Shown as it was, late.
    case each(HeldNotification)
    /// Shown as one bubble saying how many were held, newest titles first; each recorded.
    case summary(app: String, [HeldNotification])
  }

  /// The steps for `held`, oldest first: each app with more than `summaryThreshold` held
  /// outside threads gets one summary of those, the others come out one by one. A
  /// notification of a thread is never summarized: it comes out on its own, into its
  /// thread's bubble like any delivery of the thread (`ThreadSummary`), after the app's
  /// summary.
  public static func plan(_ held: [HeldNotification]) -> [Step] {
    let byApp = Dictionary(grouping: held, by: \.notification.app)
    var steps: [Step] = []
    for app in byApp.keys.sorted() {
      let ones = byApp[app]!.sorted { ($0.fireDate, $0.key) < ($1.fireDate, $1.key) }
      let loose = ones.filter { $0.notification.threadIdentifier == nil }
      if loose.count > summaryThreshold {
        steps.append(.summary(app: app, loose))
        steps += ones.filter { $0.notification.threadIdentifier != nil }.map(Step.each)
      } else {
        steps += ones.map(Step.each)
      }
    }
    return steps
  }

  /// The summary bubble for `held` (all of `app`): title "N notifications during quiet
  /// hours", the newest titles (or bodies) as body, the newest badge, no sound.
  public static func summary(app: String, _ held: [HeldNotification], id: String, at now: Date)
    -> LocalNotification
  {
    let newest = held.sorted { ($0.fireDate, $0.key) > ($1.fireDate, $1.key) }
    let lines = newest.prefix(5).compactMap { $0.notification.title ?? $0.notification.body }
    var body = lines.joined(separator: "\n")
    if held.count > lines.count, !lines.isEmpty { body += "\n…" }
    return LocalNotification(
      id: id, app: app, schedule: Schedule(fireDate: .instant(now)),
      title: "\(held.count) notifications during quiet hours",
      body: body.isEmpty ? nil : String(body.prefix(Validator.maxBody)),
      badge: newest.lazy.compactMap(\.notification.badge).first,
      userInfo: ["quietHours": .array(newest.map { .string($0.notification.id) })], createdAt: now)
  }
}
