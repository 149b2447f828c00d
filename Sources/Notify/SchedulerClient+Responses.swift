import Foundation
import NotifyCore
import NotifyDesktop

/// What the service answers, in the library's terms: its named errors as
/// `NotificationError` cases, `ListPending`'s records as `StoredNotification`s, the
/// settings, the launch response, and its signals as `NotificationEvent`s.
extension SchedulerClient {
  /// The case for a failed call: the one table from the service's error names to the
  /// public cases (docs/sandboxes.md has it), each the case the same failure has inside
  /// the service's own process (`NotificationError(NotifyError)`). The message becomes the
  /// case's words; nothing here reads it. What the name does not carry (the field, the
  /// ids, the holder) is unknown here: nil or empty.
  static func error(_ failure: SchedulerCallFailure) -> NotificationError {
    let context = NotificationError.Context(problem: failure.message)
    switch failure.schedulerError {
    case .limitReached: return .limitReached(id: nil, context)
    case .invalidTrigger, .invalidArgs: return .invalidContent(nil, nil, context)
    case .soundRejected: return .soundRejected(sound: nil, context)
    case .unknownID: return .notFound(ids: [], context)
    case .storeBusy: return .storeBusy(holder: nil, context)
    case .storeUnavailable: return .storeUnavailable(damaged: false, context)
    case .serverUnavailable: return .serverUnavailable(context)
    case .serverTimedOut: return .serverTimedOut(context)
    case .notAllowed: return .notAllowed(context)
    case nil: break
    }
    if failure.isTimeout {
      return .temporary(.init(problem: "notify's service did not answer in time: \(failure.message)"))
    }
    // The daemon's own failures (a full subscription table, a pipe it could not make): a
    // service before version 4 also sent this for the store unreadable and for no
    // notification server, which it told apart only in its words.
    if failure.errorName == "org.freedesktop.DBus.Error.Failed" { return .temporary(context) }
    return .storeUnavailable(
      damaged: false,
      .init(
        problem: "notify's service (\(SchedulerInterface.name)) cannot be reached: \(failure.message)",
        fix: "check that notify's daemon runs on the host and the app may talk to the name"))
  }

  /// A record of `ListPending` (the keys of `notify list --json` plus `fireDateMs`); nil
  /// for one that does not read as a notification.
  static func stored(_ record: BusValue, app: String) -> StoredNotification? {
    guard case .object(let r)? = record.json, case .string(let id)? = r["id"] else { return nil }
    func text(_ key: String) -> String? { r[key]?.stringValue }
    func date(_ key: String) -> Date? { text(key).flatMap(RFC3339.date(from:)) }
    // The listing shows the next fire instant, not an instant schedule's first one: for an
    // instant the schedule reads as starting at the next (the same for one not yet fired).
    let next = r["fireDateMs"]?.intValue.map { Date(timeIntervalSince1970: Double($0) / 1000) }
    var fireDate = FireDate.instant(next ?? date("fireDate") ?? Date(timeIntervalSince1970: 0))
    if let wall = text("wallClock"), case .wallClock(let components)? = ScheduleSpec.exclusion(wall) {
      fireDate = .wallClock(components, ZoneRule(identifier: text("timeZone") ?? "local"))
    }
    var schedule = Schedule(
      fireDate: fireDate, repeatInterval: text("repeat").flatMap(RepeatInterval.init(rawValue:)),
      repeatCount: r["repeatCount"]?.intValue.map { Int($0) }, until: date("until"))
    if let ruleText = text("rule"), var rule = try? RecurrenceRule(parsing: ruleText) {
      rule.exclusions = (r["except"]?.arrayValue ?? []).compactMap {
        $0.stringValue.flatMap(ScheduleSpec.exclusion)
      }
      schedule = Schedule(fireDate: fireDate)
      schedule.rule = rule
    }
    var realert: Realert?
    if case .object(let members)? = r["realert"], let every = members["every"]?.intValue,
      let times = members["times"]?.intValue
    {
      realert = Realert(every: Int(every), times: Int(times))
    }
    let notification = LocalNotification(
      id: id, app: text("app") ?? app, schedule: schedule, title: text("title"), body: text("body"),
      action: text("action"), launchImage: text("launchImage"), sound: SoundName(text("sound") ?? "none"),
      badge: r["badge"]?.intValue.map { Int($0) }, userInfo: r["userInfo"]?.objectValue ?? [:],
      urgency: text("urgency").flatMap(Urgency.init(rawValue:)) ?? .normal,
      actions: NotificationAction.list(fromJSON: r["actions"]), subtitle: text("subtitle"),
      interruptionLevel: text("interruptionLevel").flatMap(InterruptionLevel.init(text:)),
      threadIdentifier: text("threadIdentifier"), threadSummary: text("threadSummary"),
      attachments: (r["attachments"]?.arrayValue ?? []).compactMap(NotificationAttachment.init(json:)),
      bodyMarkup: r["bodyMarkup"]?.boolValue ?? false, categoryIdentifier: text("categoryIdentifier"),
      realert: realert, deliveredCount: Int(r["deliveredCount"]?.intValue ?? 0),
      createdAt: date("createdAt") ?? Date(timeIntervalSince1970: 0))
    return StoredNotification(
      rowID: 0, notification: notification, nextOccurrence: notification.deliveredCount, nextFireDate: next,
      snoozedOccurrence: r["snoozedOccurrence"]?.intValue.map { Int($0) })
  }

  /// `GetSettings`' keys: what is in force.
  static func settings(_ entries: [(key: String, value: BusValue)]) -> NotificationSettings {
    let flags = Dictionary(
      entries.compactMap { key, value in
        if case .bool(let flag) = value { (key, flag) } else { nil }
      }
    ) { $1 }
    let policy = NotificationSettings.allowAll
    return NotificationSettings(
      alerts: flags["alerts"] ?? policy.alerts, sounds: flags["sounds"] ?? policy.sounds,
      badges: flags["badges"] ?? policy.badges,
      breaksQuietHours: flags["breaksQuietHours"] ?? policy.breaksQuietHours,
      timeSensitive: flags["timeSensitive"] ?? policy.timeSensitive)
  }

  /// `TakeLaunchResponse`'s dictionary: `actionKey userText activationToken at occurrence`
  /// and the notification's keys.
  static func response(_ entries: [(key: String, value: BusValue)], app: String) -> NotificationResponse? {
    let record = BusValue.vardict(entries.map { ($0.key, $0.value) })
    guard case .object(let r)? = record.json, let stored = stored(record, app: app) else { return nil }
    return NotificationResponse(
      notification: stored.notification, actionKey: r["actionKey"]?.stringValue ?? "default",
      occurrence: r["occurrence"]?.intValue.map { Int($0) },
      activationToken: r["activationToken"]?.stringValue,
      date: r["at"]?.stringValue.flatMap(RFC3339.date(from:)) ?? Date(),
      userText: r["userText"]?.stringValue)
  }

  /// The event for a signal (`Delivered`, `Activated`, `Dismissed`: `s app, s id, [u
  /// reason,] a{sv} details`); nil for another member or another app. The signal carries
  /// the id, `userInfo` and (delivered) the title, which is what the event's notification
  /// holds.
  static func event(_ member: String, _ values: [BusValue], app: String) -> NotificationEvent? {
    guard values.count >= 3, case .string(let signalApp) = values[0], signalApp == app,
      case .string(let id) = values[1], case .object(let details)? = values.last?.json
    else { return nil }
    let at = details["at"]?.intValue.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? Date()
    let kind: NotificationEvent.Kind
    switch member {
    case "Delivered": kind = .delivered
    case "Activated": kind = .activated(actionKey: details["action"]?.stringValue ?? "default")
    case "Dismissed": kind = .dismissed(reason: details["reason"]?.stringValue)
    default: return nil
    }
    let notification = LocalNotification(
      id: id, app: app, schedule: Schedule(fireDate: .instant(at)), title: details["title"]?.stringValue,
      userInfo: details["userInfo"]?.objectValue ?? [:], createdAt: at)
    var event = NotificationEvent(
      kind: kind, notification: notification, date: at, userText: details["reply"]?.stringValue)
    event.activationToken = details["activationToken"]?.stringValue
    event.occurrence = details["occurrence"]?.intValue.map { Int($0) }
    return event
  }
}
