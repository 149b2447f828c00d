import Foundation

/// The input rules of SPEC.md §1. Each check throws `NotifyError.invalidData` with text
/// that names the field, the problem and the fix.
public enum Validator {
  /// Longest title, in characters.
  public static let maxTitle = 200
  /// Longest body, in characters.
  public static let maxBody = 4000
  /// Largest badge number.
  public static let maxBadge = 99_999
  /// Largest `userInfo`, in bytes of compact JSON.
  public static let maxUserInfoBytes = 4096

  /// Checks a notification id: `[A-Za-z0-9._:-]{1,128}`.
  public static func id(_ id: String) throws(NotifyError) {
    guard (1...128).contains(id.utf8.count),
      id.utf8.allSatisfy({
        isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ":")
          || $0 == UInt8(ascii: "-")
      })
    else {
      throw NotifyError(
        .invalidData, "invalid id '\(Escaper.visible(id, limit: 40))'",
        fix: "use 1 to 128 characters from A-Z a-z 0-9 . _ : -")
    }
  }

  /// Checks an app id: `[A-Za-z0-9._-]{1,128}`.
  public static func app(_ app: String) throws(NotifyError) {
    // "." and ".." fit the character set but would name folders when the app id builds
    // paths (sound folders), so they are refused.
    guard (1...128).contains(app.utf8.count), app != ".", app != "..",
      app.utf8.allSatisfy({
        isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
      })
    else {
      throw NotifyError(
        .invalidData, "invalid app '\(Escaper.visible(app, limit: 40))'",
        fix: "use 1 to 128 characters from A-Z a-z 0-9 . _ - (set with \(term: .app))")
    }
  }

  /// Checks free text: no NUL or C0 control characters but newline and tab, at most
  /// `limit` characters.
  public static func text(_ text: String, field: String, limit: Int) throws(NotifyError) {
    if let bad = text.unicodeScalars.first(where: {
      ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F
    }) {
      throw NotifyError(
        .invalidData,
        "\(field) contains the control character U+\(String(format: "%04X", bad.value))",
        fix: "remove control characters; only newline and tab are allowed")
    }
    let count = text.count
    if count > limit {
      throw NotifyError(
        .invalidData, "\(field) is \(count) characters long", fix: "shorten it to at most \(limit)")
    }
    // A character is a grapheme cluster, which has no size limit of its own (a letter with
    // ten thousand combining marks is one): bound the bytes too.
    let bytes = text.utf8.count
    if bytes > limit * bytesPerCharacter {
      throw NotifyError(
        .invalidData, "\(field) is \(bytes) bytes of UTF-8, more than \(limit * bytesPerCharacter)",
        fix:
          "shorten it: at most \(limit) characters of \(bytesPerCharacter) bytes on average (combining marks count)"
      )
    }
  }

  /// The average UTF-8 bytes a character may take within a text limit: an emoji sequence
  /// or an accented letter in any script fits, a tower of combining marks does not.
  public static let bytesPerCharacter = 16

  /// Checks a badge number: 0...99999.
  public static func badge(_ badge: Int) throws(NotifyError) {
    guard (0...maxBadge).contains(badge) else {
      throw NotifyError(
        .invalidData, "badge \(badge) is out of range",
        fix: "use a number from 0 to \(maxBadge) (0 clears the badge)")
    }
  }

  /// Parses and checks `userInfo`: a JSON object of at most 4096 bytes compact.
  public static func userInfo(_ text: String) throws(NotifyError) -> [String: JSONValue] {
    let value: JSONValue
    do { value = try JSONParser.parse(text) } catch {
      throw NotifyError(
        .invalidData, "\(term: .userInfo) is not valid JSON: \(error.reason) at byte \(error.offset)",
        fix:
          "pass a JSON object such as '{\"room\":\"4B\"}' (RFC 8259: double quotes, no trailing commas, each key once)"
      )
    }
    guard case .object(let members) = value else {
      throw NotifyError(
        .invalidData, "\(term: .userInfo) must be a JSON object, not \(value.kindName)",
        fix: "wrap the value in an object such as '{\"value\": ...}'")
    }
    let size = value.compactText.utf8.count
    guard size <= maxUserInfoBytes else {
      throw NotifyError(
        .invalidData, "\(term: .userInfo) is \(size) bytes of compact JSON",
        fix: "keep it under \(maxUserInfoBytes) bytes; store large data elsewhere and pass a key")
    }
    return members
  }

  /// Checks a whole notification before it is stored.
  public static func notification(_ n: LocalNotification) throws(NotifyError) {
    try id(n.id)
    try app(n.app)
    if let title = n.title { try text(title, field: "title", limit: maxTitle) }
    if let body = n.body { try text(body, field: "body", limit: maxBody) }
    if let action = n.action { try text(action, field: "action", limit: maxTitle) }
    if let image = n.launchImage { try text(image, field: "launch image", limit: 1024) }
    if let badge = n.badge { try Validator.badge(badge) }
    if case .file(let name) = n.sound { try soundName(name) }
    if let count = n.schedule.repeatCount, count < 1 {
      throw NotifyError(
        .invalidData, "\(term: .repeatCount) must be at least 1", fix: "pass a positive count")
    }
    let hasContent =
      !(n.title ?? "").isEmpty || !(n.body ?? "").isEmpty || n.sound != .none || n.badge != nil
    guard hasContent else {
      throw NotifyError(
        .invalidData, "the notification has nothing to show",
        fix: "give at least one of a body, \(term: .title), \(term: .sound) or \(term: .badge)")
    }
  }

  /// Checks a sound file name: a plain name, no `/`, not starting with `.`.
  public static func soundName(_ name: String) throws(NotifyError) {
    guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), name.utf8.count <= 255,
      !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else {
      throw NotifyError(
        .invalidData, "sound name '\(Escaper.visible(name, limit: 60))' is not a plain file name",
        fix:
          "give a file name from the app's sound folder (no '/', not starting with '.'), 'default' or 'none'")
    }
  }

  private static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }
}

extension JSONValue {
  /// "an array", "a string", ... for messages.
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .int, .double: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
