import Foundation
import NotifyCore

/// Writing an acknowledgement into an item (RFC 9074 §6): `ACKNOWLEDGED:<UTC>` in the
/// VALARM that went off, replacing one that is there, every other byte kept as it was.
///
/// The alarm is found by the item's UID, the occurrence's RECURRENCE-ID (an override of
/// it, else the item that repeats) and the alarm's key (`CalendarAlarm.key`). A pure
/// function of the file's bytes: the adapter reads and writes the file.
public enum AcknowledgementEdit {
  /// Why no edit was made.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    /// No item with that UID holds that alarm any more.
    case alarmNotFound
    /// The alarm already has an ACKNOWLEDGED at or after the time.
    case alreadyAcknowledged

    public var description: String {
      switch self {
      case .alarmNotFound: "the item or its alarm is no longer in the file"
      case .alreadyAcknowledged: "the alarm is acknowledged already"
      }
    }
  }

  /// What a snooze wrote (`snooze`): the file's new bytes, the UID of the alarm that was
  /// snoozed (`added` when it had none and one was written, as RFC 9074 wants), and the
  /// UID of the snooze alarm written beside it.
  public struct Snoozed: Equatable, Sendable {
    public var bytes: [UInt8]
    public var alarmUID: String
    public var added: Bool
    public var snoozeUID: String
    /// The RECURRENCE-ID notify reads the snooze alarm under: the override's it was written
    /// into, nil when it went into the item itself (an absolute alarm goes off once per item).
    public var recurrenceID: String?
  }

  /// `bytes` with the alarm acknowledged at `time`, and the snooze alarms written for it
  /// that have gone off by then (RFC 9074 §6: a dismissed snooze alarm is acknowledged).
  public static func acknowledge(
    _ bytes: [UInt8], uid: String, recurrenceID: String?, alarmKey: String, at time: Date, zones: Zones
  ) -> Result<[UInt8], Failure> {
    let found: (CalendarItem, CalendarAlarm, CalendarZones)
    switch find(bytes, uid: uid, recurrenceID: recurrenceID, alarmKey: alarmKey, zones: zones) {
    case .failure(let failure): return .failure(failure)
    case .success(let pair): found = pair
    }
    let (item, alarm, calendarZones) = found
    let stamp = seconds(time)
    var edits: [Edit] = []
    if alarm.acknowledged.map({ $0 < stamp }) ?? true {
      guard let edit = acknowledging(alarm, in: bytes, at: stamp) else { return .failure(.alarmNotFound) }
      edits.append(edit)
    }
    if let alarmUID = alarm.uid, !alarmUID.isEmpty {
      for snooze in item.alarms
      where snooze.snoozes == alarmUID && snooze.acknowledged.map({ $0 < stamp }) ?? true {
        guard case .absolute(let at) = snooze.trigger,
          ResolvedTime(at, zones: calendarZones).instant <= stamp,
          let edit = acknowledging(snooze, in: bytes, at: stamp)
        else { continue }
        edits.append(edit)
      }
    }
    if edits.isEmpty { return .failure(.alreadyAcknowledged) }
    return .success(apply(edits, to: bytes))
  }

  /// `bytes` with the alarm snoozed at `time` until `until`, as RFC 9074 §6 says: the alarm
  /// acknowledged (given a UID when it has none: `newUID()`), the snooze alarms written for
  /// it before removed, and a new one beside it, with the same action, description and
  /// sound, an absolute UTC trigger at `until`, and `RELATED-TO;RELTYPE=SNOOZE` naming it.
  public static func snooze(
    _ bytes: [UInt8], uid: String, recurrenceID: String?, alarmKey: String, at time: Date, until: Date,
    zones: Zones, newUID: () -> String
  ) -> Result<Snoozed, Failure> {
    let found: (CalendarItem, CalendarAlarm, CalendarZones)
    switch find(bytes, uid: uid, recurrenceID: recurrenceID, alarmKey: alarmKey, zones: zones) {
    case .failure(let failure): return .failure(failure)
    case .success(let pair): found = pair
    }
    let (item, alarm, calendarZones) = found
    let stamp = seconds(time)
    let newline = newline(of: bytes)
    let (components, _) = ComponentParser.parse(Array(bytes[alarm.byteRange]))
    guard let parsed = components.first, let end = endLineStart(in: bytes, range: alarm.byteRange) else {
      return .failure(.alarmNotFound)
    }
    var edits: [Edit] = []
    // The alarm acknowledged, with a UID to be related to.
    var alarmUID = alarm.uid ?? ""
    let added = alarmUID.isEmpty
    var lines: [UInt8] = []
    if added {
      alarmUID = newUID()
      lines += Array("UID:\(alarmUID)".utf8) + newline
    }
    let acknowledged = Array("ACKNOWLEDGED:\(utcText(stamp))".utf8) + newline
    if let existing = parsed.property("ACKNOWLEDGED") {
      let offset = alarm.byteRange.lowerBound
      edits.append(
        Edit(
          range: (existing.byteRange.lowerBound + offset)..<(existing.byteRange.upperBound + offset),
          bytes: acknowledged))
    } else {
      lines += acknowledged
    }
    if !lines.isEmpty { edits.append(Edit(range: end..<end, bytes: lines)) }
    // An earlier snooze of it is replaced by this one.
    if !added {
      for earlier in item.alarms where earlier.snoozes == alarmUID {
        edits.append(Edit(range: earlier.byteRange, bytes: []))
      }
    }
    // The snooze alarm, right after the alarm.
    let snoozeUID = newUID()
    var snooze = Array("BEGIN:VALARM".utf8) + newline
    snooze += Array("UID:\(snoozeUID)".utf8) + newline
    snooze += Array("ACTION:\(alarm.action.name)".utf8) + newline
    for name in ["DESCRIPTION", "ATTACH"] {
      for property in parsed.properties(name) {
        let offset = alarm.byteRange.lowerBound
        snooze += Array(
          bytes[(property.byteRange.lowerBound + offset)..<(property.byteRange.upperBound + offset)])
      }
    }
    if alarm.action == .display && parsed.property("DESCRIPTION") == nil {
      snooze += Array("DESCRIPTION:Reminder".utf8) + newline
    }
    snooze += Array("TRIGGER;VALUE=DATE-TIME:\(utcText(seconds(until)))".utf8) + newline
    snooze += Array("RELATED-TO;RELTYPE=SNOOZE:\(alarmUID)".utf8) + newline
    snooze += Array("END:VALARM".utf8) + newline
    edits.append(Edit(range: alarm.byteRange.upperBound..<alarm.byteRange.upperBound, bytes: snooze))
    return .success(
      Snoozed(
        bytes: apply(edits, to: bytes), alarmUID: alarmUID, added: added, snoozeUID: snoozeUID,
        recurrenceID: item.recurrenceID.map { ResolvedTime($0, zones: calendarZones).recurrenceText }))
  }

  /// One change to the file: `range` replaced by `bytes`.
  struct Edit {
    var range: Range<Int>
    var bytes: [UInt8]
  }

  /// The edits made, from the last to the first so that each range still holds.
  static func apply(_ edits: [Edit], to bytes: [UInt8]) -> [UInt8] {
    var result = bytes
    for edit in edits.sorted(by: {
      ($0.range.lowerBound, $0.range.upperBound) > ($1.range.lowerBound, $1.range.upperBound)
    }) {
      result.replaceSubrange(edit.range, with: edit.bytes)
    }
    return result
  }

  /// The item and alarm an alarm record names: the override of the occurrence when there is
  /// one, else the item; the alarm by its key (or, for Thunderbird's snooze, the alarm it
  /// snoozed).
  static func find(_ bytes: [UInt8], uid: String, recurrenceID: String?, alarmKey: String, zones: Zones)
    -> Result<(CalendarItem, CalendarAlarm, CalendarZones), Failure>
  {
    let document = CalendarDocument(bytes: bytes)
    let calendarZones = CalendarZones(system: zones, timeZones: document.timeZones)
    let items = document.items.filter { $0.uid == uid }
    let override = recurrenceID.flatMap { text in
      items.first { item in
        item.recurrenceID.map { ResolvedTime($0, zones: calendarZones).recurrenceText } == text
      }
    }
    guard let item = override ?? items.first(where: { $0.recurrenceID == nil }) ?? items.first,
      let alarm = item.alarms.first(where: { $0.key == alarmKey || "snooze/" + $0.key == alarmKey })
    else { return .failure(.alarmNotFound) }
    return .success((item, alarm, calendarZones))
  }

  /// The edit that writes `ACKNOWLEDGED` into `alarm`: replacing one there, else before its END line.
  static func acknowledging(_ alarm: CalendarAlarm, in bytes: [UInt8], at stamp: Date) -> Edit? {
    let (components, _) = ComponentParser.parse(Array(bytes[alarm.byteRange]))
    guard let parsed = components.first else { return nil }
    let line = Array("ACKNOWLEDGED:\(utcText(stamp))".utf8) + newline(of: bytes)
    if let existing = parsed.property("ACKNOWLEDGED") {
      let offset = alarm.byteRange.lowerBound
      return Edit(
        range: (existing.byteRange.lowerBound + offset)..<(existing.byteRange.upperBound + offset),
        bytes: line)
    }
    guard let end = endLineStart(in: bytes, range: alarm.byteRange) else { return nil }
    return Edit(range: end..<end, bytes: line)
  }

  /// The file's line ending: CRLF when it has one, else LF.
  static func newline(of bytes: [UInt8]) -> [UInt8] { bytes.contains(0x0D) ? [0x0D, 0x0A] : [0x0A] }

  /// `time` to the second below (iCalendar has no fractions).
  static func seconds(_ time: Date) -> Date {
    Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
  }

  /// Where the `END:VALARM` line of the component in `range` starts.
  static func endLineStart(in bytes: [UInt8], range: Range<Int>) -> Int? {
    var index = range.upperBound
    // Back over the final line ending, then to the start of that line.
    while index > range.lowerBound && (bytes[index - 1] == 0x0A || bytes[index - 1] == 0x0D) { index -= 1 }
    while index > range.lowerBound && bytes[index - 1] != 0x0A { index -= 1 }
    let line = String(decoding: bytes[index..<range.upperBound], as: UTF8.self).uppercased()
    return line.hasPrefix("END") ? index : nil
  }

  /// `20261210T081500Z`.
  static func utcText(_ date: Date) -> String {
    CalendarDateTime(
      wall: WallClock(localSeconds: Int64(date.timeIntervalSince1970.rounded(.down))), reference: .utc
    ).text
  }
}
