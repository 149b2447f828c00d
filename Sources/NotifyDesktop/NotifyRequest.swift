import NotifyCore

/// The arguments of one `org.freedesktop.Notifications.Notify` call, computed from a
/// delivery and the server's capabilities. Pure: no bus, so the mapping is tested alone.
///
/// SPEC.md §7: app_name = app; summary = title, or the body when there is no title;
/// body = body (when there is a title), escaped only when the server parses markup;
/// actions = `default` labelled by the action (only where a click can reach the app:
/// `offersDefaultAction`), then each `NotificationAction` when the server has `actions` (a
/// text-input one as KDE's `inline-reply` field when it has `inline-reply`); hints
/// urgency (from the interruption level), desktop-entry, image-path (the first attachment's
/// kept copy, as a `file://` URI) and, only when the server plays sounds itself,
/// sound-name / sound-file / suppress-sound. A subtitle is the body's first line (in bold
/// where the server has `body-markup`), or the summary when there is no title. A thread's
/// bubble replaced in place ends its body with a count line (`ThreadSummary`), and a
/// notification of a thread carries `x-kde-origin-name` (its subtitle, else the thread id).
struct NotifyRequest: Hashable, Sendable {
  /// The sound theme name played for `SoundName.default`.
  static let defaultSoundName = "message-new-instant"
  /// The capability of servers with KDE's inline reply.
  static let inlineReplyCapability = "inline-reply"
  /// The action key KDE's inline reply field travels under.
  static let inlineReplyKey = "inline-reply"

  /// Why the notification's actions are not shown on a server with `capabilities`, nil
  /// when they are (or it has none).
  static func actionsNote(_ notification: LocalNotification, capabilities: Set<String>) -> String? {
    guard !notification.actions.isEmpty, !capabilities.contains("actions") else { return nil }
    return "the notification server shows no actions (no 'actions' capability): "
      + "\(notification.actions.count) dropped"
  }

  /// An icon as `app_icon` takes it: a themed name as it is, an absolute path as a
  /// `file://` URI (the spec's "Icons and Images").
  static func iconText(_ icon: String) -> String {
    guard icon.hasPrefix("/") else { return icon }
    return FileURI.string(icon)
  }

  var appName: String
  var replacesID: UInt32
  var appIcon: String
  var summary: String
  var body: String
  var actions: [String]
  var hints: [String: BusVariant]
  /// -1: the server's default expiry.
  var expireTimeout: Int32

  /// True when the delivery has text to show. A notification with only a sound or a badge
  /// shows no bubble (iOS behaviour).
  static func hasAlert(_ notification: LocalNotification) -> Bool {
    !(notification.title ?? "").isEmpty || !(notification.body ?? "").isEmpty
      || !(notification.subtitle ?? "").isEmpty
  }

  /// Maps `delivery` for a server advertising `capabilities`; the default action is left
  /// out unless `offersDefaultAction`.
  init(
    delivery: Delivery, capabilities: Set<String>, replacesID: UInt32 = 0, offersDefaultAction: Bool = true
  ) {
    let notification = delivery.notification
    let title = notification.title ?? ""
    let subtitle = notification.subtitle ?? ""
    // The summary is plain text in every server: never escaped; the body only where the
    // server parses markup. A body the app marked up (checked when it was scheduled) is its
    // markup there, and its text everywhere else.
    let markup = capabilities.contains("body-markup")
    let parsed = notification.bodyMarkup ? (notification.body).flatMap { try? BodyMarkup(parsing: $0) } : nil
    let text = parsed?.plain ?? notification.body ?? ""
    let shownText = markup ? parsed?.markup ?? Escaper.markup(text) : text
    appName = notification.app
    self.replacesID = replacesID
    appIcon = delivery.appIcon.map(Self.iconText) ?? ""
    // A thread's bubble replaced in place stands for its notifications: the latest text, and
    // a count line (`ThreadSummary`) in the body.
    let count =
      replacesID != 0 && notification.threadIdentifier != nil
      ? ThreadSummary.count(replacing: delivery.thread, id: notification.id) : 1
    let countLine = ThreadSummary.line(count: count, format: notification.threadSummary)
    let shownLine = countLine.map { markup ? Escaper.markup($0) : $0 }
    switch (title.isEmpty, subtitle.isEmpty) {
    case (false, true):
      summary = title
      body = shownText
    case (false, false):
      // A subtitle is the body's first line, in bold where the server has markup.
      summary = title
      let line = markup ? "<b>\(Escaper.markup(subtitle))</b>" : subtitle
      body = text.isEmpty ? line : line + "\n" + shownText
    case (true, false):
      summary = subtitle
      body = shownText
    case (true, true):
      summary = text
      body = ""
    }
    if let shownLine { body = body.isEmpty ? shownLine : body + "\n" + shownLine }
    hints = [
      "urgency": .byte(notification.urgency.level),
      "desktop-entry": .string(delivery.desktopEntry ?? notification.app),
    ]
    if let thread = notification.threadIdentifier {
      // KDE groups a thread's bubbles under its origin: the subtitle names it (a channel),
      // else the thread's id.
      hints["x-kde-origin-name"] = .string(subtitle.isEmpty ? thread : subtitle)
    }
    if let image = notification.attachments.first {
      // Every server reads a path; the kept copy is the store's, private to the user.
      hints["image-path"] = .string(image.fileURI)
    }
    if capabilities.contains("x-kde-urls"), !notification.attachments.isEmpty {
      // KDE shows every attachment (a thumbnail, a drag source), not the first alone.
      hints["x-kde-urls"] = .strings(notification.attachments.map(\.fileURI))
    }
    actions = offersDefaultAction ? ["default", notification.actionLabel] : []
    if capabilities.contains("actions") {
      for action in notification.actions {
        if case .textInput(let placeholder, let buttonTitle) = action.kind,
          capabilities.contains(Self.inlineReplyCapability)
        {
          // KDE's inline reply: the action under this key is the reply field; the text
          // comes back in `NotificationReplied`.
          actions += [Self.inlineReplyKey, action.title]
          if let placeholder { hints["x-kde-reply-placeholder-text"] = .string(placeholder) }
          if let buttonTitle { hints["x-kde-reply-submit-button-text"] = .string(buttonTitle) }
        } else {
          actions += [action.key, action.title]
        }
      }
    }
    if capabilities.contains("sound") {
      switch delivery.sound {
      case .none:
        hints["suppress-sound"] = .bool(true)
      case .default:
        hints["sound-name"] = .string(NotifyRequest.defaultSoundName)
      case .themed(let name):
        // The server looks the name up in the user's own theme.
        hints["sound-name"] = .string(name)
      case .file:
        // The firer resolves and validates the file; without a path it falls back to the
        // default sound, as an invalid sound does (SPEC.md §4).
        if let path = delivery.soundFile {
          hints["sound-file"] = .string(path)
        } else {
          hints["sound-name"] = .string(NotifyRequest.defaultSoundName)
        }
      }
    }
    expireTimeout = -1
  }

  /// Writes the `susssasa{sv}i` arguments into `message`.
  func write(to message: BusMessage) throws(BusFailure) {
    try message.append(appName)
    try message.append(replacesID)
    try message.append(appIcon)
    try message.append(summary)
    try message.append(body)
    try message.append(actions)
    try message.container("a", "{sv}") { () throws(BusFailure) in
      for key in hints.keys.sorted() {
        try message.appendEntry(key, hints[key]!)
      }
    }
    try message.append(expireTimeout)
  }
}
