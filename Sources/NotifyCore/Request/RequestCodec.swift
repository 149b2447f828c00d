import Foundation

/// The one way from what a front door received (`NotificationDraft`) to a notification
/// the store takes (`CheckedNotification`): the command's flags, the D-Bus service's
/// `a{sv}`, the library's content and the calendar import all come through here, so the
/// texts are read and the rules run in one place, once, with one set of bounds and one
/// error for each problem, whichever door it came through. Pure: `now` comes in.
public enum RequestCodec {
  /// The draft's notification, read and checked.
  public static func notification(_ draft: NotificationDraft, now: Date) throws(NotifyError)
    -> CheckedNotification
  {
    let id = draft.id ?? generateID()
    try Validator.id(id)
    try Validator.attachmentCount(draft.attachmentCount)
    let badge: Int? =
      switch draft.badge {
      case .value(let number)?: number
      case .text(let text)?: try number(text, field: .badge)
      case nil: nil
      }
    let userInfo: [String: JSONValue] =
      switch draft.userInfo {
      case .value(let members)?: members
      case .text(let text)?: try Validator.userInfo(text)
      case nil: [:]
      }
    let level = try interruptionLevel(urgency: draft.urgency, level: draft.interruptionLevel)
    let realert: Realert?
    if let whole = draft.realert {
      realert = whole
    } else {
      let times: Int? =
        switch draft.realertTimes {
        case .value(let number)?: number
        case .text(let text)?: try number(text, field: .realertTimes)
        case nil: nil
        }
      realert = try Realert.given(every: draft.realertEvery, times: times)
    }
    let notification = LocalNotification(
      id: id, app: draft.app, schedule: draft.schedule, title: draft.title, body: draft.body,
      action: draft.action, launchImage: draft.launchImage, sound: draft.sound ?? .none, badge: badge,
      userInfo: userInfo, actions: draft.actions, subtitle: draft.subtitle, interruptionLevel: level,
      threadIdentifier: draft.threadIdentifier, threadSummary: draft.threadSummary,
      bodyMarkup: draft.bodyMarkup, categoryIdentifier: draft.categoryIdentifier, realert: realert,
      wake: draft.wake, expireLate: draft.expireLate, createdAt: now)
    return try CheckedNotification(notification)
  }

  /// The level an urgency and a level give together: either alone, or both when they name
  /// the same choice (`low` and `passive`); the default `active` when neither is given.
  static func interruptionLevel(urgency: Given<Urgency>?, level: Given<InterruptionLevel>?)
    throws(NotifyError) -> InterruptionLevel
  {
    var urgencyValue: Urgency?
    switch urgency {
    case .value(let value)?: urgencyValue = value
    case .text(let text)?:
      guard let value = Urgency(rawValue: text) else {
        throw NotifyError(.invalid(.urgency, .unknownWord(text, allowed: Urgency.allCases.map(\.rawValue))))
      }
      urgencyValue = value
    case nil: break
    }
    var levelValue: InterruptionLevel?
    var levelText = ""
    switch level {
    case .value(let value)?: (levelValue, levelText) = (value, value.rawValue)
    case .text(let text)?:
      guard let value = InterruptionLevel(text: text) else {
        throw NotifyError(.invalid(.interruptionLevel, .unknownWord(text, allowed: levelWords)))
      }
      (levelValue, levelText) = (value, text)
    case nil: break
    }
    guard let levelValue else { return InterruptionLevel(urgencyValue ?? .normal) }
    if let urgencyValue, levelValue.urgency != urgencyValue {
      throw NotifyError(
        .invalid(.interruptionLevel, .disagrees(levelText, with: .urgency, urgencyValue.rawValue)))
    }
    return levelValue
  }

  /// The levels as their text is given.
  static let levelWords = ["passive", "active", "time-sensitive", "critical"]

  /// A whole number given as text (`--badge 3`, `--realert-times 2`).
  static func number(_ text: String, field: NotifyError.Field) throws(NotifyError) -> Int {
    guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
      throw NotifyError(.invalid(field, .notANumber(text)))
    }
    return value
  }

  /// A short random id such as `n-3f9c0a12b7d4`: what every door gives a request without one.
  public static func generateID() -> String {
    var generator = SystemRandomNumberGenerator()
    let hex = String(generator.next() & 0xFFFF_FFFF_FFFF, radix: 16)
    return "n-" + String(repeating: "0", count: 12 - hex.count) + hex
  }
}
