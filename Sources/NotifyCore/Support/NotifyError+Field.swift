extension NotifyError {
  /// Which field of a notification (or of what an app registers) a value was given for.
  public enum Field: Hashable, Sendable {
    /// The notification's id, its app id, its thread and its category identifier.
    case id, app, thread, category
    /// The notification's texts.
    case title, subtitle, body, action, launchImage
    /// The badge number and `userInfo`.
    case badge, userInfo
    /// The freedesktop urgency and the interruption level, two words for one choice.
    case urgency, interruptionLevel
    /// The attachments, all together.
    case attachments
    /// The actions: all of them together (nil) or those of one list.
    case actions(ActionList?)
    /// A text of the action with this key: its label, its placeholder, its send button's label.
    case actionLabel(key: String, ActionList), actionPlaceholder(key: String), actionButtonTitle(key: String)
    /// The categories an app registers, all together.
    case categories
    /// An alarm's interval between re-alerts, how many there are, and which one this is.
    case realertEvery, realertTimes, realertNumber
    /// How many times a repeat delivers, a calendar rule, and the dates left out of it.
    case repeatCount, rule, exclusions
    /// The notification as a whole (what it shows).
    case content
    /// A key of an APNs payload (`aps.alert.title`).
    case payloadKey(String)
    /// The name a watched calendar is known by.
    case calendarName
    /// How late a notification may still be shown (`expireLate`), and the setting of how
    /// far ahead of a waking notification the machine is woken (`wakeLead`).
    case expireLate, wakeLead

    /// The lists an action is given in, each with its own flag on the command line.
    public enum ActionList: Hashable, Sendable {
      /// Buttons (`actions`), the text-input action, the snooze intervals.
      case buttons, textInput, snooze

      /// The term each layer names the list by.
      public var term: Term {
        switch self {
        case .buttons: .action
        case .textInput: .textAction
        case .snooze: .snooze
        }
      }
    }

    /// The field as a message names it.
    var name: ErrorText {
      switch self {
      case .id: "id"
      case .app: "app"
      case .thread: "thread"
      case .category: "category"
      case .title: "title"
      case .subtitle: "subtitle"
      case .body: "body"
      case .action: "action"
      case .launchImage: "launch image"
      case .badge: "badge"
      case .userInfo: "\(term: .userInfo)"
      case .urgency: "urgency"
      case .interruptionLevel: "interruption level"
      case .attachments: "attachments"
      case .actions(let list?): "\(term: list.term)"
      case .actions(nil): "actions"
      case .actionLabel(let key, _): "the label of action '\(Escaper.visible(key, limit: 40))'"
      case .actionPlaceholder(let key): "the placeholder of action '\(key)'"
      case .actionButtonTitle(let key): "the send label of action '\(key)'"
      case .categories: "categories"
      case .realertEvery: "\(term: .realertEvery)"
      case .realertTimes: "\(term: .realertTimes)"
      case .realertNumber: "re-alert"
      case .repeatCount: "\(term: .repeatCount)"
      case .rule: "\(term: .rule)"
      case .exclusions: "\(term: .exclusions)"
      case .content: "the notification"
      case .payloadKey(let key): "\(key)"
      case .calendarName: "calendar name"
      case .expireLate: "\(term: .expireLate)"
      case .wakeLead: "\(term: .wakeLead)"
      }
    }
  }

  /// Which rule a value breaks, with the bound it passed and what it was.
  public enum Violation: Hashable, Sendable {
    /// Characters or a length outside the field's set (`[A-Za-z0-9._:-]{1,128}`): the
    /// value, the characters allowed (as words) and the lengths allowed.
    case characters(String, allowed: String, lengths: ClosedRange<Int>)
    /// A control character other than newline and tab (its code point).
    case controlCharacter(UInt32)
    /// More characters than the limit.
    case tooLong(characters: Int, limit: Int)
    /// More UTF-8 bytes than `Validator.bytesPerCharacter` times the character limit.
    case tooManyBytes(Int, characterLimit: Int)
    /// A number outside its range.
    case outOfRange(Int, ClosedRange<Int>)
    /// A number below its minimum.
    case belowMinimum(Int, minimum: Int)
    /// Not valid JSON: why and at which byte.
    case notJSON(reason: String, offset: Int)
    /// JSON of another kind than an object ("an array").
    case notJSONObject(kindName: String)
    /// More bytes than the store keeps.
    case tooLarge(bytes: Int, limit: Int)
    /// More items than allowed.
    case tooMany(Int, limit: Int)
    /// A key or identifier given twice.
    case givenTwice(String)
    /// A key reserved for notify.
    case reserved(String)
    /// A snooze action whose key is not the one its interval makes.
    case keyMismatch(String)
    /// A label with a line break or a tab.
    case notOneLine
    /// Nothing where something is needed: an empty label, a notification with nothing to show.
    case empty
    /// An index outside what exists (`re-alert 5 of 3`).
    case notExisting(Int, of: Int)
    /// Text where a whole number is needed.
    case notANumber(String)
    /// A word outside the ones the field takes: the word and those it takes, in order.
    case unknownWord(String, allowed: [String])
    /// A value that disagrees with another field's (an urgency and a level that name two
    /// different choices): this field's value, the other field and its value.
    case disagrees(String, with: Field, String)
    /// A name that must be unique and that something else has already (a calendar watched
    /// under it): the name.
    case taken(String)
    /// Excluded dates that make a rule longer than the store keeps: how many were given, the
    /// rule's length in bytes, the limit, and how many would fit.
    case tooManyDates(Int, bytes: Int, limit: Int, fitting: Int)
  }
}

extension NotifyError.Reason {
  /// The words for a reason when its site gives none: for `invalid`, generated from the
  /// field and the rule (the messages SPEC.md §1 and the tests quote); for the others, a
  /// plain statement of the case.
  public var words: (problem: ErrorText, fix: ErrorText?) {
    switch self {
    case .invalid(let field, let violation): Self.words(field, violation)
    case .soundRefused(let name):
      (
        "sound '\(Escaper.visible(name, limit: 80))' cannot be used",
        "install a valid sound with 'notify sound install FILE'"
      )
    case .limitReached(let id):
      (
        "not scheduled: '\(Escaper.visible(id))' fires after all 64 pending notifications (the limit)",
        "cancel some of them, or schedule it sooner"
      )
    case .notFound(let ids):
      ("not found: \(ids.map { "'\(Escaper.visible($0, limit: 40))'" }.joined(separator: " "))", nil)
    case .storeBusy(let holder?): ("the store is busy: process \(holder) holds it", "try again")
    case .storeBusy(nil): ("the store is busy", "try again")
    case .storeUnreadable: ("cannot use the store", "check the path and its permissions")
    case .storeCorrupt:
      ("the store is corrupt or not a notify database", "move it aside; notify never replaces it")
    case .noServer:
      ("no notification server answers on the session bus", "start a notification daemon (e.g. dunst)")
    case .serverTimedOut(true): ("the notification server did not answer in time: it may still show it", nil)
    case .serverTimedOut(false): ("the notification server did not answer in time", "try again")
    case .notAllowed: ("not allowed to act for this app", nil)
    case .notAvailableInSandbox: ("not available inside a sandbox, where calls go to notify's service", nil)
    case .inputMissing(let path): ("no such file '\(Escaper.visible(path))'", "check the path")
    case .unclassified(let kind): ("failed (exit \(kind.rawValue))", nil)
    }
  }

  /// The words of `Validator`'s rules, word for word as SPEC.md §1 and the tests quote them.
  static func words(_ field: NotifyError.Field, _ violation: NotifyError.Violation) -> (ErrorText, ErrorText?)
  {
    let name = field.name
    switch violation {
    case .characters(let value, let allowed, let lengths):
      let shown = Escaper.visible(value, limit: 40)
      let use = "use \(lengths.lowerBound) to \(lengths.upperBound) characters from \(allowed)"
      switch field {
      case .app: return ("invalid app '\(shown)'", "\(use) (set with \(term: .app))")
      case .calendarName:
        return (
          "'\(shown)' is not a calendar name",
          "use \(lengths.lowerBound) to \(lengths.upperBound) \(allowed) (\(term: .calendarName))"
        )
      case .actions(let list?):
        return (
          "invalid action key '\(shown)' in \(term: list.term)",
          "\(use), as in \(term: list.term) archive:Archive"
        )
      default: return ("invalid \(name) '\(shown)'", "\(use)")
      }
    case .controlCharacter(let value):
      return (
        "\(name) contains the control character U+\(hex4(value))",
        "remove control characters; only newline and tab are allowed"
      )
    case .tooLong(let count, let limit):
      return ("\(name) is \(count) characters long", "shorten it to at most \(limit)")
    case .tooManyBytes(let bytes, let limit):
      let perCharacter = Validator.bytesPerCharacter
      return (
        "\(name) is \(bytes) bytes of UTF-8, more than \(limit * perCharacter)",
        "shorten it: at most \(limit) characters of \(perCharacter) bytes on average (combining marks count)"
      )
    case .outOfRange(let value, let range):
      switch field {
      case .badge, .payloadKey("aps.badge"):
        return (
          "\(name) \(value) is out of range",
          "use a number from \(range.lowerBound) to \(range.upperBound) (0 clears the badge)"
        )
      case .actions(.snooze?): return ("\(name) of \(value) s is out of range", "snooze from 1s to 30d")
      case .realertEvery:
        return (
          "\(name) is \(value) seconds; an alarm re-alerts at most once a minute and at least once a day",
          "give \(range.lowerBound) to \(range.upperBound) seconds (1m to 1d)"
        )
      case .realertTimes:
        return (
          "\(name) is \(value); an alarm re-alerts \(range.lowerBound) to \(range.upperBound) times",
          "give a count from \(range.lowerBound) to \(range.upperBound)"
        )
      default:
        return (
          "\(name) \(value) is out of range", "use a number from \(range.lowerBound) to \(range.upperBound)"
        )
      }
    case .belowMinimum(_, let minimum):
      return (
        "\(name) must be at least \(minimum)",
        minimum == 1 ? "pass a positive count" : "pass at least \(minimum)"
      )
    case .notJSON(let reason, let offset):
      return (
        "\(name) is not valid JSON: \(reason) at byte \(offset)",
        "pass a JSON object such as '{\"room\":\"4B\"}' (RFC 8259: double quotes, no trailing commas, each key once)"
      )
    case .notJSONObject(let kindName):
      return (
        "\(name) must be a JSON object, not \(kindName)",
        "wrap the value in an object such as '{\"value\": ...}'"
      )
    case .tooLarge(let bytes, let limit):
      if field == .rule {
        return (
          "\(name) is \(bytes) bytes long as the store writes it, more than the \(limit) it keeps",
          "shorten its lists, or split it into two notifications"
        )
      }
      return (
        "\(name) is \(bytes) bytes of compact JSON",
        "keep it under \(limit) bytes; store large data elsewhere and pass a key"
      )
    case .tooMany(let count, let limit):
      switch field {
      case .attachments:
        return ("\(count) attachments; a notification carries at most \(limit)", "attach fewer files")
      case .categories:
        return ("\(count) categories; an app registers at most \(limit)", "register fewer categories")
      case .actions(.textInput?):
        return (
          "the notification has \(count) text-input actions",
          "give at most one \(term: .textAction): a server shows one reply field"
        )
      case .actions:
        return (
          "the notification has \(count) actions (\(term: .action), \(term: .textAction) and \(term: .snooze) together)",
          "give at most \(limit); servers show no more"
        )
      default: return ("\(count) \(name); at most \(limit)", "give fewer")
      }
    case .givenTwice(let key):
      switch field {
      case .categories: return ("the category '\(key)' is given twice", "give each category once")
      case .actions(.snooze?):
        return (
          "the action key '\(Escaper.visible(key, limit: 40))' is given twice",
          "give each \(term: .snooze) interval once"
        )
      case .actions:
        return (
          "the action key '\(Escaper.visible(key, limit: 40))' is given twice", "give each action its own key"
        )
      default: return ("'\(Escaper.visible(key, limit: 40))' is given twice in \(name)", "give each once")
      }
    case .reserved(let key):
      return (
        "the action key '\(Escaper.visible(key, limit: 40))' is reserved",
        "choose another key: 'default', 'inline-reply' and keys starting with 'notify.' are notify's own"
      )
    case .keyMismatch(let key):
      return (
        "snooze action key '\(Escaper.visible(key, limit: 40))' does not match its interval",
        "create snooze actions with NotificationAction.snooze(seconds:)"
      )
    case .notOneLine: return ("\(name) has a line break or tab", "write the label on one line")
    case .empty:
      switch field {
      case .actionLabel(_, let list):
        return ("\(name) is empty", "give it a label, as in \(term: list.term) KEY:LABEL")
      case .content:
        return (
          "the notification has nothing to show",
          "give at least one of a body, \(term: .title), \(term: .sound) or \(term: .badge)"
        )
      default: return ("\(name) is empty", "give a value")
      }
    case .notExisting(let index, let count):
      return ("\(name) \(index) of \(count) does not exist", "schedule the alarm again")
    case .notANumber(let text):
      let range: ClosedRange<Int> =
        switch field {
        case .badge: 0...Validator.maxBadge
        case .realertTimes: Realert.timesRange
        default: 0...Int.max
        }
      return (
        "\(name) '\(Escaper.visible(text, limit: 40))' is not a number",
        "use a whole number from \(range.lowerBound) to \(range.upperBound)"
      )
    case .unknownWord(let word, let allowed):
      let choices =
        allowed.count < 2
        ? allowed.joined() : allowed.dropLast().joined(separator: ", ") + " or " + allowed[allowed.count - 1]
      return ("unknown \(name) '\(Escaper.visible(word, limit: 40))'", "use \(choices)")
    case .disagrees(let value, let other, let otherValue):
      return (
        "\(other.name) \(Escaper.visible(otherValue, limit: 40)) and \(name) \(Escaper.visible(value, limit: 40)) disagree",
        "give only one of them"
      )
    case .taken(let value):
      switch field {
      case .calendarName:
        return (
          "a calendar named '\(Escaper.visible(value))' is already watched",
          "pick another \(term: .calendarName), or remove that calendar first (\(term: .calendarRemoval))"
        )
      default: return ("\(name) '\(Escaper.visible(value, limit: 40))' is taken", "pick another")
      }
    case .tooManyDates(let count, let bytes, let limit, let fitting):
      return (
        "\(name) gives \(count) dates, which make the rule \(bytes) bytes long, more than the \(limit) the store keeps",
        "give at most \(fitting) (a whole day, YYYY-MM-DD, takes half the room of a time), or schedule a second notification for the later ones"
      )
    }
  }

  /// `0x1B` as `001B`.
  private static func hex4(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

extension ErrorText.StringInterpolation {
  /// Another `ErrorText`, its terms kept for each layer to name.
  public mutating func appendInterpolation(_ text: ErrorText) { segments.append(contentsOf: text.segments) }
}
