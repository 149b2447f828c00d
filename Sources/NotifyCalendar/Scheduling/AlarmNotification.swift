import Foundation
import NotifyCore

/// The local notification an alarm instant becomes: one-shot at the instant, in the
/// calendar's app, with the item's summary as title and description as body (cut to the
/// limits and cleaned of control characters), a DISPLAY alarm silent and an AUDIO one
/// with its ATTACH sound (a file name of the app's sound folders; a sound notify cannot
/// find plays the default sound at fire time, as for any notification), REPEAT/DURATION
/// as re-alerts until acknowledged, and two buttons: snooze and dismiss. It is drafted
/// here and read and checked by `RequestCodec`, as a request through any other door is.
public enum AlarmNotification {
  /// The snooze button's interval.
  public static let snoozeSeconds = 300
  /// The dismiss button's key: picking it acknowledges the alarm, as any action does.
  public static let dismissKey = "dismiss"

  /// The notification for `instant` of calendar `calendar` in app `app`, checked by the
  /// rules every request meets; `zone` is the one the subtitle (when the occurrence
  /// starts) is written in. Throws what the rules refuse, in the words every door gives.
  public static func make(
    _ instant: AlarmInstant, calendar: String, app: String, createdAt: Date, zone: Zone
  ) throws(NotifyError) -> CheckedNotification {
    try RequestCodec.notification(draft(instant, calendar: calendar, app: app, zone: zone), now: createdAt)
  }

  /// The request an alarm instant makes, as the calendar gives it: the texts cleaned to fit
  /// the rules (a calendar's SUMMARY is not the user's to shorten), not yet checked.
  public static func draft(_ instant: AlarmInstant, calendar: String, app: String, zone: Zone)
    -> NotificationDraft
  {
    let title = clean(instant.summary?.replacingOccurrences(of: "\n", with: " "), limit: Validator.maxTitle)
    let body = clean(instant.body, limit: Validator.maxBody)
    var userInfo: [String: JSONValue] = [
      "calendar": .string(calendar), "uid": .string(String(instant.uid.prefix(512))),
      "recurrenceId": instant.recurrenceID.map(JSONValue.string) ?? .null,
      "start": instant.occurrenceStart.map { .string(RFC3339.string(from: $0)) } ?? .null,
    ]
    if JSONValue.object(userInfo).compactText.utf8.count > Validator.maxUserInfoBytes {
      userInfo["uid"] = .null
    }
    var draft = NotificationDraft(
      id: AlarmIdentity.id(calendar: calendar, instant: instant), app: app,
      schedule: Schedule(fireDate: .instant(instant.fireDate)))
    draft.title = title ?? (body == nil ? "Calendar alarm" : nil)
    draft.body = body
    draft.subtitle = instant.occurrenceStart.map { when($0, allDay: instant.isAllDay, zone: zone) }
    draft.sound = sound(of: instant)
    draft.userInfo = .value(userInfo)
    draft.actions = [.snooze(seconds: snoozeSeconds), .button(key: dismissKey, title: "Dismiss")]
    if instant.repeatCount > 0, instant.repeatSeconds > 0 {
      draft.realert = Realert(
        every: min(max(instant.repeatSeconds, Realert.everyRange.lowerBound), Realert.everyRange.upperBound),
        times: min(instant.repeatCount, Realert.timesRange.upperBound))
    }
    return draft
  }

  /// What a calendar says of an alarm the rules refused: skipped, with the rules' words,
  /// at its `BEGIN:VALARM` in `file`, naming its item. The rest of the calendar schedules.
  public static func refused(_ instant: AlarmInstant, file: String, error: NotifyError) -> CalendarWarning {
    let item = instant.kind == .todo ? "to-do" : "event"
    return CalendarWarning(
      file: file, line: instant.alarmLine, property: "VALARM",
      "skipped: the alarm of \(item) '\(Escaper.visible(instant.uid, limit: 80))': \(error.description)")
  }

  /// The sound of an AUDIO alarm: its ATTACH's file name, or the default sound.
  static func sound(of instant: AlarmInstant) -> SoundName {
    guard instant.action == .audio else { return .none }
    guard let attachment = instant.sound else { return .default }
    let path = attachment.split(separator: "?").first.map(String.init) ?? attachment
    let name = String(path.split(separator: "/").last ?? "").removingPercentEncoding ?? ""
    guard !name.isEmpty, (try? Validator.soundName(name)) != nil else { return .default }
    return .file(name)
  }

  /// `2026-12-10 09:00 CET`, or `2026-12-10, all day`.
  static func when(_ start: Date, allDay: Bool, zone: Zone) -> String {
    let wall = ZoneResolver.wallClock(for: start, in: zone)
    let date = String(wall.iso8601.prefix(10))
    if allDay { return date + ", all day" }
    return date + " " + String(wall.iso8601.dropFirst(11).prefix(5)) + " " + zone.abbreviation(for: start)
  }

  /// The text without control characters (newlines and tabs kept), at most `limit`
  /// characters and 16 bytes per character; nil when nothing is left.
  static func clean(_ text: String?, limit: Int) -> String? {
    guard let text else { return nil }
    var result = String(
      String.UnicodeScalarView(
        text.unicodeScalars.filter { $0 == "\n" || $0 == "\t" || !($0.value < 0x20 || $0.value == 0x7F) }))
    result = result.trimmingCharacters(in: .whitespacesAndNewlines)
    if result.count > limit { result = String(result.prefix(limit - 1)) + "…" }
    while result.utf8.count > limit * Validator.bytesPerCharacter { result = String(result.dropLast()) }
    return result.isEmpty ? nil : result
  }
}
