import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// What a notification shows and carries: the alert text, its action, sound, badge and
/// `userInfo`. Everything except *when* it fires and *which app* it belongs to.
///
/// ```swift
/// let content = NotificationContent(
///   title: "Standup", body: "Daily standup in room 4B", sound: .default, badge: 1,
///   userInfo: ["room": "4B"])
/// try await center.add(NotificationRequest(content: content, trigger: .after(.seconds(600))))
/// ```
public struct NotificationContent: Hashable, Sendable {
  /// The summary line (`alertTitle`), at most 200 characters.
  public var title: String?
  /// The message text (`alertBody`), at most 4000 characters.
  public var body: String?
  /// The label of the default action (`alertAction`); "View" when nil.
  public var action: String?
  /// An image name handed back to the app on activation (`alertLaunchImage`).
  public var launchImage: String?
  /// The sound: `.none` (silent, the default), `.default`, or a file from the app's sound folder.
  public var sound: SoundName
  /// The app badge to set on delivery (`applicationIconBadgeNumber`); nil leaves it, 0 clears it.
  public var badge: Int?
  /// A JSON object (at most 4096 bytes compact) handed back with every event.
  public var userInfo: [String: JSONValue]
  /// The freedesktop urgency; the same as `interruptionLevel` (`.low` is `.passive`).
  public var urgency: Urgency {
    get { interruptionLevel.urgency }
    set { if newValue != urgency { interruptionLevel = InterruptionLevel(newValue) } }
  }
  /// How strongly it may interrupt: `.passive` (no sound), `.active` (the default),
  /// `.timeSensitive`, `.critical` (shown during quiet hours).
  public var interruptionLevel: InterruptionLevel
  /// A second line under the title, at most 200 characters.
  public var subtitle: String?
  /// The body is marked up in the spec's subset (`<b>`, `<i>`, `<u>`, `<a href>` to http,
  /// https or mailto): shown as markup where the server parses it, as its text elsewhere.
  /// Other tags are refused when the notification is added.
  public var bodyMarkup: Bool
  /// The conversation or topic it belongs to (`[A-Za-z0-9._:-]{1,128}`).
  public var threadIdentifier: String?
  /// The count line of the thread's bubble in the app's words, `%u` the number of
  /// notifications the bubble stands for, the latest included (`"%u messages from alice"`);
  /// nil: `"%u new"`. At most 100 characters; `%` only as `%u` or `%%`.
  public var threadSummary: String? = nil
  /// Images to attach (PNG, JPEG, GIF, WebP, at most 10 MiB each, at most 10), checked and
  /// copied into the store's own folder when the notification is added; a file refused then
  /// fails `add` with `.invalidContent` and nothing is stored.
  public var attachments: [AttachmentSource]
  /// Buttons beside the default action (at most 4): `.button`, `.textInput` (a reply),
  /// `.snooze(seconds:)`. The app hears the key of the one picked (`.activated(actionKey:)`,
  /// with `userText` for a reply); notify handles snoozes itself.
  public var actions: [NotificationAction]
  /// The category whose buttons it is shown with when `actions` is empty
  /// (`UNNotificationContent.categoryIdentifier`): registered with
  /// `setNotificationCategories(_:)` and looked up at each delivery, so a changed category
  /// changes the deliveries after the change. An unregistered one is shown without buttons.
  public var categoryIdentifier: String?
  /// An alarm: alert again every `every` seconds (60 to 86,400), at most `times` times
  /// (1 to 10), until the user clicks it, picks an action or closes it; nil alerts once.
  /// Each re-alert replaces the bubble and is a `delivered` history entry.
  public var realert: Realert? = nil
  /// Wake the machine from suspend for its instant (a scheduled one; `notify schedule
  /// --wake`): the firer keeps a wake-capable timer armed a wake lead ahead of it, where the
  /// user lets the app and the system allows it (`notify status` says whether it does).
  /// Otherwise it fires when the machine is awake, as any other.
  public var wake = false
  /// How late is too late (`notify schedule --expire-late`), 1 second to 1 year: an
  /// occurrence due longer ago than this when it could be handed over (the machine slept or
  /// was off) is recorded `missed` with how late, not shown; nil shows it however late.
  public var expireLate: TimeInterval? = nil

  /// Creates content; give at least one of a title, a body, a sound or a badge.
  public init(
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
    attachments: [AttachmentSource] = [],
    bodyMarkup: Bool = false,
    categoryIdentifier: String? = nil
  ) {
    self.categoryIdentifier = categoryIdentifier
    self.bodyMarkup = bodyMarkup
    self.interruptionLevel = interruptionLevel ?? InterruptionLevel(urgency)
    self.subtitle = subtitle
    self.threadIdentifier = threadIdentifier
    self.attachments = attachments
    self.actions = actions
    self.title = title
    self.body = body
    self.action = action
    self.launchImage = launchImage
    self.sound = sound
    self.badge = badge
    self.userInfo = userInfo
  }

  /// The draft of `app`'s notification this content makes, for the one codec
  /// (`RequestCodec`) to read and check as it reads the command's flags and D-Bus keys.
  func draft(id: String?, app: String, schedule: Schedule) -> NotificationDraft {
    var draft = NotificationDraft(id: id, app: app, schedule: schedule)
    draft.title = title
    draft.subtitle = subtitle
    draft.body = body
    draft.bodyMarkup = bodyMarkup
    draft.action = action
    draft.launchImage = launchImage
    draft.sound = sound
    draft.badge = badge.map { .value($0) }
    draft.userInfo = .value(userInfo)
    draft.interruptionLevel = .value(interruptionLevel)
    draft.threadIdentifier = threadIdentifier
    draft.threadSummary = threadSummary
    draft.actions = actions
    draft.categoryIdentifier = categoryIdentifier
    draft.realert = realert
    draft.wake = wake
    draft.expireLate = expireLate
    draft.attachmentCount = attachments.count
    return draft
  }

  /// The notification this content makes for `app`, checked against SPEC.md §1.
  func checked(id: String?, app: String, schedule: Schedule, now: Date) throws(NotifyError)
    -> CheckedNotification
  {
    try RequestCodec.notification(draft(id: id, app: app, schedule: schedule), now: now)
  }

  /// The notification this content makes for `app` when added now on `trigger` (nil: shown
  /// now), its zones from `clock`, checked once.
  func checked(id: String?, app: String, trigger: NotificationTrigger?, clock: any NotifyClock)
    throws(NotifyError) -> CheckedNotification
  {
    let now = clock.now()
    let schedule =
      try trigger?.schedule(now: now, database: clock.zones.database) ?? Schedule(fireDate: .instant(now))
    return try checked(id: id, app: app, schedule: schedule, now: now)
  }
}

extension LocalNotification {
  /// The content type, so that call sites may spell it `LocalNotification.Content`.
  public typealias Content = NotificationContent
  /// The trigger type, so that call sites may spell it `LocalNotification.Trigger`.
  public typealias Trigger = NotificationTrigger

  /// What this notification shows and carries.
  public var content: NotificationContent {
    var content = NotificationContent(
      title: title, body: body, action: action, launchImage: launchImage, sound: sound, badge: badge,
      userInfo: userInfo, urgency: urgency, actions: actions, subtitle: subtitle,
      interruptionLevel: interruptionLevel, threadIdentifier: threadIdentifier,
      attachments: attachments.map { AttachmentSource(file: $0.file, identifier: $0.identifier) },
      bodyMarkup: bodyMarkup, categoryIdentifier: categoryIdentifier)
    content.threadSummary = threadSummary
    content.wake = wake
    content.expireLate = expireLate
    content.realert = realert.map { Realert(every: $0.every, times: $0.times) }
    return content
  }
}
