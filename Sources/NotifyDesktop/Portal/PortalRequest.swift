import NotifyCore

/// The arguments of one `org.freedesktop.portal.Notification.AddNotification(s id, a{sv})`
/// call, computed from a delivery and the portal's `version`. Pure: no bus, so the mapping
/// is tested alone.
///
/// Version 1 (xdg-desktop-portal 1.16, Debian 12) takes `title`, `body`, `icon`,
/// `priority`, `default-action` and `buttons`; the keys of version 2 (`markup-body`,
/// `category`, `display-hint`, `sound`, a button's `purpose`) go only to a portal whose
/// `version` is 2 or more: 1.16 refuses a call with a key it does not know. The id is the
/// notification's: the portal scopes ids by app, and the same id replaces the bubble.
struct PortalRequest: Hashable, Sendable {
  /// The `default-action` a click on the bubble itself reports.
  static let defaultAction = "default"

  /// The portal's id of the notification (the notification's own).
  var id: String
  /// The `a{sv}` entries, in a fixed order.
  var entries: [(String, BusValue)]

  static func == (lhs: PortalRequest, rhs: PortalRequest) -> Bool {
    lhs.id == rhs.id && lhs.entries.map(\.0) == rhs.entries.map(\.0)
      && lhs.entries.map(\.1) == rhs.entries.map(\.1)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    for (key, value) in entries {
      hasher.combine(key)
      hasher.combine(value)
    }
  }

  /// The value under `key`, nil when absent.
  subscript(key: String) -> BusValue? { entries.first { $0.0 == key }?.1 }

  /// Maps `delivery` for a portal of `version`.
  ///
  /// `title` is the title, else the subtitle, else the body (the portal's bubble needs a
  /// title); `body` the rest as plain text, a subtitle as its first line (as the desktop sink
  /// shows it). `icon` is the app's themed icon name (a serialized `GIcon`, `("themed",
  /// <["name"]>)`); a path is not sent (1.16 validates icons it is given as bytes only).
  /// `priority` follows the interruption level: passive `low`, active `normal`,
  /// time-sensitive `high`, critical `urgent`. `default-action` is `default` where a click
  /// on the bubble can reach the app. `buttons` are the notification's actions, each
  /// `label` and `action` (its key); a text input is a plain button in version 1.
  init(delivery: Delivery, version: UInt32) {
    let notification = delivery.notification
    id = notification.id
    let parsed = notification.bodyMarkup ? notification.body.flatMap { try? BodyMarkup(parsing: $0) } : nil
    let text = parsed?.plain ?? notification.body ?? ""
    let title = notification.title ?? ""
    let subtitle = notification.subtitle ?? ""
    var heading: String
    var lines: [String] = []
    if !title.isEmpty {
      heading = title
      if !subtitle.isEmpty { lines.append(subtitle) }
      if !text.isEmpty { lines.append(text) }
    } else if !subtitle.isEmpty {
      heading = subtitle
      if !text.isEmpty { lines.append(text) }
    } else {
      heading = text
    }
    if heading.isEmpty { heading = notification.app }
    entries = [("title", .string(heading))]
    if !lines.isEmpty { entries.append(("body", .string(lines.joined(separator: "\n")))) }
    if version >= 2, let parsed, !text.isEmpty {
      // Version 2 shows the app's markup; version 1 gets its text.
      let markupLines =
        (title.isEmpty || subtitle.isEmpty ? [] : [Escaper.markup(subtitle)]) + [parsed.markup]
      entries.append(("markup-body", .string(markupLines.joined(separator: "\n"))))
    }
    if let icon = delivery.appIcon, !icon.isEmpty, !icon.contains("/") {
      entries.append(("icon", .structure([.string("themed"), .variant(.strings([icon]))])))
    }
    entries.append(("priority", .string(Self.priority(notification.interruptionLevel))))
    if delivery.offersDefaultAction { entries.append(("default-action", .string(Self.defaultAction))) }
    if !notification.actions.isEmpty {
      let buttons = notification.actions.map { action -> BusValue in
        var button: [(String, BusValue)] = [
          ("label", .string(action.title)), ("action", .string(action.key)),
        ]
        if version >= 2, action.isTextInput { button.append(("purpose", .string("im.reply-with-text"))) }
        return .vardict(button)
      }
      entries.append(("buttons", .array(element: "a{sv}", buttons)))
    }
    guard version >= 2 else { return }
    if notification.realert != nil {
      entries.append(("category", .string("alarm.ringing")))
    } else if notification.actions.contains(where: \.isTextInput) {
      entries.append(("category", .string("im.received")))
    }
    switch notification.interruptionLevel {
    case .passive: entries.append(("display-hint", .strings(["tray"])))
    case .critical: entries.append(("display-hint", .strings(["persistent"])))
    case .active, .timeSensitive: break
    }
    entries.append(("sound", .string(delivery.sound == .none ? "silent" : "default")))
  }

  /// The portal's `priority` for an interruption level.
  static func priority(_ level: InterruptionLevel) -> String {
    switch level {
    case .passive: "low"
    case .active: "normal"
    case .timeSensitive: "high"
    case .critical: "urgent"
    }
  }
}
