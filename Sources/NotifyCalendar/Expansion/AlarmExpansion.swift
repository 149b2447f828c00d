import Foundation
import NotifyCore

/// The alarm instants of one calendar file in a window: a pure function of the file, the
/// zones and the window.
///
/// A relative TRIGGER is added to the occurrence's start (or, with `RELATED=END`, its end:
/// DTEND, a to-do's DUE, or start + DURATION) by RFC 5545 §3.3.6 (days on the wall clock,
/// hours to seconds exactly); an absolute one goes off once per item. REPEAT adds its
/// repetitions DURATION apart. Cancelled items (`STATUS:CANCELLED`) and alarms acknowledged
/// (RFC 9074 `ACKNOWLEDGED`, Thunderbird's `X-MOZ-LASTACK`) at or after their instant go
/// off no more; Thunderbird's `X-MOZ-SNOOZE-TIME` brings the occurrence's alarm back at
/// the time it names. Alarms whose ACTION is neither DISPLAY nor AUDIO are skipped, with
/// a warning.
public enum AlarmExpansion {
  /// The result: instants soonest first, and what was skipped.
  public struct Result: Sendable {
    public var instants: [AlarmInstant]
    public var warnings: [CalendarWarning]
    /// Whether `limit` cut the list (more instants lie in the window).
    public var truncated: Bool
  }

  /// Widens the span of starts looked at beyond what the offsets need: days on the wall
  /// clock differ from 24 hours by a zone's change.
  static let margin: TimeInterval = 2 * 86_400

  /// The instants of `document` in `[from, to)`, at most `limit` of them (the soonest).
  /// With `soonestOnly`, each rule is expanded only as far as the limit needs, so a window
  /// reaching decades ahead costs what the next `limit` occurrences cost.
  public static func instants(
    in document: CalendarDocument, zones system: Zones, from: Date, to: Date, limit: Int = 100_000,
    soonestOnly: Bool = false
  ) -> Result {
    let zones = CalendarZones(system: system, timeZones: document.timeZones)
    var warnings = document.warnings
    var instants: [AlarmInstant] = []
    var order: [String] = []
    var byUID: [String: [CalendarItem]] = [:]
    for item in document.items {
      if byUID[item.uid] == nil { order.append(item.uid) }
      byUID[item.uid, default: []].append(item)
    }
    var warnedAlarms: Set<Int> = []
    func usable(_ alarm: CalendarAlarm) -> Bool {
      if alarm.action == .display || alarm.action == .audio { return true }
      if warnedAlarms.insert(alarm.line).inserted {
        warnings.append(
          CalendarWarning(
            line: alarm.line, property: "VALARM",
            "skipped: ACTION:\(alarm.action.name) (notify shows DISPLAY and AUDIO alarms)"))
      }
      return false
    }
    func add(
      _ occurrence: SeriesExpansion.Occurrence, _ alarm: CalendarAlarm, base: ResolvedTime,
      recurrenceText: String?
    ) {
      let item = occurrence.item
      var at = base
      for repetition in 0...alarm.repeatCount {
        if repetition > 0, let interval = alarm.repeatInterval {
          at = ResolvedTime(instant: at.adding(interval), zone: at.zone, isDate: false)
        }
        let fireDate = at.instant
        guard fireDate >= from, fireDate < to else { continue }
        if let acknowledged = alarm.acknowledged, acknowledged >= fireDate { continue }
        if let acknowledged = item.lastAcknowledged, acknowledged >= fireDate { continue }
        instants.append(
          instant(
            of: occurrence, alarm: alarm, recurrenceText: recurrenceText, fireDate: fireDate,
            repetition: repetition))
      }
    }
    func addSnooze(_ occurrence: SeriesExpansion.Occurrence) {
      guard let snoozed = snoozeTime(of: occurrence), snoozed >= from, snoozed < to,
        let alarm = occurrence.item.alarms.first(where: { $0.action == .display || $0.action == .audio })
      else { return }
      var snooze = instant(
        of: occurrence, alarm: alarm, recurrenceText: occurrence.recurrenceText, fireDate: snoozed,
        repetition: 0)
      snooze.alarmKey = "snooze/" + alarm.key
      instants.append(snooze)
    }
    for uid in order {
      var series = SeriesExpansion(items: byUID[uid]!, zones: zones)
      // Absolute alarms go off once per item (the master and each override), whatever
      // its occurrences.
      for item in series.items where !item.isCancelled {
        let start = series.start(of: item)
        let itself = SeriesExpansion.Occurrence(
          item: item, start: start, end: series.end(of: item, startingAt: start),
          recurrenceText: item.recurrenceID.map { ResolvedTime($0, zones: zones).recurrenceText })
        for alarm in item.alarms {
          guard case .absolute(let time) = alarm.trigger, usable(alarm) else { continue }
          add(itself, alarm, base: ResolvedTime(time, zones: zones), recurrenceText: itself.recurrenceText)
        }
        if !item.isRecurring && item.recurrenceID == nil { addSnooze(itself) }
      }
      guard let span = startSpan(of: series, from: from, to: to) else {
        warnings += series.warnings
        continue
      }
      // For the rolling window only the soonest matter: a rule stops after what the limit
      // can use, counted from where its alarms reach the window. (One that a day's offset
      // across a zone change would put at the far end may be left for the next look: the
      // window is expanded again as it moves.)
      let occurrences = series.occurrences(
        startingIn: span, cap: soonestOnly ? limit + 16 : .max, countFrom: span.lowerBound + margin)
      warnings += series.warnings
      for occurrence in occurrences where !occurrence.item.isCancelled {
        let item = occurrence.item
        for alarm in item.alarms {
          guard case .relative(let offset, let toEnd) = alarm.trigger, usable(alarm) else { continue }
          guard let anchor = toEnd ? occurrence.end : occurrence.start else {
            if warnedAlarms.insert(alarm.line).inserted {
              warnings.append(
                CalendarWarning(
                  line: alarm.line, property: "TRIGGER",
                  "skipped: the alarm is relative to the item's \(toEnd ? "end" : "start"), which it does not have"
                ))
            }
            continue
          }
          add(
            occurrence, alarm,
            base: ResolvedTime(instant: anchor.adding(offset), zone: anchor.zone, isDate: false),
            recurrenceText: occurrence.recurrenceText)
        }
        if occurrence.recurrenceInstant != nil { addSnooze(occurrence) }
      }
    }
    warnings += zones.warnings
    instants.sort(by: AlarmInstant.soonestFirst)
    let truncated = instants.count > limit
    if truncated { instants.removeLast(instants.count - limit) }
    return Result(instants: instants, warnings: warnings.sorted { $0.line < $1.line }, truncated: truncated)
  }

  /// The span of occurrence starts whose alarms may go off in `[from, to)`, from the
  /// relative alarms' offsets (and the item's length, for those relative to the end); nil
  /// when no alarm of the series is relative.
  static func startSpan(of series: SeriesExpansion, from: Date, to: Date) -> ClosedRange<Date>? {
    var lowest: TimeInterval?
    var highest: TimeInterval?
    for item in [series.master].compactMap({ $0 }) + series.overrides {
      let start = series.start(of: item)
      let length =
        start.flatMap { start in
          series.end(of: item, startingAt: start)?.instant.timeIntervalSince(start.instant)
        } ?? 0
      for alarm in item.alarms {
        guard case .relative(let offset, let toEnd) = alarm.trigger else { continue }
        let shift = TimeInterval(offset.approximateSeconds) + (toEnd ? length : 0)
        let span =
          TimeInterval(alarm.repeatCount) * TimeInterval(alarm.repeatInterval?.approximateSeconds ?? 0)
        lowest = min(lowest ?? shift, shift)
        highest = max(highest ?? shift + span, shift + span)
      }
    }
    guard let lowest, let highest else { return nil }
    let lower = from - highest - margin
    let upper = to - lowest + margin
    return lower <= upper ? lower...upper : nil
  }

  /// When Thunderbird's snooze brings the occurrence's alarm back, if it does: after the
  /// last acknowledgement.
  static func snoozeTime(of occurrence: SeriesExpansion.Occurrence) -> Date? {
    let item = occurrence.item
    guard !item.snoozedUntil.isEmpty else { return nil }
    var snooze = item.snoozedUntil[""]
    if let instant = occurrence.recurrenceInstant {
      let micros = String(Int64(instant.timeIntervalSince1970.rounded()) * 1_000_000)
      snooze = item.snoozedUntil[micros] ?? (occurrence.recurrenceText == nil ? snooze : nil)
    }
    guard let snooze else { return nil }
    if let acknowledged = item.lastAcknowledged, acknowledged >= snooze { return nil }
    return snooze
  }

  static func instant(
    of occurrence: SeriesExpansion.Occurrence, alarm: CalendarAlarm, recurrenceText: String?, fireDate: Date,
    repetition: Int
  ) -> AlarmInstant {
    let item = occurrence.item
    return AlarmInstant(
      uid: item.uid, kind: item.kind, recurrenceID: recurrenceText,
      occurrenceStart: occurrence.start?.instant,
      isAllDay: occurrence.start?.isDate ?? false, fireDate: fireDate, action: alarm.action,
      summary: item.summary,
      body: item.description ?? alarm.description, sound: alarm.action == .audio ? alarm.attachment : nil,
      alarmKey: alarm.key, repetition: repetition, repeatCount: alarm.repeatCount,
      repeatSeconds: Int(alarm.repeatInterval?.approximateSeconds ?? 0), itemLine: item.line,
      alarmLine: alarm.line)
  }
}
