import Foundation

extension TimeParser {
  /// The longest duration `--in` accepts: 100 years of 365.25 days.
  public static let maximumDuration: TimeInterval = 36_525 * 86_400

  /// Parses `--in`: `90s`, `10m`, `2h`, `1d`, `1w` and sums such as `1h30m`; must be > 0.
  ///
  /// The text is one or more terms `<digits><unit>`, unit one of `s m h d w`, written
  /// together: whitespace is not allowed anywhere (`1h 30m` is an error that says to write
  /// `1h30m`). Terms may come in any order, each unit at most once. Units are elapsed
  /// time (a day is 86,400 s, a week 7 days). The sum must be positive and at most
  /// `maximumDuration`. Every failure is `NotifyError.Kind.invalidData`.
  /// `field` is what errors name (`--in` by default; `--snooze` for snooze intervals).
  public static func duration(_ text: String, field: Term = .delay) throws(NotifyError) -> TimeInterval {
    let shown = Escaper.visible(text, limit: 40)
    func invalid(_ problem: String, fix: String) -> NotifyError {
      NotifyError(.invalidData, "\(term: field) '\(shown)' \(problem)", fix: ErrorText(fix))
    }
    let example = "give a positive duration such as 90s, 10m, 2h, 1d, 1w or 1h30m"
    guard !text.isEmpty else {
      throw NotifyError(.invalidData, "\(term: field) needs a duration", fix: ErrorText(example))
    }
    if text.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
      throw invalid("contains whitespace", fix: "write the parts together, as in 1h30m")
    }
    if text.hasPrefix("-") {
      throw invalid("is negative", fix: example)
    }
    var total: Int64 = 0
    var seen: Set<Character> = []
    var rest = Substring(text)
    while !rest.isEmpty {
      let digits = rest.prefix(while: { $0.isASCII && $0.isNumber })
      rest = rest.dropFirst(digits.count)
      let unitText = rest.prefix(while: { !($0.isASCII && $0.isNumber) })
      rest = rest.dropFirst(unitText.count)
      if unitText.hasPrefix(".") || unitText.hasPrefix(",") {
        throw invalid("has a fraction", fix: "use whole numbers of smaller units, as in 1h30m for 1.5h")
      }
      guard !digits.isEmpty else {
        throw invalid("has '\(Escaper.visible(String(unitText), limit: 10))' without a number", fix: example)
      }
      guard let unit = unitText.first, unitText.count == 1, let seconds = unitSeconds[unit] else {
        if unitText.isEmpty {
          throw invalid("has no unit after \(digits)", fix: "add a unit, as in \(digits)s or \(digits)m")
        }
        throw invalid(
          "has the unknown unit '\(Escaper.visible(String(unitText), limit: 10))'",
          fix: "use s (seconds), m (minutes), h (hours), d (days) or w (weeks), as in 1h30m")
      }
      guard seen.insert(unit).inserted else {
        throw invalid("gives the unit '\(unit)' twice", fix: "add the parts up, as in 1h30m")
      }
      let limit = Int64(maximumDuration)
      guard digits.count <= 18, let count = Int64(digits), count <= limit / seconds,
        total + count * seconds <= limit
      else {
        throw invalid("is too long", fix: "use at most 36525d (100 years)")
      }
      total += count * seconds
    }
    guard total > 0 else {
      throw invalid("is not greater than zero", fix: example)
    }
    return TimeInterval(total)
  }

  private static let unitSeconds: [Character: Int64] = [
    "s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800,
  ]
}
