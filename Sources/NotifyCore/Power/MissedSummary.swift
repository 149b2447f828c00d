import Foundation

/// What a catch-up missed, said once: after a sleep or a boot in which several
/// notifications of an app fell due past how late they may be shown (`expireLate`, the
/// firer's misfire grace), one bubble per app says how many and which, as quiet hours' summary
/// does for what they held.
///
/// Pure: the firer gathers the `missed` events its claims recorded during one wake-up and
/// shows what `plan` returns through the usual hand-off.
public enum MissedSummary {
  /// An app with at least this many missed in one catch-up gets a summary; fewer are only
  /// in history (one expired notification is what its `expireLate` asked for).
  public static let threshold = 2
  /// The history reason of an occurrence recorded missed past its own `expireLate`.
  public static let expiredReason = "expire-late"
  /// The history reason of one recorded missed past the firer's `--misfire-grace`.
  public static let misfireReason = "misfire-grace"

  /// The summaries for `missed` (history events of kind `missed`, of any apps), one per app
  /// with at least `threshold`, ordered by app, each with id `idPrefix-APP-…` from
  /// `makeID`.
  public static func plan(_ missed: [HistoryEvent], at now: Date, makeID: (String) -> String)
    -> [LocalNotification]
  {
    let byApp = Dictionary(grouping: missed.filter { $0.kind == .missed }, by: \.app)
    return byApp.keys.sorted().compactMap { app in
      let events = byApp[app]!
      guard events.count >= threshold else { return nil }
      return summary(app: app, events, id: makeID(app), at: now)
    }
  }

  /// The summary bubble for `events` (all of `app`): "N notifications missed while the
  /// computer was asleep or off", the newest titles (or bodies) with how late each was.
  public static func summary(app: String, _ events: [HistoryEvent], id: String, at now: Date)
    -> LocalNotification
  {
    let newest = events.sorted {
      ($0.fireDate ?? $0.at, $0.notificationID) > ($1.fireDate ?? $1.at, $1.notificationID)
    }
    let lines = newest.prefix(5).map { event -> String in
      let text =
        event.detail["title"]?.stringValue ?? event.detail["body"]?.stringValue ?? event.notificationID
      let late = event.fireDate.map { " (\(lateText(now.timeIntervalSince($0))) late)" } ?? ""
      return String(text.prefix(120)) + late
    }
    var body = lines.joined(separator: "\n")
    if events.count > lines.count { body += "\n…" }
    return LocalNotification(
      id: id, app: app, schedule: Schedule(fireDate: .instant(now)),
      title: "\(events.count) notifications missed while the computer was asleep or off",
      body: String(body.prefix(Validator.maxBody)),
      userInfo: ["missed": .array(newest.map { .string($0.notificationID) })], createdAt: now)
  }

  /// How late, as a person reads it: `45 s`, `12 min`, `3 h 5 min`, `2 days`.
  public static func lateText(_ seconds: TimeInterval) -> String {
    let s = max(0, Int(seconds.rounded()))
    if s < 60 { return "\(s) s" }
    if s < 3600 { return "\(s / 60) min" }
    if s < 86_400 {
      let minutes = (s % 3600) / 60
      return "\(s / 3600) h" + (minutes > 0 ? " \(minutes) min" : "")
    }
    let days = s / 86_400
    return "\(days) day\(days == 1 ? "" : "s")"
  }
}
