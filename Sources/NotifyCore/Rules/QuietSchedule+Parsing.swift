import Foundation

extension QuietSchedule {
  /// Parses `--from`, `--to` and `--days` (`notify quiet --from 22:00 --to 07:00 --days mon-fri`);
  /// nil when none is given.
  ///
  /// `from` and `to` are `HH:MM`, 00:00 to 23:59, and come together (a usage error
  /// otherwise, as is `days` without them). `days` is as `days(_:)` reads it; without it a
  /// period starts every day. Bad values are `NotifyError.Kind.invalidData`.
  public static func parse(from: String?, to: String?, days: String?) throws(NotifyError) -> QuietSchedule? {
    switch (from, to) {
    case (nil, nil):
      guard let days else { return nil }
      throw NotifyError(
        .usage, "\(term: .quietDays) '\(Escaper.visible(days, limit: 40))' need the hours they are quiet",
        fix: "give \(term: .quietFrom) and \(term: .quietTo) as well, as in 22:00 to 07:00")
    case (let from?, nil):
      throw NotifyError(
        .usage, "\(term: .quietFrom) '\(Escaper.visible(from, limit: 40))' has no end",
        fix: "give \(term: .quietTo) as well, as in \(Escaper.visible(from, limit: 40)) to 07:00")
    case (nil, let to?):
      throw NotifyError(
        .usage, "\(term: .quietTo) '\(Escaper.visible(to, limit: 40))' has no start",
        fix: "give \(term: .quietFrom) as well, as in 22:00 to \(Escaper.visible(to, limit: 40))")
    case (let from?, let to?):
      return QuietSchedule(
        from: try timeOfDay(from, naming: .quietFrom),
        to: try timeOfDay(to, naming: .quietTo),
        days: try days.map(Self.days) ?? Set(Weekday.allCases))
    }
  }

  /// Parses a `--days` list: day names (`mon`...`sun` or in full, any case) and ranges
  /// (`mon-fri`; `fri-mon` wraps over the weekend), separated by commas: `mon-fri,sun`.
  /// An empty list, an empty item or an unknown name is `NotifyError.Kind.invalidData`.
  public static func days(_ text: String) throws(NotifyError) -> Set<Weekday> {
    let shown = Escaper.visible(text, limit: 60)
    guard !text.allSatisfy(\.isWhitespace) else {
      throw NotifyError(
        .invalidData, "\(term: .quietDays) are empty",
        fix: "name at least one day, as in mon-fri or sat,sun, or leave the days out for every day")
    }
    var days: Set<Weekday> = []
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      let names = item.split(separator: "-", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces).lowercased()
      }
      guard names.count <= 2, !names.contains("") else {
        let problem = names.count > 2 ? "has a range with more than two ends" : "has an empty day name"
        throw NotifyError(
          .invalidData, "\(term: .quietDays) '\(shown)' \(problem)",
          fix: "separate days with single commas and ranges with one dash, as in mon-fri,sun")
      }
      var ends: [Weekday] = []
      for name in names {
        guard let day = Weekday.named(name) else {
          throw NotifyError(
            .invalidData,
            "\(term: .quietDays) '\(shown)': '\(Escaper.visible(name, limit: 20))' is not a day",
            fix: "use mon tue wed thu fri sat sun, or a range such as mon-fri")
        }
        ends.append(day)
      }
      // A range runs forward from its first day, past Sunday when it must (fri-mon).
      var day = ends[0]
      days.insert(day)
      while day != ends[ends.count - 1] {
        day = Weekday(rawValue: day.rawValue % 7 + 1)!
        days.insert(day)
      }
    }
    return days
  }

  /// Parses `HH:MM` (two digits each, 00:00 to 23:59) for the value `name` names.
  static func timeOfDay(_ text: String, naming name: Term) throws(NotifyError) -> TimeOfDay {
    let shown = Escaper.visible(text, limit: 40)
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { part in
      part.count <= 2 && part.allSatisfy { $0.isASCII && $0.isNumber } ? Int(part) : nil
    }
    guard (1...2).contains(parts.count), numbers.count == parts.count else {
      throw NotifyError(
        .invalidData, "\(term: name) '\(shown)' is not a time of day",
        fix: "write hours and minutes, as in 22:00 or 07:30")
    }
    let hour = numbers[0]
    let minute = numbers.count == 2 ? numbers[1] : 0
    guard hour <= 23 else {
      throw NotifyError(
        .invalidData, "\(term: name) '\(shown)': hour \(hour) does not exist",
        fix: "use an hour from 00 to 23 (midnight is 00:00)")
    }
    guard minute <= 59 else {
      throw NotifyError(
        .invalidData, "\(term: name) '\(shown)': minute \(minute) does not exist",
        fix: "use a minute from 00 to 59"
      )
    }
    let time = TimeOfDay(hour: hour, minute: minute)
    guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }) else {
      throw NotifyError(
        .invalidData, "\(term: name) '\(shown)' is not written HH:MM",
        fix: "write \(time), with two digits each")
    }
    return time
  }
}

extension QuietSchedule.Weekday {
  /// The day called `name`: `mon`...`sun` or the full English name, in lower case.
  static func named(_ name: String) -> Self? {
    allCases.first { $0.shortName == name || String(describing: $0) == name }
  }
}

extension QuietHours {
  /// Parses `--for` and `--until` of `notify quiet on`: when manual quiet ends, nil for until
  /// turned off (neither given).
  ///
  /// `duration` has `TimeParser.duration`'s syntax (`90m`, `1h30m`) and counts from `now`.
  /// `until` has `TimeParser.instant`'s: `07:00` is the next 07:00 strictly after `now` in
  /// `zone`, a date and time is read in `zone`, an RFC 3339 instant stands for itself; it must
  /// be after `now`. Both at once is a usage error; a bad value is invalid data.
  public static func manualEnd(for duration: String?, until: String?, now: Date, zone: Zone)
    throws(NotifyError) -> Date?
  {
    switch (duration, until) {
    case (nil, nil):
      return nil
    case (let duration?, let until?):
      throw NotifyError(
        .usage,
        "\(term: .quietFor) '\(Escaper.visible(duration, limit: 40))' and \(term: .until) '\(Escaper.visible(until, limit: 40))' cannot both be given",
        fix: "give one: how long quiet lasts, or when it ends")
    case (let duration?, nil):
      do {
        return now + (try TimeParser.duration(duration))
      } catch {
        throw error.naming(.delay, as: .quietFor)
      }
    case (nil, let until?):
      let end = try TimeParser.instant(until, zone: zone, now: now)
      guard end > now else {
        throw NotifyError(
          .invalidData, "\(term: .until) '\(Escaper.visible(until, limit: 40))' is not in the future",
          fix: "give a later date and time, or a time of day such as 07:00 for the next one")
      }
      return end
    }
  }
}

extension NotifyError {
  /// The same error with `term` written as `text`: for messages of a parser shared with an
  /// option the command line names differently (`--for` uses `--in`'s duration syntax).
  fileprivate func naming(_ term: Term, as other: Term) -> NotifyError {
    func renamed(_ errorText: ErrorText) -> ErrorText {
      var result = errorText
      result.segments = errorText.segments.map { $0 == .term(term) ? .term(other) : $0 }
      return result
    }
    var result = self
    result.problemText = renamed(problemText)
    result.fixText = fixText.map(renamed)
    return result
  }
}
