import Foundation

/// A notification as a front door received it (the command's flags, a D-Bus `a{sv}`, the
/// library's `NotificationContent`), before any rule is applied: `RequestCodec` turns it
/// into a `CheckedNotification`, the one place where urgency, level, re-alerts, badge and
/// `userInfo` are read and the rules of SPEC.md §1 run.
public struct NotificationDraft: Hashable, Sendable {
  /// The id; nil generates one (`RequestCodec.generateID`).
  public var id: String?
  /// The app it belongs to.
  public var app: String
  /// When it fires, already read by `ScheduleSpec` or the library's trigger.
  public var schedule: Schedule
  /// The summary line, the line under it, and the message.
  public var title: String?, subtitle: String?, body: String?
  /// The body is marked up (`BodyMarkup`).
  public var bodyMarkup = false
  /// The default action's label and the launch image's name.
  public var action: String?, launchImage: String?
  /// The sound (`none`, `default`, a file name, a theme name); nil is `none`.
  public var sound: SoundName?
  /// The badge number.
  public var badge: Given<Int>?
  /// `userInfo`: an object, or its JSON text.
  public var userInfo: Given<[String: JSONValue]>?
  /// The freedesktop urgency (`low`, `normal`, `critical`).
  public var urgency: Given<Urgency>?
  /// The interruption level (`passive`, `active`, `time-sensitive`, `critical`).
  public var interruptionLevel: Given<InterruptionLevel>?
  /// The thread, and its bubble's count line.
  public var threadIdentifier: String?, threadSummary: String?
  /// The actions beside the default one.
  public var actions: [NotificationAction] = []
  /// The category whose buttons it shows when it has none of its own.
  public var categoryIdentifier: String?
  /// An alarm's interval in seconds, and how many times it alerts again.
  public var realertEvery: Int?, realertTimes: Given<Int>?
  /// An alarm as a whole, as the library gives it (`realertEvery` and `realertTimes` are
  /// the parts a flag or a key gives).
  public var realert: Realert?
  /// Wake the machine for it.
  public var wake = false
  /// How late is too late, in seconds.
  public var expireLate: TimeInterval?
  /// How many files are to be attached to it when it is stored (checked against the bound
  /// before any is copied).
  public var attachmentCount = 0

  /// A draft of `app`'s notification firing on `schedule`, the rest to be filled in.
  public init(id: String? = nil, app: String, schedule: Schedule) {
    self.id = id
    self.app = app
    self.schedule = schedule
  }
}
