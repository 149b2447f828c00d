import Foundation

extension Realert {
  /// `{"every": SECONDS, "times": M}`, as JSON output shows it.
  public var jsonValue: JSONValue {
    .object(["every": .int(Int64(every)), "times": .int(Int64(times))])
  }

  /// The store's text: the JSON, plus `"number"` and `"occurrence"` (the one it re-alerts)
  /// for a copy.
  public static func storeText(_ realert: Realert?) -> String? {
    guard let realert else { return nil }
    var members: [String: JSONValue] = [
      "every": .int(Int64(realert.every)), "times": .int(Int64(realert.times)),
    ]
    if realert.number > 0 { members["number"] = .int(Int64(realert.number)) }
    if realert.occurrence > 0 { members["occurrence"] = .int(Int64(realert.occurrence)) }
    return JSONValue.object(members).compactText
  }

  /// Reads `storeText` back; nil for nil or text this version cannot read (the
  /// notification then alerts once, as it would without).
  public static func fromStoreText(_ text: String?) -> Realert? {
    guard let text, case .object(let members)? = try? JSONValue.parse(text),
      case .int(let every)? = members["every"], case .int(let times)? = members["times"]
    else { return nil }
    var number: Int64 = 0
    if case .int(let value)? = members["number"] { number = value }
    var occurrence: Int64 = 0
    if case .int(let value)? = members["occurrence"], value > 0, value <= Int64(Int32.max) {
      occurrence = value
    }
    return Realert(every: Int(every), times: Int(times), number: Int(number), occurrence: Int(occurrence))
  }
}
