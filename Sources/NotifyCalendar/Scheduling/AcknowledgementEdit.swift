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

  /// `bytes` with the alarm acknowledged at `time`.
  public static func acknowledge(
    _ bytes: [UInt8], uid: String, recurrenceID: String?, alarmKey: String, at time: Date, zones: Zones
  ) -> Result<[UInt8], Failure> {
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
    let stamp = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
    if let acknowledged = alarm.acknowledged, acknowledged >= stamp { return .failure(.alreadyAcknowledged) }
    // The alarm's own lines: an ACKNOWLEDGED to replace, and its END to insert before.
    let (components, _) = ComponentParser.parse(Array(bytes[alarm.byteRange]))
    guard let parsed = components.first else { return .failure(.alarmNotFound) }
    let newline: [UInt8] = bytes.contains(0x0D) ? [0x0D, 0x0A] : [0x0A]
    let line = Array("ACKNOWLEDGED:\(utcText(stamp))".utf8) + newline
    var result = bytes
    if let existing = parsed.property("ACKNOWLEDGED") {
      let offset = alarm.byteRange.lowerBound
      let lower = existing.byteRange.lowerBound + offset
      let upper = existing.byteRange.upperBound + offset
      result.replaceSubrange(lower..<upper, with: line)
    } else {
      guard let end = endLineStart(in: bytes, range: alarm.byteRange) else { return .failure(.alarmNotFound) }
      result.insert(contentsOf: line, at: end)
    }
    return .success(result)
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
