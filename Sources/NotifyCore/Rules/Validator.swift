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
    guard (1...128).contains(id.utf8.count), id.utf8.allSatisfy(isKeyByte) else {
      throw NotifyError(
        .invalidData, "invalid id '\(Escaper.visible(id, limit: 40))'",
        fix: "use 1 to 128 characters from A-Z a-z 0-9 . _ : -")
    }
  }

  /// The most attachments one notification carries.
  public static let maxAttachments = 10

  /// Checks a thread identifier: `[A-Za-z0-9._:-]{1,128}`, as an id.
  public static func threadIdentifier(_ thread: String) throws(NotifyError) {
    guard (1...128).contains(thread.utf8.count), thread.utf8.allSatisfy(isKeyByte) else {
      throw NotifyError(
        .invalidData, "invalid thread '\(Escaper.visible(thread, limit: 40))'",
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
    if let subtitle = n.subtitle { try text(subtitle, field: "subtitle", limit: maxTitle) }
    if let thread = n.threadIdentifier { try threadIdentifier(thread) }
    if let format = n.threadSummary { try ThreadSummary.validate(format: format) }
    if n.attachments.count > maxAttachments {
      throw NotifyError(
        .invalidData, "\(n.attachments.count) attachments; a notification carries at most \(maxAttachments)",
        fix: "attach fewer files")
    }
    if let body = n.body { try text(body, field: "body", limit: maxBody) }
    if n.bodyMarkup, let body = n.body { _ = try BodyMarkup(parsing: body) }
    if let action = n.action { try text(action, field: "action", limit: maxTitle) }
    if let image = n.launchImage { try text(image, field: "launch image", limit: 1024) }
    if let badge = n.badge { try Validator.badge(badge) }
    try actions(n.actions)
    if let category = n.categoryIdentifier { try categoryIdentifier(category) }
    if let realert = n.realert { try Validator.realert(realert) }
    if let limit = n.expireLate { try Validator.expireLate(limit) }
    if case .file(let name) = n.sound { try soundName(name) }
    try rule(of: n.schedule)
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

  /// The longest rule the store keeps: its canonical text with the EXDATE line, in bytes
  /// (StoreSchema's CHECK on `repeat_rule`).
  public static let maxRuleText = 8192

  /// Checks that a schedule's rule, with its ends and excluded dates, fits the store: when
  /// the excluded dates are what make it too long, says how many fit.
  public static func rule(of schedule: Schedule) throws(NotifyError) {
    guard let rule = ((try? schedule.withRuleEnds()) ?? schedule).rule else { return }
    let length = rule.text.utf8.count
    guard length > maxRuleText else { return }
    // "\nEXDATE:" then the dates, a comma between each two.
    var room = maxRuleText - rule.ruleText.utf8.count - "\nEXDATE:".utf8.count + 1
    let fitting = rule.exclusions.prefix { exclusion in
      room -= exclusion.text.utf8.count + 1
      return room >= 0
    }.count
    guard fitting > 0 else {
      throw NotifyError(
        .invalidData,
        "\(term: .rule) is \(length) bytes long as the store writes it, more than the \(maxRuleText) it keeps",
        fix: "shorten its lists, or split it into two notifications")
    }
    throw NotifyError(
      .invalidData,
      "\(term: .exclusions) gives \(rule.exclusions.count) dates, which make the rule \(length) bytes long, more than the \(maxRuleText) the store keeps",
      fix:
        "give at most \(fitting) (a whole day, YYYY-MM-DD, takes half the room of a time), or schedule a second notification for the later ones"
    )
  }

  /// Checks a notification's actions: at most `NotificationAction.maximumCount`, keys
  /// `[A-Za-z0-9._:-]{1,64}`, each once, none reserved; labels 1 to 40 characters of plain
  /// text; at most one text-input action; snoozes from 1 s to 30 days.
  public static func actions(_ actions: [NotificationAction]) throws(NotifyError) {
    guard actions.count <= NotificationAction.maximumCount else {
      throw NotifyError(
        .invalidData,
        "the notification has \(actions.count) actions (\(term: .action), \(term: .textAction) and \(term: .snooze) together)",
        fix: "give at most \(NotificationAction.maximumCount); servers show no more")
    }
    var keys: Set<String> = []
    for action in actions {
      let field: Term = action.isTextInput ? .textAction : action.snoozeSeconds != nil ? .snooze : .action
      if let seconds = action.snoozeSeconds {
        guard NotificationAction.snoozeRange.contains(seconds) else {
          throw NotifyError(
            .invalidData, "\(term: .snooze) of \(seconds) s is out of range", fix: "snooze from 1s to 30d")
        }
        guard action.key == NotificationAction.snooze(seconds: seconds).key else {
          throw NotifyError(
            .invalidData,
            "snooze action key '\(Escaper.visible(action.key, limit: 40))' does not match its interval",
            fix: "create snooze actions with NotificationAction.snooze(seconds:)")
        }
      } else {
        try actionKey(action.key, field: field)
      }
      guard keys.insert(action.key).inserted else {
        throw NotifyError(
          .invalidData, "the action key '\(Escaper.visible(action.key, limit: 40))' is given twice",
          fix: action.snoozeSeconds != nil
            ? "give each \(term: .snooze) interval once" : "give each action its own key")
      }
      try text(
        action.title, field: "the label of action '\(Escaper.visible(action.key, limit: 40))'",
        limit: NotificationAction.maximumTitle)
      if action.title.contains(where: \.isNewline) || action.title.contains("\t") {
        throw NotifyError(
          .invalidData,
          "the label of action '\(Escaper.visible(action.key, limit: 40))' has a line break or tab",
          fix: "write the label on one line")
      }
      if action.title.allSatisfy(\.isWhitespace) {
        throw NotifyError(
          .invalidData, "the label of action '\(Escaper.visible(action.key, limit: 40))' is empty",
          fix: "give it a label, as in \(term: field) KEY:LABEL")
      }
      if case .textInput(let placeholder, let buttonTitle) = action.kind {
        if let placeholder {
          try text(
            placeholder, field: "the placeholder of action '\(action.key)'",
            limit: NotificationAction.maximumPlaceholder)
        }
        if let buttonTitle {
          try text(
            buttonTitle, field: "the send label of action '\(action.key)'",
            limit: NotificationAction.maximumTitle)
        }
      }
    }
    if actions.filter(\.isTextInput).count > 1 {
      throw NotifyError(
        .invalidData, "the notification has \(actions.filter(\.isTextInput).count) text-input actions",
        fix: "give at most one \(term: .textAction): a server shows one reply field")
    }
  }

  /// Checks an app's action key: `[A-Za-z0-9._:-]{1,64}`, not reserved.
  static func actionKey(_ key: String, field: Term) throws(NotifyError) {
    let shown = Escaper.visible(key, limit: 40)
    guard (1...64).contains(key.utf8.count), key.utf8.allSatisfy(isKeyByte) else {
      throw NotifyError(
        .invalidData, "invalid action key '\(shown)' in \(term: field)",
        fix: "use 1 to 64 characters from A-Z a-z 0-9 . _ : -, as in \(term: field) archive:Archive")
    }
    if NotificationAction.reservedKeys.contains(key) || key.hasPrefix(NotificationAction.reservedPrefix) {
      throw NotifyError(
        .invalidData, "the action key '\(shown)' is reserved",
        fix: "choose another key: 'default', 'inline-reply' and keys starting with 'notify.' are notify's own"
      )
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

  /// `[A-Za-z0-9._:-]`: what notification ids and action keys are made of.
  static func isKeyByte(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: ":")
      || byte == UInt8(ascii: "-")
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
