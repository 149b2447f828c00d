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

  /// The alarm `--realert-every` and `--realert-times` give, checked.
  func realert() throws(NotifyError) -> Realert? {
    let every = try realertEvery.map { text throws(NotifyError) in
      Int(try TimeParser.duration(text, field: .realertEvery))
    }
    let times = try realertTimes.map { text throws(NotifyError) -> Int in
      guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
        throw NotifyError(
          .invalidData, "--realert-times '\(Escaper.visible(text, limit: 40))' is not a number",
          fix: "use a whole number from 1 to 10")
      }
      return value
    }
    return try Realert.given(every: every, times: times)
  }

  /// Builds the notification with everything but its schedule checked.
  func notification(app: String, schedule: Schedule, now: Date) throws(NotifyError) -> LocalNotification {
    if body != nil, bodyArgument != nil {
      throw NotifyError(.usage, "the body was given twice (--body and the argument)", fix: "give it once")
    }
    let id = self.id ?? Self.generateID()
    try Validator.id(id)
    var badgeNumber: Int?
    if let badge {
      guard let value = Int(badge.trimmingCharacters(in: .whitespaces)) else {
        throw NotifyError(
          .invalidData, "--badge '\(Escaper.visible(badge, limit: 40))' is not a number",
          fix: "use a whole number from 0 to 99999")
      }
      try Validator.badge(value)
      badgeNumber = value
    }
    var urgencyValue = Urgency.normal
    if let urgency {
      guard let value = Urgency(rawValue: urgency) else {
        throw NotifyError(
          .invalidData, "unknown urgency '\(Escaper.visible(urgency, limit: 40))'",
          fix: "use low, normal or critical")
      }
      urgencyValue = value
    }
    var levelValue: InterruptionLevel?
    if let level {
      guard let value = InterruptionLevel(text: level) else {
        throw NotifyError(
          .invalidData, "unknown level '\(Escaper.visible(level, limit: 40))'",
          fix: "use passive, active, time-sensitive or critical")
      }
      if urgency != nil, value.urgency != urgencyValue {
        throw NotifyError(
          .usage, "--urgency \(urgencyValue.rawValue) and --level \(level) disagree", fix: "give only --level"
        )
      }
      levelValue = value
    }
    if attach.count > Validator.maxAttachments {
      throw NotifyError(
        .invalidData,
        "\(attach.count) attachments; a notification carries at most \(Validator.maxAttachments)",
        fix: "attach fewer files")
    }
    let n = LocalNotification(
      id: id, app: app, schedule: schedule, title: title, body: body ?? bodyArgument, action: action,
      launchImage: launchImage, sound: SoundName(sound ?? "none"), badge: badgeNumber,
      userInfo: try userInfo.map(Validator.userInfo) ?? [:], urgency: urgencyValue,
      actions: try actionOptions.actions(), subtitle: subtitle, interruptionLevel: levelValue,
      threadIdentifier: thread, threadSummary: threadSummary, bodyMarkup: markup,
      categoryIdentifier: category, realert: try realert(),
      createdAt: now)
    try Validator.notification(n)
    return n
  }

  /// The files `--attach` names, to be checked and kept when the notification is stored.
  var attachmentSources: [AttachmentSource] { attach.map { AttachmentSource(file: $0) } }

  /// A short random id such as `n-3f9c0a12b7d4`.
  static func generateID() -> String {
    var generator = SystemRandomNumberGenerator()
    let value = generator.next() & 0xFFFF_FFFF_FFFF
    let hex = String(value, radix: 16)
    return "n-" + String(repeating: "0", count: 12 - hex.count) + hex
  }
}
