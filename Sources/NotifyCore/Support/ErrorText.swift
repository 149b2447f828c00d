/// Something an error message refers to that each layer names its own way: the library by
/// its API name, the `notify` command by its flag. Errors below the command line name no
/// flags; the command line maps each term to its own (`NotifyError.rendered`).
public enum Term: Hashable, Sendable {
  /// The app a notification belongs to.
  case app
  /// The notification's userInfo.
  case userInfo
  /// The total number of deliveries of a repeat.
  case repeatCount
  /// The last instant a repeat may fire.
  case until
  /// An absolute or wall-clock fire date.
  case fireDate
  /// Where a schedule starts, whichever way it is given (a date or a delay).
  case start
  /// A delay from now.
  case delay
  /// The zone of a wall-clock fire date.
  case timeZone
  /// The title, sound and badge of a notification.
  case title, sound, badge
  /// The store's file.
  case storePath
  /// The rules every field must follow (for a value the store's constraints refused).
  case fieldRules
  /// The stdout sink, the way out when no notification server answers.
  case stdoutSink
  /// The desktop sink, the way out when stdout has no reader.
  case desktopSink
  /// Quiet hours' scheduled start and end (wall-clock times) and the days they start on.
  case quietFrom, quietTo, quietDays
  /// How long quiet hours turned on by hand last.
  case quietFor
  /// A notification's action buttons, its text-input action and its snooze intervals.
  case action, textAction, snooze
  /// A calendar rule, and the dates left out of it (EXDATE).
  case rule, exclusions
  /// The category a notification names (`categoryIdentifier`) or a category's identifier.
  case category
  /// An alarm's interval between re-alerts and how many there are at most.
  case realertEvery, realertTimes
  /// How late a notification may be handed over before it counts as missed.
  case expireLate
  /// How long before a waking notification's instant the machine is woken.
  case wakeLead
  /// A watched calendar's name, the way to list the watched calendars and the way to stop
  /// watching one.
  case calendarName, calendarList, calendarRemoval
  /// The start and the end of a calendar preview's window.
  case windowStart, windowEnd

  /// How the library names it.
  public var apiName: String {
    switch self {
    case .app: "the app id"
    case .userInfo: "userInfo"
    case .repeatCount: "repeatCount"
    case .until: "until"
    case .fireDate: "the fire date"
    case .start: "the first fire date"
    case .delay: "the delay"
    case .timeZone: "timeZone"
    case .title: "title"
    case .sound: "sound"
    case .badge: "badge"
    case .storePath: "the store path"
    case .fieldRules: "the field rules (docs/SPEC.md §1)"
    case .stdoutSink: "the stdout sink"
    case .desktopSink: "the desktop sink"
    case .quietFrom: "quiet hours from"
    case .quietTo: "quiet hours to"
    case .quietDays: "quiet days"
    case .quietFor: "quiet for"
    case .action: "actions"
    case .textAction: "the text-input action"
    case .snooze: "snooze"
    case .rule: "the rule"
    case .exclusions: "the rule's excluded dates"
    case .category: "categoryIdentifier"
    case .realertEvery: "realert.every"
    case .realertTimes: "realert.times"
    case .expireLate: "expireLate"
    case .wakeLead: "the wake lead"
    case .calendarName: "name"
    case .calendarList: "calendars()"
    case .calendarRemoval: "removeCalendar(named:)"
    case .windowStart: "the preview's start"
    case .windowEnd: "its end"
    }
  }
}

/// An error message: text with `Term`s left for each layer to name.
///
/// ```swift
/// let text: ErrorText = "\(term: .userInfo) is not valid JSON"
/// text.description                                   // "userInfo is not valid JSON"
/// text.rendered { $0 == .userInfo ? "--user-info" : $0.apiName }
/// ```
public struct ErrorText: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
  enum Segment: Hashable, Sendable {
    case text(String)
    case term(Term)
  }

  var segments: [Segment]

  /// Plain text.
  public init(_ text: String) { segments = [.text(text)] }

  /// A literal without interpolations.
  public init(stringLiteral value: String) { self.init(value) }

  /// A literal with interpolations.
  public init(stringInterpolation: StringInterpolation) { segments = stringInterpolation.segments }

  /// The text with each term named by `name`.
  public func rendered(_ name: (Term) -> String) -> String {
    segments.map { segment in
      switch segment {
      case .text(let text): text
      case .term(let term): name(term)
      }
    }.joined()
  }

  /// The text as the library names things.
  public var description: String { rendered { $0.apiName } }

  /// Builds an `ErrorText` from a literal.
  public struct StringInterpolation: StringInterpolationProtocol {
    var segments: [Segment] = []

    public init(literalCapacity: Int, interpolationCount: Int) {}

    public mutating func appendLiteral(_ literal: String) { segments.append(.text(literal)) }

    /// A term, named by each layer.
    public mutating func appendInterpolation(term: Term) { segments.append(.term(term)) }

    /// Any other value, as text.
    public mutating func appendInterpolation<T>(_ value: T) { segments.append(.text("\(value)")) }
  }
}
