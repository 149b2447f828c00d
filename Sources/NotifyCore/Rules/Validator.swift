import Foundation

/// The input rules of SPEC.md §1. Each check throws `NotifyError` with the reason
/// `.invalid(field, violation)` (a sound name: `.soundRefused`), whose words name the
/// field, the problem and the fix.
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
      throw NotifyError(.invalid(.id, .characters(id, allowed: keyCharacters, lengths: 1...128)))
    }
  }

  /// The most attachments one notification carries.
  public static let maxAttachments = 10

  /// Checks a thread identifier: `[A-Za-z0-9._:-]{1,128}`, as an id.
  public static func threadIdentifier(_ thread: String) throws(NotifyError) {
    guard (1...128).contains(thread.utf8.count), thread.utf8.allSatisfy(isKeyByte) else {
      throw NotifyError(.invalid(.thread, .characters(thread, allowed: keyCharacters, lengths: 1...128)))
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
      throw NotifyError(.invalid(.app, .characters(app, allowed: "A-Z a-z 0-9 . _ -", lengths: 1...128)))
    }
  }

  /// Checks free text: no NUL or C0 control characters but newline and tab, at most
  /// `limit` characters.
  public static func text(_ text: String, field: NotifyError.Field, limit: Int) throws(NotifyError) {
    if let bad = text.unicodeScalars.first(where: {
      ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F
    }) {
      throw NotifyError(.invalid(field, .controlCharacter(bad.value)))
    }
    let count = text.count
    if count > limit {
      throw NotifyError(.invalid(field, .tooLong(characters: count, limit: limit)))
    }
    // A character is a grapheme cluster, which has no size limit of its own (a letter with
    // ten thousand combining marks is one): bound the bytes too.
    let bytes = text.utf8.count
    if bytes > limit * bytesPerCharacter {
      throw NotifyError(.invalid(field, .tooManyBytes(bytes, characterLimit: limit)))
    }
  }

  /// The average UTF-8 bytes a character may take within a text limit: an emoji sequence
  /// or an accented letter in any script fits, a tower of combining marks does not.
  public static let bytesPerCharacter = 16

  /// Checks a badge number: 0...99999.
  public static func badge(_ badge: Int) throws(NotifyError) {
    guard (0...maxBadge).contains(badge) else {
      throw NotifyError(.invalid(.badge, .outOfRange(badge, 0...maxBadge)))
    }
  }

  /// Parses and checks `userInfo`: a JSON object of at most 4096 bytes compact.
  public static func userInfo(_ text: String) throws(NotifyError) -> [String: JSONValue] {
    let value: JSONValue
    do { value = try JSONParser.parse(text) } catch {
      throw NotifyError(.invalid(.userInfo, .notJSON(reason: error.reason, offset: error.offset)))
    }
    guard case .object(let members) = value else {
      throw NotifyError(.invalid(.userInfo, .notJSONObject(kindName: value.kindName)))
    }
    let size = value.compactText.utf8.count
    guard size <= maxUserInfoBytes else {
      throw NotifyError(.invalid(.userInfo, .tooLarge(bytes: size, limit: maxUserInfoBytes)))
    }
    return members
  }

  /// Counts the whole-notification checks of the current task, when a test sets it: a
  /// request is checked once on its way in (`CheckedNotification`), whichever door it took.
  @TaskLocal public static var checkCount: Locked<Int>?

  /// Checks the size of `userInfo` as given in values (the library, D-Bus): at most
  /// 4096 bytes of compact JSON, as `userInfo(_:)` checks its text.
  public static func userInfo(_ members: [String: JSONValue]) throws(NotifyError) {
    guard !members.isEmpty else { return }
    let size = JSONValue.object(members).compactText.utf8.count
    guard size <= maxUserInfoBytes else {
      throw NotifyError(.invalid(.userInfo, .tooLarge(bytes: size, limit: maxUserInfoBytes)))
    }
  }

  /// Checks how many attachments a notification carries: at most `maxAttachments`.
  public static func attachmentCount(_ count: Int) throws(NotifyError) {
    guard count <= maxAttachments else {
      throw NotifyError(.invalid(.attachments, .tooMany(count, limit: maxAttachments)))
    }
  }

  /// Checks a whole notification before it is stored.
  public static func notification(_ n: LocalNotification) throws(NotifyError) {
    checkCount?.update { $0 += 1 }
    try id(n.id)
    try app(n.app)
    if let title = n.title { try text(title, field: .title, limit: maxTitle) }
    if let subtitle = n.subtitle { try text(subtitle, field: .subtitle, limit: maxTitle) }
    if let thread = n.threadIdentifier { try threadIdentifier(thread) }
    if let format = n.threadSummary { try ThreadSummary.validate(format: format) }
    try attachmentCount(n.attachments.count)
    if let body = n.body { try text(body, field: .body, limit: maxBody) }
    if n.bodyMarkup, let body = n.body { _ = try BodyMarkup(parsing: body) }
    if let action = n.action { try text(action, field: .action, limit: maxTitle) }
    if let image = n.launchImage { try text(image, field: .launchImage, limit: 1024) }
    if let badge = n.badge { try Validator.badge(badge) }
    try userInfo(n.userInfo)
    try actions(n.actions)
    if let category = n.categoryIdentifier { try categoryIdentifier(category) }
    if let realert = n.realert { try Validator.realert(realert) }
    if let limit = n.expireLate { try Validator.expireLate(limit) }
    if case .file(let name) = n.sound { try soundName(name) }
    try rule(of: n.schedule)
    if let count = n.schedule.repeatCount, count < 1 {
      throw NotifyError(.invalid(.repeatCount, .belowMinimum(count, minimum: 1)))
    }
    let hasContent =
      !(n.title ?? "").isEmpty || !(n.body ?? "").isEmpty || n.sound != .none || n.badge != nil
    guard hasContent else {
      throw NotifyError(.invalid(.content, .empty))
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
      throw NotifyError(.invalid(.rule, .tooLarge(bytes: length, limit: maxRuleText)))
    }
    throw NotifyError(
      .invalid(
        .exclusions, .tooManyDates(rule.exclusions.count, bytes: length, limit: maxRuleText, fitting: fitting)
      ))
  }

  /// Checks a notification's actions: at most `NotificationAction.maximumCount`, keys
  /// `[A-Za-z0-9._:-]{1,64}`, each once, none reserved; labels 1 to 40 characters of plain
  /// text; at most one text-input action; snoozes from 1 s to 30 days.
  public static func actions(_ actions: [NotificationAction]) throws(NotifyError) {
    guard actions.count <= NotificationAction.maximumCount else {
      throw NotifyError(
        .invalid(.actions(nil), .tooMany(actions.count, limit: NotificationAction.maximumCount)))
    }
    var keys: Set<String> = []
    for action in actions {
      let list: NotifyError.Field.ActionList =
        action.isTextInput ? .textInput : action.snoozeSeconds != nil ? .snooze : .buttons
      if let seconds = action.snoozeSeconds {
        guard NotificationAction.snoozeRange.contains(seconds) else {
          throw NotifyError(.invalid(.actions(.snooze), .outOfRange(seconds, NotificationAction.snoozeRange)))
        }
        guard action.key == NotificationAction.snooze(seconds: seconds).key else {
          throw NotifyError(.invalid(.actions(.snooze), .keyMismatch(action.key)))
        }
      } else {
        try actionKey(action.key, list: list)
      }
      guard keys.insert(action.key).inserted else {
        throw NotifyError(.invalid(.actions(list), .givenTwice(action.key)))
      }
      let label = NotifyError.Field.actionLabel(key: action.key, list)
      try text(action.title, field: label, limit: NotificationAction.maximumTitle)
      if action.title.contains(where: \.isNewline) || action.title.contains("\t") {
        throw NotifyError(.invalid(label, .notOneLine))
      }
      if action.title.allSatisfy(\.isWhitespace) {
        throw NotifyError(.invalid(label, .empty))
      }
      if case .textInput(let placeholder, let buttonTitle) = action.kind {
        if let placeholder {
          try text(
            placeholder, field: .actionPlaceholder(key: action.key),
            limit: NotificationAction.maximumPlaceholder)
        }
        if let buttonTitle {
          try text(
            buttonTitle, field: .actionButtonTitle(key: action.key), limit: NotificationAction.maximumTitle)
        }
      }
    }
    let textInputs = actions.filter(\.isTextInput).count
    if textInputs > 1 {
      throw NotifyError(.invalid(.actions(.textInput), .tooMany(textInputs, limit: 1)))
    }
  }

  /// Checks an app's action key: `[A-Za-z0-9._:-]{1,64}`, not reserved.
  static func actionKey(_ key: String, list: NotifyError.Field.ActionList) throws(NotifyError) {
    guard (1...64).contains(key.utf8.count), key.utf8.allSatisfy(isKeyByte) else {
      throw NotifyError(.invalid(.actions(list), .characters(key, allowed: keyCharacters, lengths: 1...64)))
    }
    if NotificationAction.reservedKeys.contains(key) || key.hasPrefix(NotificationAction.reservedPrefix) {
      throw NotifyError(.invalid(.actions(list), .reserved(key)))
    }
  }

  /// Checks a sound file name: a plain name, no `/`, not starting with `.`.
  public static func soundName(_ name: String) throws(NotifyError) {
    guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."), name.utf8.count <= 255,
      !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    else {
      throw NotifyError(
        .soundRefused(name), "sound name '\(Escaper.visible(name, limit: 60))' is not a plain file name",
        fix:
          "give a file name from the app's sound folder (no '/', not starting with '.'), 'default' or 'none'")
    }
  }

  /// `[A-Za-z0-9._:-]` in words, for messages.
  static let keyCharacters = "A-Z a-z 0-9 . _ : -"

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
