import NotifyCore
import NotifyZones

// The library's face is `LocalNotificationCenter` and the values an app passes to it and
// gets back. The inner modules (the store, the desktop adapter, sounds, zones, the firing
// rules) are not re-exported: an app that writes `import Notify` sees these names and the
// center's API, not `SQLiteStore` or the firing planners. Each alias names the inner type,
// so values cross the module boundary unchanged. Targets of this package that need more
// (the `notify` command, the tests) import the inner modules themselves.

/// A notification as stored: id, app, content and schedule.
public typealias LocalNotification = NotifyCore.LocalNotification
/// One occurrence handed to a sink.
public typealias Delivery = NotifyCore.Delivery
/// A sink: where deliveries go.
public typealias DeliverySink = NotifyCore.DeliverySink
/// An entry of the app's history.
public typealias HistoryEvent = NotifyCore.HistoryEvent
/// A pending notification with its next fire instant.
public typealias StoredNotification = NotifyCore.StoredNotification
/// A notification quiet hours hold.
public typealias HeldNotification = NotifyCore.HeldNotification
/// An answer of the user kept in the store (the `notify` command's `responses`).
public typealias NotificationResponse = NotifyCore.NotificationResponse
/// What the user's settings let the app do.
public typealias NotificationSettings = NotifyCore.NotificationSettings
/// Banner, sound, badge: how a notification is presented.
public typealias PresentationOptions = NotifyCore.PresentationOptions
/// A button, a reply field or a snooze beside the default action.
public typealias NotificationAction = NotifyCore.NotificationAction
/// A named set of buttons an app registers once and notifications name.
public typealias NotificationCategory = NotifyCore.NotificationCategory
/// A JSON value, for `userInfo`.
public typealias JSONValue = NotifyCore.JSONValue
/// The sound of a notification.
public typealias SoundName = NotifyCore.SoundName
/// The freedesktop urgency.
public typealias Urgency = NotifyCore.Urgency
/// How strongly a notification may interrupt.
public typealias InterruptionLevel = NotifyCore.InterruptionLevel
/// A file to attach, as given.
public typealias AttachmentSource = NotifyCore.AttachmentSource
/// A kept copy of an attached image.
public typealias NotificationAttachment = NotifyCore.NotificationAttachment
/// The kinds of image a notification may carry.
public typealias AttachmentKind = NotifyCore.AttachmentKind
/// A wall-clock time (year, month, day, hour, minute, second) in a zone.
public typealias WallClock = NotifyCore.WallClock
/// The zone a wall-clock trigger is read in: `.local` or `.named("Europe/Berlin")`.
public typealias ZoneRule = NotifyCore.ZoneRule
/// A calendar unit to repeat by.
public typealias RepeatInterval = NotifyCore.RepeatInterval
/// An iCalendar recurrence rule (`FREQ=WEEKLY;BYDAY=MO,WE`).
public typealias RecurrenceRule = NotifyCore.RecurrenceRule
/// Work with a time budget (`beginBackgroundTask`).
public typealias BackgroundTask = NotifyCore.BackgroundTask
/// The source of `now` and of the system time zone.
public typealias NotifyClock = NotifyCore.NotifyClock
/// The system's clock and zone.
public typealias SystemClock = NotifyZones.SystemClock
/// An alarm: alert again until acknowledged.
public typealias Realert = NotifyCore.Realert
