import Foundation

extension NotificationAction {
  /// The JSON form in `list --json`, delivery lines and the store: `key`, `title`, `kind`
  /// (`button`, `text-input` or `snooze`), `opensApp`, `destructive`, and by kind
  /// `placeholder` and `buttonTitle` (text input) or `seconds` (snooze).
  public var jsonValue: JSONValue {
    var members: [String: JSONValue] = [
      "key": .string(key), "title": .string(title), "opensApp": .bool(opensApp),
      "destructive": .bool(destructive),
    ]
    switch kind {
    case .button:
      members["kind"] = .string("button")
    case .textInput(let placeholder, let buttonTitle):
      members["kind"] = .string("text-input")
      members["placeholder"] = placeholder.map(JSONValue.string) ?? .null
      members["buttonTitle"] = buttonTitle.map(JSONValue.string) ?? .null
    case .snooze(let seconds):
      members["kind"] = .string("snooze")
      members["seconds"] = .int(Int64(seconds))
    }
    return .object(members)
  }

  /// Reads the JSON form back; nil when it is not one.
  public init?(json: JSONValue) {
    guard case .object(let m) = json, case .string(let key)? = m["key"],
      case .string(let title)? = m["title"],
      case .string(let kindName)? = m["kind"]
    else { return nil }
    func text(_ name: String) -> String? {
      if case .string(let value)? = m[name] { return value }
      return nil
    }
    let kind: Kind
    switch kindName {
    case "button": kind = .button
    case "text-input": kind = .textInput(placeholder: text("placeholder"), buttonTitle: text("buttonTitle"))
    case "snooze":
      guard case .int(let seconds)? = m["seconds"] else { return nil }
      kind = .snooze(seconds: Int(seconds))
    default: return nil
    }
    self.init(
      key: key, title: title, opensApp: m["opensApp"] == .bool(true),
      destructive: m["destructive"] == .bool(true),
      kind: kind)
  }

  /// A list of actions as a JSON array (the `"actions"` of every JSON shape).
  public static func jsonArray(_ actions: [NotificationAction]) -> JSONValue {
    .array(actions.map(\.jsonValue))
  }

  /// Reads a JSON array of actions back; entries that do not parse are left out.
  public static func list(fromJSON value: JSONValue?) -> [NotificationAction] {
    guard case .array(let values)? = value else { return [] }
    return values.compactMap(NotificationAction.init(json:))
  }

  /// The store's text for a list of actions: a compact JSON array, nil for none.
  public static func storeText(_ actions: [NotificationAction]) -> String? {
    actions.isEmpty ? nil : jsonArray(actions).compactText
  }

  /// Reads the store's text back; entries that do not parse are left out.
  public static func fromStoreText(_ text: String?) -> [NotificationAction] {
    list(fromJSON: text.flatMap { try? JSONValue.parse($0) })
  }
}
