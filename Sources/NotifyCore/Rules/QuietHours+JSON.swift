import Foundation

extension QuietSchedule {
  /// `{"from":"22:00","to":"07:00","days":["mon",...,"sun"]}`, days in week order.
  public var jsonRecord: JSONRecord {
    var r = JSONRecord(capacity: 3)
    r.set("from", from.description)
    r.set("to", to.description)
    r.set("days", .array(days.sorted().map { .string($0.shortName) }))
    return r
  }

  /// Reads `jsonRecord`'s form back; anything else is `NotifyError.Kind.invalidData`.
  public init(json: JSONValue) throws(NotifyError) {
    guard case .object(let members) = json, case .string(let from)? = members["from"],
      case .string(let to)? = members["to"], case .array(let dayValues)? = members["days"]
    else {
      throw QuietHours.malformed("the schedule needs from, to and days")
    }
    var days: Set<Weekday> = []
    for value in dayValues {
      guard case .string(let name) = value, let day = Weekday.named(name) else {
        throw QuietHours.malformed("the schedule's days hold \(value.compactText), not a day such as mon")
      }
      days.insert(day)
    }
    do {
      self.init(
        from: try Self.timeOfDay(from, naming: .quietFrom), to: try Self.timeOfDay(to, naming: .quietTo),
        days: days)
    } catch {
      throw QuietHours.malformed("the schedule's \(error.problem)")
    }
  }
}

extension QuietHours {
  /// The stored state, for `notify quiet --json` and the store:
  /// `{"manual":"on","manualUntil":null,"scheduleSkippedUntil":null,"schedule":{...}}`.
  ///
  /// `manual` is `"on"` or `"off"`; `manualUntil` (when manual quiet ends, null for until
  /// turned off), `scheduleSkippedUntil` and `schedule` are null when absent. Instants are
  /// RFC 3339 UTC with milliseconds when they have a fraction: a round trip keeps them to
  /// the millisecond, as the store does.
  public var jsonRecord: JSONRecord {
    var r = JSONRecord(capacity: 4)
    r.set("manual", manual == nil ? "off" : "on")
    if case .until(let end) = manual {
      r.set("manualUntil", RFC3339.string(from: end))
    } else {
      r.set("manualUntil", .null)
    }
    r.set("scheduleSkippedUntil", scheduleSkippedUntil.map { RFC3339.string(from: $0) })
    r.set(
      "schedule", schedule.map(\.jsonRecord.value) ?? .null)
    return r
  }

  /// Reads `jsonRecord`'s form back (members that are null may also be missing); anything
  /// else is `NotifyError.Kind.invalidData`.
  public init(json: JSONValue) throws(NotifyError) {
    guard case .object(let members) = json else { throw Self.malformed("it is not an object") }
    func instant(_ key: String) throws(NotifyError) -> Date? {
      switch members[key] {
      case nil, .null?: return nil
      case .string(let text)?:
        guard let date = RFC3339.date(from: text) else {
          throw Self.malformed("\(key) '\(Escaper.visible(text, limit: 40))' is not an RFC 3339 instant")
        }
        return date
      case let value?: throw Self.malformed("\(key) is \(value.compactText), not an RFC 3339 instant or null")
      }
    }
    let manualUntil = try instant("manualUntil")
    switch members["manual"] {
    case .string("on")?: manual = manualUntil.map(Manual.until) ?? .untilTurnedOff
    case .string("off")?, nil:
      guard manualUntil == nil else { throw Self.malformed("manualUntil is set while manual is off") }
      manual = nil
    case let value?: throw Self.malformed("manual is \(value.compactText), not \"on\" or \"off\"")
    }
    scheduleSkippedUntil = try instant("scheduleSkippedUntil")
    switch members["schedule"] {
    case nil, .null?: schedule = nil
    case let value?: schedule = try QuietSchedule(json: value)
    }
  }

  /// The error for stored or given quiet hours JSON that does not read back.
  static func malformed(_ problem: String) -> NotifyError {
    NotifyError(
      .invalidData, "the quiet hours JSON is not valid: \(problem)",
      fix: "set quiet hours again with notify quiet, or write the form notify quiet --json prints")
  }
}
