import ArgumentParser
import Foundation
import NotifyCore

/// The content flags `schedule` and `now` share (SPEC.md §1).
struct NotificationOptions: ParsableArguments {
  @Option(
    name: .long, help: "Identifier [A-Za-z0-9._:-]{1,128}; generated when absent. Replaces a pending one.")
  var id: String?

  @Option(name: .long, help: "The title (summary line), at most 200 characters.")
  var title: String?

  @Option(name: .long, help: "A second line under the title, at most 200 characters.")
  var subtitle: String?

  @Option(name: .long, help: "The body, at most 4000 characters (or give it as the argument).")
  var body: String?

  @Flag(
    name: .long,
    help:
      "The body is marked up: <b>, <i>, <u>, <a href=\"URL\"> (http, https, mailto); its text where the server has no markup."
  )
  var markup = false

  @Argument(help: "The body, when --body is not given.")
  var bodyArgument: String?

  @Option(name: .long, help: "Label of the default action (default \"View\").")
  var action: String?

  @Option(name: .customLong("launch-image"), help: "Launch image name passed to the app on activation.")
  var launchImage: String?

  @Option(
    name: .long,
    help:
      "none (default), default, a sound file from the app's sound folder, or a sound theme name (alarm-clock-elapsed)."
  )
  var sound: String?

  @Option(name: .long, parsing: .unconditional, help: "Badge number 0...99999 (0 clears it).")
  var badge: String?

  @Option(
    name: .customLong("user-info"), help: "A JSON object of at most 4096 bytes, handed back on delivery.")
  var userInfo: String?

  @Option(
    name: .long, help: "low, normal (default) or critical: the same as --level passive, active, critical.")
  var urgency: String?

  @Option(
    name: .long,
    help: "passive (no sound), active (default), time-sensitive or critical (shown during quiet hours).")
  var level: String?

  @Option(
    name: .long, help: "A conversation or topic [A-Za-z0-9._:-]{1,128}; its notifications show as one bubble."
  )
  var thread: String?

  @Option(
    name: .customLong("thread-summary"),
    help: "The count line of the thread's bubble, %u the count (default \"%u new\").")
  var threadSummary: String?

  @Option(
    name: .long,
    help: "A PNG, JPEG, GIF or WebP image of at most 10 MiB, checked and copied now (repeatable, at most 10)."
  )
  var attach: [String] = []

  @OptionGroup(title: "Actions") var actionOptions: ActionOptions

  @Option(
    name: .long,
    help:
      "A category the app registered (notify category set): its buttons, as they are at delivery, when none are given here."
  )
  var category: String?

  // Unconditional, as every duration flag is: `-5m` is a bad duration (65).
  @Option(
    name: .customLong("realert-every"), parsing: .unconditional,
    help: ArgumentHelp(
      "An alarm: alert again after DURATION (1m to 1d) until clicked, dismissed or an action is picked.",
      valueName: "duration"))
  var realertEvery: String?

  @Option(
    name: .customLong("realert-times"), parsing: .unconditional,
    help: ArgumentHelp(
      "How many times an alarm alerts again at most, 1 to 10 (default 3).", valueName: "count"))
  var realertTimes: String?

  /// The draft of the notification the flags describe, for the one codec (`RequestCodec`)
  /// to read and check as it reads D-Bus keys and the library's content.
  func draft(app: String, schedule: Schedule) throws(NotifyError) -> NotificationDraft {
    if body != nil, bodyArgument != nil {
      throw NotifyError(.usage, "the body was given twice (--body and the argument)", fix: "give it once")
    }
    var draft = NotificationDraft(id: id, app: app, schedule: schedule)
    draft.title = title
    draft.subtitle = subtitle
    draft.body = body ?? bodyArgument
    draft.bodyMarkup = markup
    draft.action = action
    draft.launchImage = launchImage
    draft.sound = SoundName(sound ?? "none")
    draft.badge = badge.map { .text($0) }
    draft.userInfo = userInfo.map { .text($0) }
    draft.urgency = urgency.map { .text($0) }
    draft.interruptionLevel = level.map { .text($0) }
    draft.threadIdentifier = thread
    draft.threadSummary = threadSummary
    draft.actions = try actionOptions.actions()
    draft.categoryIdentifier = category
    draft.realertEvery = try realertEvery.map { text throws(NotifyError) in
      Int(try TimeParser.duration(text, field: .realertEvery))
    }
    draft.realertTimes = realertTimes.map { .text($0) }
    draft.attachmentCount = attach.count
    return draft
  }

  /// The notification the flags describe, read and checked once (`RequestCodec`).
  func notification(app: String, schedule: Schedule, now: Date) throws(NotifyError) -> CheckedNotification {
    try RequestCodec.notification(try draft(app: app, schedule: schedule), now: now)
  }

  /// The files `--attach` names, to be checked and kept when the notification is stored.
  var attachmentSources: [AttachmentSource] { attach.map { AttachmentSource(file: $0) } }
}
