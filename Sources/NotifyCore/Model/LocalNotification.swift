import Foundation

/// A local notification, modeled on iOS's `UILocalNotification`.
///
/// The value is what the user scheduled; firing state (the next occurrence, claims)
/// lives in the store. See SPEC.md §1.
public struct LocalNotification: Hashable, Sendable {
  /// Caller-chosen or generated identifier, unique among an app's pending notifications.
  public var id: String
  /// The app this notification belongs to; limits, badges and sounds are per app.
  public var app: String
  /// When the notification fires and how it repeats.
  public var schedule: Schedule
  /// `alertTitle`: the summary line.
  public var title: String?
  /// A second line under the title (UNNotificationContent's `subtitle`).
  public var subtitle: String?
  /// `alertBody`: the message text.
  public var body: String?
  /// The body is marked up in the spec's subset (`BodyMarkup`): shown as markup where the
  /// server parses it, as its text elsewhere.
  public var bodyMarkup: Bool
  /// `alertAction`: the label of the default action; "View" when absent.
  public var action: String?
  /// `alertLaunchImage`: passed through to the app on activation.
  public var launchImage: String?
  /// `soundName`.
  public var sound: SoundName
  /// `applicationIconBadgeNumber`: `nil` leaves the badge unchanged, 0 clears it.
  public var badge: Int?
  /// `userInfo`: a JSON object handed back on delivery and activation.
  public var userInfo: [String: JSONValue]
  /// How strongly it may interrupt; the freedesktop urgency follows from it (`urgency`).
  public var interruptionLevel: InterruptionLevel
  /// The conversation or topic it belongs to (`threadIdentifier`): a thread shows as one
  /// bubble, replaced as its notifications arrive.
  public var threadIdentifier: String?
  /// The count line of its thread's bubble in the app's words (`summaryFormat` on iOS):
  /// `%u` is how many notifications the bubble stands for (`ThreadSummary`); nil: "%u new".
  public var threadSummary: String?
  /// Images it carries, kept as copies in the store's own folder (`NotificationAttachment`).
  public var attachments: [NotificationAttachment]
  /// Buttons beside the default action, in the order shown (`NotificationAction`).
  public var actions: [NotificationAction]
  /// The category whose buttons it is shown with when it has none of its own
  /// (`NotificationCategory`, `CategoryResolution`), looked up at each delivery.
  public var categoryIdentifier: String?
  /// An alarm: alert again until acknowledged (`Realert`); nil alerts once.
  public var realert: Realert?
  /// Wakes the machine from suspend for its instant, where the user lets the app and the
  /// system allows it (`WakePlanner`, `WakeAbility`): the firer that owns it keeps a
  /// wake-capable timer armed a little ahead of it (the wake lead).
  public var wake: Bool
  /// How late is too late: an occurrence handed over later than this after its instant is
  /// recorded `missed` (with how late) instead of shown (KAlarm's "cancel if late"); nil
  /// shows it however late it is.
  public var expireLate: TimeInterval?
  /// How many occurrences have been delivered so far.
  public var deliveredCount: Int
  /// When the notification was first stored.
  public var createdAt: Date

  /// Creates a notification; only `id`, `app` and `schedule` are required.
  public init(
    id: String,
    app: String,
    schedule: Schedule,
    title: String? = nil,
    body: String? = nil,
    action: String? = nil,
    launchImage: String? = nil,
    sound: SoundName = .none,
    badge: Int? = nil,
    userInfo: [String: JSONValue] = [:],
    urgency: Urgency = .normal,
    actions: [NotificationAction] = [],
    subtitle: String? = nil,
    interruptionLevel: InterruptionLevel? = nil,
    threadIdentifier: String? = nil,
    threadSummary: String? = nil,
    attachments: [NotificationAttachment] = [],
    bodyMarkup: Bool = false,
    categoryIdentifier: String? = nil,
    realert: Realert? = nil,
    wake: Bool = false,
    expireLate: TimeInterval? = nil,
    deliveredCount: Int = 0,
    createdAt: Date
  ) {
    self.id = id
    self.app = app
    self.schedule = schedule
    self.title = title
    self.body = body
    self.action = action
    self.launchImage = launchImage
    self.sound = sound
    self.badge = badge
    self.userInfo = userInfo
    self.interruptionLevel = interruptionLevel ?? InterruptionLevel(urgency)
    self.actions = actions
    self.subtitle = subtitle
    self.threadIdentifier = threadIdentifier
    self.threadSummary = threadSummary
    self.attachments = attachments
    self.bodyMarkup = bodyMarkup
    self.categoryIdentifier = categoryIdentifier
    self.realert = realert
    self.wake = wake
    self.expireLate = expireLate
    self.deliveredCount = deliveredCount
    self.createdAt = createdAt
  }

  /// The freedesktop urgency hint, which the interruption level decides; setting it sets
  /// the level it stands for (`--urgency low` is `passive`).
  public var urgency: Urgency {
    get { interruptionLevel.urgency }
    set { if newValue != urgency { interruptionLevel = InterruptionLevel(newValue) } }
  }

  /// The label of the default action, "View" when none was given (iOS behaviour).
  public var actionLabel: String { action ?? "View" }

  /// The action with `key`, nil for `default` and unknown keys.
  public func action(forKey key: String) -> NotificationAction? {
    actions.first { $0.key == key }
  }
}
