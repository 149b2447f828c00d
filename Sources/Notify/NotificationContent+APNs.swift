import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

extension NotificationContent {
  /// Content from an Apple Push Notification payload, so a message that would have come
  /// as a remote notification can be shown as a local one:
  ///
  /// ```swift
  /// let content = try NotificationContent(
  ///   apnsPayload: #"{"aps":{"alert":"SteveJ: Hello, world!","sound":"default","badge":1},"room":"4B"}"#)
  /// // content.body == "SteveJ: Hello, world!", content.sound == .default,
  /// // content.badge == 1, content.userInfo == ["room": "4B"]
  /// ```
  ///
  /// The `aps` dictionary maps as follows; every other top-level key goes to `userInfo`.
  /// - `alert` as a string: the body.
  /// - `alert` as a dictionary: `title`, `body`, `subtitle` (shown as the body's first
  ///   line), `action` or `action-loc-key` (the action label), `launch-image`, and the
  ///   localized forms `title-loc-key`/`title-loc-args`, `subtitle-loc-key`/`subtitle-loc-args`,
  ///   `loc-key`/`loc-args`: the key is looked up in `localizedStrings` (the key itself
  ///   when absent, as iOS does) and its `%@` / `%1$@` specifiers are filled from the args.
  /// - `sound`: a name (`default` or a file from the app's sound folder), or the critical
  ///   alert dictionary `{"critical": 1, "name": ..., "volume": ...}`; critical sets the
  ///   urgency to `.critical`.
  /// - `badge`: 0...99999, 0 clears the badge.
  /// - Keys with no local equivalent (`category`, `thread-id`, `content-available`, ...)
  ///   are ignored.
  ///
  /// A malformed payload throws `NotificationError.invalidContent` naming the offending key
  /// (a sound name that is not a plain file name, `.soundRejected`); a value that breaks a
  /// rule of every notification (a text's length, `userInfo`'s size, the badge's range) is
  /// refused by that rule, in the words every door gives.
  public init(apnsPayload text: String, localizedStrings: [String: String] = [:]) throws(NotificationError) {
    try self.init(apnsPayload: Data(text.utf8), localizedStrings: localizedStrings)
  }

  /// Content from an APNs payload given as JSON bytes; see `init(apnsPayload:localizedStrings:)`.
  public init(apnsPayload data: Data, localizedStrings: [String: String] = [:]) throws(NotificationError) {
    do { try self.init(parsingAPNs: data, localizedStrings: localizedStrings) } catch {
      throw NotificationError(error)
    }
  }

  /// Content from an already parsed APNs payload; see `init(apnsPayload:localizedStrings:)`.
  public init(apnsDictionary payload: [String: JSONValue], localizedStrings: [String: String] = [:])
    throws(NotificationError)
  {
    do { try self.init(readingAPNs: payload, localizedStrings: localizedStrings) } catch {
      throw NotificationError(error)
    }
  }

  /// `init(apnsPayload:localizedStrings:)` with the inner layers' error.
  package init(parsingAPNs data: Data, localizedStrings: [String: String] = [:]) throws(NotifyError) {
    let value: JSONValue
    do {
      value = try JSONDecoder().decode(JSONValue.self, from: data)
    } catch {
      throw NotifyError(
        .invalidData, "the APNs payload is not valid JSON",
        fix: #"send a JSON object such as {"aps":{"alert":"Hello"}}"#)
    }
    guard case .object(let members) = value else {
      throw NotifyError(
        .invalidData, "the APNs payload is \(value.kindName), not a JSON object",
        fix: #"send a JSON object such as {"aps":{"alert":"Hello"}}"#)
    }
    try self.init(readingAPNs: members, localizedStrings: localizedStrings)
  }

  /// `init(apnsDictionary:localizedStrings:)` with the inner layers' error.
  package init(readingAPNs payload: [String: JSONValue], localizedStrings: [String: String] = [:])
    throws(NotifyError)
  {
    self.init()
    var reader = APNsReader(localizedStrings: localizedStrings)
    try reader.read(payload, into: &self)
  }
}

/// Reads the `aps` dictionary into content, throwing with the key at fault.
struct APNsReader {
  var localizedStrings: [String: String]

  private static let example = #"{"aps":{"alert":"Hello","sound":"default","badge":1}}"#

  mutating func read(_ payload: [String: JSONValue], into content: inout NotificationContent)
    throws(NotifyError)
  {
    guard let apsValue = payload["aps"] else {
      throw NotifyError(
        .invalidData, "the APNs payload has no \"aps\" dictionary",
        fix: "put the alert under \"aps\", e.g. \(Self.example)")
    }
    guard case .object(let aps) = apsValue else {
      throw NotifyError(
        .invalidData, "the APNs payload's \"aps\" is \(apsValue.kindName), not an object",
        fix: "make \"aps\" a dictionary, e.g. \(Self.example)")
    }
    if let alert = aps["alert"] { try readAlert(alert, into: &content) }
    if let sound = aps["sound"] { try readSound(sound, into: &content) }
    if let badge = aps["badge"] { content.badge = try readBadge(badge) }
    content.userInfo = payload.filter { $0.key != "aps" }

    let hasContent =
      !(content.title ?? "").isEmpty || !(content.body ?? "").isEmpty || content.sound != .none
      || content.badge != nil
    guard hasContent else {
      throw NotifyError(
        .invalidData, "the APNs payload has no alert, sound or badge to show",
        fix:
          "add \"alert\", \"sound\" or \"badge\" to \"aps\"; background (content-available) pushes have no local equivalent"
      )
    }
    try check(content.title, "aps.alert.title", limit: Validator.maxTitle)
    try check(content.body, "aps.alert.body", limit: Validator.maxBody)
    try check(content.action, "aps.alert.action", limit: Validator.maxTitle)
    try check(content.launchImage, "aps.alert.launch-image", limit: 1024)
    // The rule and the words of every door's userInfo (`--user-info`, the D-Bus key, the
    // library's content): the payload's other keys are this content's userInfo.
    try Validator.userInfo(content.userInfo)
  }

  private func readAlert(_ alert: JSONValue, into content: inout NotificationContent) throws(NotifyError) {
    switch alert {
    case .string(let text):
      content.body = text
    case .object(let fields):
      content.title = try localized(fields, plain: "title", key: "title-loc-key", args: "title-loc-args")
      let subtitle = try localized(
        fields, plain: "subtitle", key: "subtitle-loc-key", args: "subtitle-loc-args")
      let body = try localized(fields, plain: "body", key: "loc-key", args: "loc-args")
      content.body = [subtitle, body].compactMap { $0 }.joined(separator: "\n").nilIfEmpty
      if let action = try string(fields, "action") {
        content.action = action
      } else if let key = try string(fields, "action-loc-key") {
        content.action = localizedStrings[key] ?? key
      }
      content.launchImage = try string(fields, "launch-image")
    case .null:
      break
    default:
      throw NotifyError(
        .invalidData, "aps.alert is \(alert.kindName), not a string or a dictionary",
        fix: #"send "alert": "text" or "alert": {"title": "...", "body": "..."}"#)
    }
  }

  private func readSound(_ sound: JSONValue, into content: inout NotificationContent) throws(NotifyError) {
    let name: String
    switch sound {
    case .string(let text):
      name = text
    case .object(let fields):
      // The critical-alert form: {"critical": 1, "name": "default", "volume": 0.5}.
      guard let text = try string(fields, "name", in: "aps.sound") else {
        throw NotifyError(
          .invalidData, "aps.sound is a dictionary without \"name\"",
          fix: #"give the sound's name, e.g. {"critical": 1, "name": "default", "volume": 1.0}"#)
      }
      name = text
      switch fields["critical"] {
      case nil, .null: break
      case .int(let flag): if flag != 0 { content.urgency = .critical }
      case .bool(let flag): if flag { content.urgency = .critical }
      case let other?:
        throw NotifyError(
          .invalidData, "aps.sound.critical is \(other.kindName), not 0 or 1",
          fix: "use 1 for a critical alert, 0 otherwise")
      }
      switch fields["volume"] {
      case nil, .null: break
      case .int(let v) where (0...1).contains(v): break
      case .double(let v) where (0...1).contains(v): break
      default:
        throw NotifyError(
          .invalidData, "aps.sound.volume is not a number from 0 to 1", fix: "use a volume such as 0.5")
      }
    case .null:
      return
    default:
      throw NotifyError(
        .invalidData, "aps.sound is \(sound.kindName), not a string or a dictionary",
        fix: #"send "sound": "default" or the name of a sound file"#)
    }
    let soundName = SoundName(name)
    // A name the rules refuse is refused as every door refuses it (`soundRejected`).
    if case .file(let file) = soundName { try Validator.soundName(file) }
    content.sound = soundName
  }

  private func readBadge(_ badge: JSONValue) throws(NotifyError) -> Int? {
    let number: Int64
    switch badge {
    case .int(let value): number = value
    case .double(let value) where value == value.rounded() && abs(value) < 1e9: number = Int64(value)
    case .null: return nil
    default:
      throw NotifyError(
        .invalidData, "aps.badge is \(badge.kindName), not a whole number",
        fix: "send a number from 0 to \(Validator.maxBadge); 0 clears the badge")
    }
    // The badge's rule, with the key at fault as the field.
    guard (0...Int64(Validator.maxBadge)).contains(number) else {
      throw NotifyError(
        .invalid(.payloadKey("aps.badge"), .outOfRange(Int(clamping: number), 0...Validator.maxBadge)))
    }
    return Int(number)
  }

  /// A plain field, or else the localized form: the key's format filled from the args.
  private func localized(_ fields: [String: JSONValue], plain: String, key: String, args: String)
    throws(NotifyError) -> String?
  {
    if let text = try string(fields, plain) { return text }
    guard let formatKey = try string(fields, key) else { return nil }
    var arguments: [String] = []
    switch fields[args] {
    case nil, .null: break
    case .array(let values):
      for value in values {
        switch value {
        case .string(let text): arguments.append(text)
        case .int(let number): arguments.append(String(number))
        case .double(let number): arguments.append(String(number))
        default:
          throw NotifyError(
            .invalidData, "aps.alert.\(args) holds \(value.kindName)", fix: "make every argument a string")
        }
      }
    case let other?:
      throw NotifyError(
        .invalidData, "aps.alert.\(args) is \(other.kindName), not an array",
        fix: #"send an array of strings, e.g. ["SteveJ"]"#)
    }
    return try LocalizedFormat.fill(
      localizedStrings[formatKey] ?? formatKey, with: arguments, field: "aps.alert.\(key)")
  }

  private func string(_ fields: [String: JSONValue], _ name: String, in parent: String = "aps.alert")
    throws(NotifyError) -> String?
  {
    switch fields[name] {
    case nil, .null: return nil
    case .string(let text): return text
    case let other?:
      throw NotifyError(
        .invalidData, "\(parent).\(name) is \(other.kindName), not a string", fix: "send it as a JSON string")
    }
  }

  private func check(_ text: String?, _ field: String, limit: Int) throws(NotifyError) {
    if let text { try Validator.text(text, field: .payloadKey(field), limit: limit) }
  }
}

/// Fills the `%@`, `%1$@` and `%%` specifiers of a localized format, as iOS does for
/// `loc-key` / `loc-args`.
enum LocalizedFormat {
  static func fill(_ format: String, with arguments: [String], field: String) throws(NotifyError) -> String {
    var out = ""
    var next = 0
    var chars = format[...]
    while let percent = chars.firstIndex(of: "%") {
      out += chars[..<percent]
      var rest = chars[chars.index(after: percent)...]
      if rest.first == "%" {
        out += "%"
        chars = rest.dropFirst()
        continue
      }
      var index = next
      let digits = rest.prefix(while: \.isASCIIDigit)
      if !digits.isEmpty, rest.dropFirst(digits.count).first == "$", let position = Int(digits), position >= 1
      {
        index = position - 1
        rest = rest.dropFirst(digits.count + 1)
      } else {
        next += 1
      }
      guard rest.first == "@" else {
        throw NotifyError(
          .invalidData, "\(field) uses a format specifier other than %@",
          fix: "use %@ or %1$@ for arguments and %% for a percent sign")
      }
      guard index < arguments.count else {
        throw NotifyError(
          .invalidData, "\(field) needs argument \(index + 1) but only \(arguments.count) were given",
          fix: "send as many loc-args as the format has %@")
      }
      out += arguments[index]
      chars = rest.dropFirst()
    }
    return out + chars
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
  fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
