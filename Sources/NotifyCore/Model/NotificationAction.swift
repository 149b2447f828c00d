import Foundation

/// A button on a notification (`UNNotificationAction`): the key the app hears back when the
/// user picks it, and its label. A text-input action asks for a reply
/// (`UNTextInputNotificationAction`); a snooze action is handled by notify itself: the
/// notification comes back after `seconds`.
///
/// ```swift
/// let reply = NotificationAction.textInput(key: "reply", title: "Reply", placeholder: "Message")
/// let read = NotificationAction.button(key: "mark-read", title: "Mark read")
/// let snooze = NotificationAction.snooze(seconds: 300)  // "Snooze 5 min"
/// ```
public struct NotificationAction: Hashable, Sendable {
  /// What picking the action does.
  public enum Kind: Hashable, Sendable {
    /// A plain button: the app hears the key.
    case button
    /// A reply field where the server offers inline reply, else a button that opens the
    /// app; the app hears the key and the text.
    case textInput(placeholder: String?, buttonTitle: String?)
    /// notify shows the notification again `seconds` later; the app is not involved.
    case snooze(seconds: Int)
  }

  /// The key the app hears (`actionKey`): `[A-Za-z0-9._:-]{1,64}`, not `default`, not
  /// starting with `notify.` (notify's own keys).
  public var key: String
  /// The button's label.
  public var title: String
  /// Whether picking it opens the app when no process of the app runs
  /// (`UNNotificationActionOptions.foreground`); otherwise the response waits in the store
  /// until the app asks for it.
  public var opensApp: Bool
  /// Whether the action destroys something (`.destructive`); servers may show it apart.
  public var destructive: Bool
  /// Button, text input or snooze.
  public var kind: Kind

  /// Creates an action; `Validator.actions` checks it.
  public init(
    key: String, title: String, opensApp: Bool = false, destructive: Bool = false, kind: Kind = .button
  ) {
    self.key = key
    self.title = title
    self.opensApp = opensApp
    self.destructive = destructive
    self.kind = kind
  }

  /// A plain button.
  public static func button(key: String, title: String, opensApp: Bool = false, destructive: Bool = false)
    -> NotificationAction
  {
    NotificationAction(key: key, title: title, opensApp: opensApp, destructive: destructive)
  }

  /// A reply: a text field where the server supports inline reply.
  public static func textInput(
    key: String, title: String, placeholder: String? = nil, buttonTitle: String? = nil, opensApp: Bool = false
  ) -> NotificationAction {
    NotificationAction(
      key: key, title: title, opensApp: opensApp,
      kind: .textInput(placeholder: placeholder, buttonTitle: buttonTitle))
  }

  /// A snooze button: key `notify.snooze.SECONDS`, label such as "Snooze 10 min".
  public static func snooze(seconds: Int) -> NotificationAction {
    NotificationAction(
      key: snoozePrefix + String(seconds), title: "Snooze " + label(seconds: seconds),
      kind: .snooze(seconds: seconds))
  }

  /// `10 min`, `2 h`, `1 day`, `45 s`: the largest unit that divides the interval.
  static func label(seconds: Int) -> String {
    if seconds >= 86_400, seconds % 86_400 == 0 {
      let days = seconds / 86_400
      return days == 1 ? "1 day" : "\(days) days"
    }
    if seconds >= 3600, seconds % 3600 == 0 { return "\(seconds / 3600) h" }
    if seconds >= 60, seconds % 60 == 0 { return "\(seconds / 60) min" }
    return "\(seconds) s"
  }

  /// The snooze interval of a snooze action, nil for others.
  public var snoozeSeconds: Int? {
    if case .snooze(let seconds) = kind { return seconds }
    return nil
  }

  /// Whether this is the text-input kind.
  public var isTextInput: Bool {
    if case .textInput = kind { return true }
    return false
  }

  /// Keys starting with this are notify's own.
  public static let reservedPrefix = "notify."
  /// The key prefix of snooze actions.
  static let snoozePrefix = "notify.snooze."
  /// Keys an app may not use: `default` is the click on the notification itself, and
  /// `inline-reply` is the key KDE's inline reply travels under.
  public static let reservedKeys: Set<String> = ["default", "inline-reply"]
  /// The most actions one notification may carry (snooze buttons included): GNOME Shell
  /// shows three buttons and Plasma three plus a reply field; iOS shows four.
  public static let maximumCount = 4
  /// The longest label, in characters.
  public static let maximumTitle = 40
  /// The longest placeholder of a text-input action, in characters.
  public static let maximumPlaceholder = 100
  /// The shortest and longest snooze.
  public static let snoozeRange = 1...(30 * 86_400)
}
