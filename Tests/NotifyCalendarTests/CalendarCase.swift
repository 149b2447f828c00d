import Foundation
import NotifyCore
import NotifyTestSupport

/// A random calendar from a seed, for `CalendarOracleTests`: its text, the window asked
/// about and the system zone it is read in, and what the comparison needs to know of it.
struct CalendarCase {
  let seed: UInt64
  let systemZone: String
  let from: String
  let to: String
  private(set) var text = ""
  /// Each UID's zone (for floating items the system zone), and how far its alarms lie
  /// from what they are computed from (offsets, the item's length, repetitions).
  private var zoneOfUID: [String: Zone?] = [:]
  private var spanOfUID: [String: TimeInterval] = [:]

  static let systemZones = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "Australia/Lord_Howe", "UTC"]
  static let itemZones = [
    "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/Santiago",
    "Pacific/Chatham", "Europe/London", "America/Havana",
  ]
  /// The file's own zone: a name the tz database does not have, with Berlin's dates at +03:30/+04:30.
  static let customName = "Notify Test Standard Time"
  static let customZone = try! Zone(identifier: customName, posix: "<+0330>-3:30<+0430>,M3.5.0/2,M10.5.0/3")
  static let customDefinition = """
    BEGIN:VTIMEZONE
    TZID:\(customName)
    BEGIN:DAYLIGHT
    DTSTART:19700329T020000
    TZOFFSETFROM:+0330
    TZOFFSETTO:+0430
    RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
    TZNAME:NTDT
    END:DAYLIGHT
    BEGIN:STANDARD
    DTSTART:19701025T030000
    TZOFFSETFROM:+0430
    TZOFFSETTO:+0330
    RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
    TZNAME:NTST
    END:STANDARD
    END:VTIMEZONE
    """

  /// How a generated time is written.
  private enum Form {
    case zoned(String)
    case utc
    case floating
    case custom
    case date
  }

  /// A case of a given text (a file a real tool wrote).
  static func given(text: String, from: String, to: String, zone: String) -> CalendarCase {
    CalendarCase(seed: 0, systemZone: zone, from: from, to: to, text: text)
  }

  private init(seed: UInt64, systemZone: String, from: String, to: String, text: String) {
    self.seed = seed
    self.systemZone = systemZone
    self.from = from
    self.to = to
    self.text = text
  }

  init<G: RandomNumberGenerator>(seed: UInt64, using g: inout G) {
    self.seed = seed
    systemZone = Self.systemZones.randomElement(using: &g)!
    let firstDay = WallClock(year: 2026, month: 1, day: 1).addingDays(Int.random(in: 0..<1000, using: &g))
    let windowDays = Int.random(in: 20...60, using: &g)
    from = Self.utcText(firstDay)
    to = Self.utcText(firstDay.addingDays(windowDays))
    var body = ""
    var usesCustom = false
    for n in 0..<Int.random(in: 1...4, using: &g) {
      body += item(number: n, firstDay: firstDay, windowDays: windowDays, usesCustom: &usesCustom, using: &g)
    }
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//oracle//EN"]
    if usesCustom { lines += Self.customDefinition.split(separator: "\n").map(String.init) }
    text = (lines.joined(separator: "\r\n") + "\r\n") + body + "END:VCALENDAR\r\n"
  }

  /// Whether the listed alarm's arithmetic may span a change of its zone's offset.
  func nearChange(_ alarm: ListedAlarm) -> Bool {
    guard let fireText = alarm.fireDate, let fire = Self.parseUTC(fireText) else { return false }
    let zone: Zone?
    if let known = zoneOfUID[alarm.uid] { zone = known } else { zone = testZone(systemZone) }
    guard let zone else { return false }
    let span = (spanOfUID[alarm.uid] ?? 0) + 3 * 3600
    guard let next = zone.nextTransition(after: fire - span) else { return false }
    return next <= fire + span
  }

  // MARK: - Items

  private mutating func item<G: RandomNumberGenerator>(
    number: Int, firstDay: WallClock, windowDays: Int, usesCustom: inout Bool, using g: inout G
  ) -> String {
    let uid = "u\(number)-\(seed)@notify.test"
    let isTodo = Int.random(in: 0..<5, using: &g) == 0
    let recurring = Bool.random(using: &g)
    let form: Form
    switch Int.random(in: 0..<100, using: &g) {
    case 0..<55: form = .zoned(Self.itemZones.randomElement(using: &g)!)
    case 55..<67: form = .utc
    case 67..<82: form = .floating
    case 82..<94: form = .custom
    default: form = .date
    }
    if case .custom = form { usesCustom = true }
    switch form {
    case .zoned(let name): zoneOfUID[uid] = testZone(name)
    case .utc: zoneOfUID[uid] = .some(nil)
    case .floating, .date: zoneOfUID[uid] = testZone(systemZone)
    case .custom: zoneOfUID[uid] = Self.customZone
    }
    let before = recurring ? Int.random(in: 0...40, using: &g) : Int.random(in: 0...2, using: &g)
    var start = firstDay.addingDays(Int.random(in: -before...(windowDays + 1), using: &g))
    start.hour = Int.random(in: 0...23, using: &g)
    start.minute = [0, 15, 30, 45, 10].randomElement(using: &g)!
    if case .date = form { start.hour = 0; start.minute = 0 }
    // Now and then on the day a zone changes, in the small hours.
    if case .zoned = form, Int.random(in: 0..<6, using: &g) == 0, let zone = zoneOfUID[uid] ?? nil {
      let around = ZoneResolver.instant(for: start, in: zone) - 40 * 86_400
      if let change = zone.nextTransition(after: around) {
        var wall = ZoneResolver.wallClock(for: change, in: zone)
        wall.minute = [0, 30].randomElement(using: &g)!
        wall.hour = max(0, min(23, wall.hour + Int.random(in: -1...1, using: &g)))
        start = wall
      }
    }
    var lines = ["BEGIN:\(isTodo ? "VTODO" : "VEVENT")", "UID:\(uid)", "DTSTAMP:20260101T000000Z"]
    lines.append(Self.property("DTSTART", start, form))
    let lengthMinutes = [0, 30, 60, 90, 24 * 60].randomElement(using: &g)!
    var length = TimeInterval(lengthMinutes * 60)
    if case .date = form { length = 86_400 }
    let end = WallClock(localSeconds: start.localSeconds + Int64(length))
    if isTodo {
      if Bool.random(using: &g) || lengthMinutes > 0 { lines.append(Self.property("DUE", end, form)) }
    } else if case .date = form {
      lines.append(Self.property("DTEND", start.addingDays(1), form))
    } else if Int.random(in: 0..<4, using: &g) == 0 {
      lines.append("DURATION:PT\(lengthMinutes)M")
    } else if lengthMinutes > 0 || Bool.random(using: &g) {
      lines.append(Self.property("DTEND", end, form))
    }
    let summary = ["Standup", "Lunch\\, with Ada", "Dentist", "Call\\; urgent", "Review"].randomElement(
      using: &g)!
    lines.append("SUMMARY:\(summary) \(number)")
    if Int.random(in: 0..<25, using: &g) == 0 { lines.append("STATUS:CANCELLED") }
    var step = 0
    if recurring {
      let (rule, days) = Self.rule(start: start, form: form, using: &g)
      lines.append("RRULE:\(rule)")
      step = days
      if Int.random(in: 0..<6, using: &g) == 0 {
        var extra = start.addingDays(Int.random(in: 1...windowDays, using: &g))
        extra.hour = (extra.hour + 3) % 24
        if case .date = form { extra.hour = 0 }
        lines.append(Self.property("RDATE", extra, form))
      }
      if step > 0, Int.random(in: 0..<4, using: &g) == 0 {
        let skipped = start.addingDays(step * Int.random(in: 1...4, using: &g))
        lines.append(Self.property("EXDATE", skipped, form))
      }
    }
    var span: TimeInterval = 0
    for alarmNumber in 0..<Int.random(in: 1...3, using: &g) {
      let (alarmLines, alarmSpan) = alarm(
        number: alarmNumber, firstDay: firstDay, windowDays: windowDays, length: length, using: &g)
      lines += alarmLines
      span = max(span, alarmSpan)
    }
    lines.append("END:\(isTodo ? "VTODO" : "VEVENT")")
    // An override of one occurrence (a step in, while the rule surely makes it), now and then
    // moved, cancelled, or for this and every later occurrence.
    if recurring, step > 0, Int.random(in: 0..<3, using: &g) == 0 {
      let original = start.addingDays(step * Int.random(in: 1...3, using: &g))
      var moved = original
      let future = Int.random(in: 0..<5, using: &g) == 0
      if !future, case .date = form {
      } else if !future {
        moved = WallClock(
          localSeconds: original.localSeconds + Int64([0, 3600, -7200].randomElement(using: &g)!))
      }
      lines += ["BEGIN:\(isTodo ? "VTODO" : "VEVENT")", "UID:\(uid)", "DTSTAMP:20260101T000000Z"]
      lines.append(
        Self.property("RECURRENCE-ID", original, form).replacingOccurrences(
          of: "RECURRENCE-ID", with: future ? "RECURRENCE-ID;RANGE=THISANDFUTURE" : "RECURRENCE-ID"))
      lines.append(Self.property("DTSTART", moved, form))
      if isTodo {
        lines.append(Self.property("DUE", WallClock(localSeconds: moved.localSeconds + Int64(length)), form))
      }
      lines.append("SUMMARY:Moved \(number)")
      if Int.random(in: 0..<5, using: &g) == 0 { lines.append("STATUS:CANCELLED") }
      let (alarmLines, alarmSpan) = alarm(
        number: 9, firstDay: firstDay, windowDays: windowDays, length: length, using: &g)
      lines += alarmLines
      span = max(span, alarmSpan)
      lines.append("END:\(isTodo ? "VTODO" : "VEVENT")")
    }
    spanOfUID[uid] = span + length
    return lines.joined(separator: "\r\n") + "\r\n"
  }

  /// A rule the oracle and notify read alike, and its step in days when it is a plain
  /// DAILY or WEEKLY one (whose occurrences a step apart are sure to exist).
  private static func rule<G: RandomNumberGenerator>(start: WallClock, form: Form, using g: inout G) -> (
    String, Int
  ) {
    var parts: [String] = []
    var step = 0
    let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    switch Int.random(in: 0..<10, using: &g) {
    case 0..<3:
      let interval = Int.random(in: 1...3, using: &g)
      parts = ["FREQ=DAILY", "INTERVAL=\(interval)"]
      step = interval
      if Int.random(in: 0..<4, using: &g) == 0 {
        parts.append("BYHOUR=\(start.hour),\((start.hour + 7) % 24)")
        step = 0
      }
    case 3..<6:
      let interval = Int.random(in: 1...2, using: &g)
      parts = ["FREQ=WEEKLY", "INTERVAL=\(interval)"]
      step = 7 * interval
      if Bool.random(using: &g) {
        parts.append(
          "BYDAY="
            + Array(weekdays.shuffled(using: &g).prefix(Int.random(in: 1...3, using: &g))).joined(
              separator: ","))
        step = 0
      }
    case 6..<8:
      parts = ["FREQ=MONTHLY"]
      switch Int.random(in: 0..<3, using: &g) {
      case 0:
        parts.append(
          "BYMONTHDAY="
            + [1, 15, 28, -1].shuffled(using: &g).prefix(2).map(String.init).joined(separator: ","))
      case 1: parts.append("BYDAY=" + ["1MO", "2TU", "-1FR", "3WE"].randomElement(using: &g)!)
      default: break
      }
    case 8:
      parts = ["FREQ=YEARLY"]
      if Bool.random(using: &g) { parts.append("BYMONTH=\(start.month),\((start.month + 5) % 12 + 1)") }
    default:
      if case .date = form {
        parts = ["FREQ=DAILY"]
        step = 1
      } else {
        parts = ["FREQ=HOURLY", "INTERVAL=\([5, 8, 12].randomElement(using: &g)!)"]
      }
    }
    switch Int.random(in: 0..<3, using: &g) {
    case 0: parts.append("COUNT=\(Int.random(in: 2...15, using: &g))")
    case 1:
      let until = WallClock(
        localSeconds: start.localSeconds + Int64(Int.random(in: 3...50, using: &g)) * 86_400)
      if case .date = form {
        parts.append("UNTIL=" + dateText(until))
      } else if Int.random(in: 0..<4, using: &g) == 0, case .zoned = form {
        // An UNTIL date with a zoned start: both read it as midnight UTC.
        parts.append("UNTIL=" + dateText(until))
      } else {
        parts.append("UNTIL=" + dateText(until) + "T" + timeText(until) + "Z")
      }
    default: break
    }
    return (parts.joined(separator: ";"), step)
  }

  private func alarm<G: RandomNumberGenerator>(
    number: Int, firstDay: WallClock, windowDays: Int, length: TimeInterval, using g: inout G
  ) -> ([String], TimeInterval) {
    var lines = ["BEGIN:VALARM"]
    switch Int.random(in: 0..<10, using: &g) {
    case 0..<7: lines += ["ACTION:DISPLAY", "DESCRIPTION:Reminder"]
    case 7, 8: lines += ["ACTION:AUDIO", "ATTACH;FMTTYPE=audio/basic:file:///usr/share/sounds/bell.wav"]
    default: lines += ["ACTION:EMAIL", "DESCRIPTION:mail", "SUMMARY:mail", "ATTENDEE:mailto:a@example.com"]
    }
    var span: TimeInterval = 0
    if Int.random(in: 0..<10, using: &g) == 0 {
      var at = firstDay.addingDays(Int.random(in: 0..<windowDays, using: &g))
      at.hour = Int.random(in: 0...23, using: &g)
      lines.append("TRIGGER;VALUE=DATE-TIME:\(Self.dateText(at))T\(Self.timeText(at))Z")
    } else {
      let offsets: [(String, TimeInterval)] = [
        ("-PT15M", 900), ("-PT1H", 3600), ("-P1D", 86_400), ("PT0S", 0), ("PT10M", 600), ("-PT2H30M", 9000),
        ("-P1DT1H", 90_000), ("-P1W", 604_800),
      ]
      let (offset, exact) = offsets.randomElement(using: &g)!
      let related = Int.random(in: 0..<5, using: &g) == 0 ? ";RELATED=END" : ""
      lines.append("TRIGGER\(related):\(offset)")
      span = exact + (related.isEmpty ? 0 : length)
    }
    if Int.random(in: 0..<5, using: &g) == 0 {
      let repeats = Int.random(in: 1...3, using: &g)
      let minutes = [5, 10, 30].randomElement(using: &g)!
      lines += ["REPEAT:\(repeats)", "DURATION:PT\(minutes)M"]
      span += TimeInterval(repeats * minutes * 60)
    }
    if Int.random(in: 0..<4, using: &g) == 0 { lines.append("UID:alarm-\(number)-\(seed)") }
    if Int.random(in: 0..<10, using: &g) == 0 {
      let at = firstDay.addingDays(Int.random(in: 0..<windowDays, using: &g))
      lines.append("ACKNOWLEDGED:\(Self.dateText(at))T120000Z")
    }
    lines.append("END:VALARM")
    return (lines, span)
  }

  // MARK: - Text

  private static func property(_ name: String, _ wall: WallClock, _ form: Form) -> String {
    switch form {
    case .zoned(let zone): "\(name);TZID=\(zone):\(dateText(wall))T\(timeText(wall))"
    case .custom: "\(name);TZID=\(customName):\(dateText(wall))T\(timeText(wall))"
    case .utc: "\(name):\(dateText(wall))T\(timeText(wall))Z"
    case .floating: "\(name):\(dateText(wall))T\(timeText(wall))"
    case .date: "\(name);VALUE=DATE:\(dateText(wall))"
    }
  }

  static func dateText(_ wall: WallClock) -> String {
    String(wall.iso8601.prefix(10)).replacingOccurrences(of: "-", with: "")
  }

  static func timeText(_ wall: WallClock) -> String {
    String(wall.iso8601.dropFirst(11)).replacingOccurrences(of: ":", with: "")
  }

  static func utcText(_ wall: WallClock) -> String { wall.iso8601 + "Z" }

  static func parseUTC(_ text: String) -> Date? {
    guard text.count == 20 else { return nil }
    let digits = text.filter(\.isNumber).compactMap { Int(String($0)) }
    guard digits.count == 14 else { return nil }
    func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
    let wall = WallClock(
      year: number(0..<4), month: number(4..<6), day: number(6..<8), hour: number(8..<10),
      minute: number(10..<12),
      second: number(12..<14))
    return Date(timeIntervalSince1970: TimeInterval(wall.localSeconds))
  }
}
