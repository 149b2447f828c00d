import Foundation
import NotifyCore
import NotifyDesktop

/// Turns one request's `a{sv}` into a checked notification: the keys mirror `notify
/// schedule`'s flags and the JSON of `notify list --json` (docs/dbus.md). This reads the
/// D-Bus types only; the schedule comes from the CLI's own `ScheduleSpec` and the content
/// from the one codec (`RequestCodec`) the CLI and the library go through, so a
/// notification scheduled over the bus is one the CLI could have stored, refused in the
/// same words. Pure: `now` and the zones come in. An unknown key or a value of the wrong
/// type is refused, naming the key.
struct RequestDecoder {
  var app: String
  var now: Date
  var zones: Zones

  /// The keys of the content.
  static let contentKeys = SchedulerInterface.Keys.content

  /// One decoded request: the notification, and the files to attach to it (`attachments`,
  /// open descriptors the call carries), kept when it is stored.
  struct Request {
    var checked: CheckedNotification
    /// The notification, checked.
    var notification: LocalNotification { checked.notification }
    var attachments: [AttachmentSource] = []
    /// An open sound file (`soundFile`, `h`) to install into the app's sound folder as the
    /// request's `sound` before it is stored.
    var soundFile: Int32?
  }
  /// The keys of the trigger (Schedule only).
  static let triggerKeys = SchedulerInterface.Keys.trigger
  /// The keys of one category of `SetCategories`.
  static let categoryKeys = SchedulerInterface.Keys.category
  /// The keys of one action in `actions`.
  static let actionKeys = SchedulerInterface.Keys.action

  /// How the trigger's fields are named in the rules' messages.
  static let names = ScheduleSpec.Names(
    at: "'at'", after: "'in'", timeZone: "'timeZone'", repeatUnit: "'repeat'", rrule: "'rrule'",
    every: "'every'", on: "'on'", except: "'except'", repeatCount: "'repeatCount'", until: "'until'",
    missingFireDate:
      "give 'at' (x: milliseconds since 1970-01-01 UTC, or s: the text of notify schedule --at) or 'in'")

  /// A request of `Schedule`: content and trigger.
  func scheduled(_ entries: [(key: String, value: BusValue)]) throws(SchedulerError) -> Request {
    let fields = try Fields(entries, allowed: Self.contentKeys.union(Self.triggerKeys))
    let schedule = try trigger(fields)
    let attachments = try attachments(fields)
    return Request(
      checked: try notification(fields, schedule: schedule, attachments: attachments.count),
      attachments: attachments, soundFile: try soundFile(fields))
  }

  /// The content of `Present`: due now, no trigger keys.
  func presented(_ entries: [(key: String, value: BusValue)]) throws(SchedulerError) -> Request {
    if let key = entries.first(where: { Self.triggerKeys.contains($0.key) })?.key {
      throw .invalidArgs(
        "'\(key)' is a trigger key: Present shows the notification now; use Schedule for later")
    }
    let fields = try Fields(entries, allowed: Self.contentKeys)
    let attachments = try attachments(fields)
    return Request(
      checked: try notification(
        fields, schedule: Schedule(fireDate: .instant(now)), attachments: attachments.count),
      attachments: attachments, soundFile: try soundFile(fields))
  }

  /// The descriptor of `soundFile` (`h`), which needs `sound`: the file name it is
  /// installed as (a sandboxed caller's sounds live in its sandbox, where notify looks not).
  private func soundFile(_ fields: Fields) throws(SchedulerError) -> Int32? {
    guard let value = fields["soundFile"] else { return nil }
    guard case .unixFD(let fd) = value else { throw Fields.wrongType("soundFile", value, "h") }
    guard let name = try fields.string("sound"), !["none", "default"].contains(name) else {
      throw .invalidArgs(
        "'soundFile' needs 'sound': the file name to install it as in the app's sound folder (ping.wav)")
    }
    return fd
  }

  /// The descriptors of `attachments` (`ah`): files, never paths, so that a sandboxed
  /// caller can attach what it may read and notify reads nothing else of its.
  private func attachments(_ fields: Fields) throws(SchedulerError) -> [AttachmentSource] {
    guard let value = fields["attachments"] else { return [] }
    guard case .array("h", let items) = value else { throw Fields.wrongType("attachments", value, "ah") }
    return items.enumerated().compactMap { index, item in
      guard case .unixFD(let fd) = item else { return nil }
      return AttachmentSource(descriptor: fd, name: "attachment \(index + 1)")
    }
  }

  private func trigger(_ fields: Fields) throws(SchedulerError) -> Schedule {
    var spec = ScheduleSpec()
    spec.names = Self.names
    spec.at = try fields.instantText("at")
    if let seconds = try fields.integer("in", textAllowed: true) {
      spec.after = "\(seconds)s"
    } else {
      spec.after = try fields.string("in")
    }
    spec.timeZone = try fields.string("timeZone")
    spec.repeatUnit = try fields.string("repeat")
    spec.rrule = try fields.string("rrule")
    spec.every = try fields.string("every")
    spec.on = try fields.string("on")
    spec.except = try fields.strings("except") ?? []
    if let count = try fields.integer("repeatCount", textAllowed: true) {
      spec.repeatCount = String(count)
    } else {
      spec.repeatCount = try fields.string("repeatCount")
    }
    spec.until = try fields.instantText("until")
    do {
      return try spec.schedule(now: now, zones: zones)
    } catch {
      throw SchedulerError.from(error, invalid: SchedulerError.invalidTrigger)
    }
  }

  /// The content keys as a draft for the one codec (`RequestCodec`), which reads and
  /// checks it as it reads the command's flags.
  private func notification(_ fields: Fields, schedule: Schedule, attachments: Int) throws(SchedulerError)
    -> CheckedNotification
  {
    var draft = NotificationDraft(id: try fields.string("id"), app: app, schedule: schedule)
    if let value = try fields.integer("badge") {
      guard let number = Int(exactly: value) else { throw .invalidArgs("'badge' \(value) is out of range") }
      draft.badge = .value(number)
    }
    draft.urgency = try fields.string("urgency").map { .text($0) }
    draft.interruptionLevel = try fields.string("interruptionLevel").map { .text($0) }
    if let value = fields["userInfo"] {
      guard case .array(let element, _) = value, element.hasPrefix("{s"),
        case .object(let members)? = value.json
      else {
        throw .invalidArgs(
          "'userInfo' must be an a{sv} of strings, booleans, integers, doubles, arrays and nested a{sv}")
      }
      // As text, read as `--user-info` is: one parser, one bound.
      draft.userInfo = .text(JSONValue.object(members).compactText)
    }
    draft.realertEvery = try fields.integer("realertEvery").map { Int(clamping: $0) }
    draft.realertTimes = try fields.integer("realertTimes").map { .value(Int(clamping: $0)) }
    // How late is too late: seconds, or a duration's text (`30m`), as `in` takes it.
    if let seconds = try fields.integer("expireLate", textAllowed: true) {
      draft.expireLate = TimeInterval(seconds)
    } else if let text = try fields.string("expireLate") {
      do {
        draft.expireLate = try TimeParser.duration(text, field: .expireLate)
      } catch {
        throw .invalidArgs(error.rendered { $0 == .expireLate ? "'expireLate'" : $0.apiName })
      }
    }
    draft.title = try fields.string("title")
    draft.body = try fields.string("body")
    draft.action = try fields.string("action")
    draft.launchImage = try fields.string("launchImage")
    draft.sound = SoundName(try fields.string("sound") ?? "none")
    draft.actions = try actions(fields["actions"])
    draft.subtitle = try fields.string("subtitle")
    draft.threadIdentifier = try fields.string("threadIdentifier")
    draft.threadSummary = try fields.string("threadSummary")
    draft.bodyMarkup = try fields.bool("bodyMarkup") ?? false
    draft.categoryIdentifier = try fields.string("category")
    draft.wake = try fields.bool("wake") ?? false
    draft.attachmentCount = attachments
    do {
      return try RequestCodec.notification(draft, now: now)
    } catch {
      throw SchedulerError.from(error)
    }
  }

  /// The categories of `SetCategories` (`aa{sv}`: `identifier` s, `actions` as a request's),
  /// checked as `notify category set` checks them, all before any is stored.
  func categories(_ value: BusValue?) throws(SchedulerError) -> [NotificationCategory] {
    guard case .array("a{sv}", let items)? = value else {
      throw .invalidArgs("SetCategories takes aa{sv}, one a{sv} per category")
    }
    var categories: [NotificationCategory] = []
    for item in items {
      let fields = try Fields(item.vardictEntries ?? [], allowed: Self.categoryKeys, within: "a category")
      guard let identifier = try fields.string("identifier") else {
        throw .invalidArgs("a category needs 'identifier' (s)")
      }
      categories.append(NotificationCategory(identifier: identifier, actions: try actions(fields["actions"])))
    }
    do {
      try Validator.categories(categories)
    } catch {
      throw SchedulerError.from(error)
    }
    return categories
  }

  private func actions(_ value: BusValue?) throws(SchedulerError) -> [NotificationAction] {
    guard let value else { return [] }
    guard case .array("a{sv}", let items) = value else {
      throw .invalidArgs("'actions' must be an aa{sv}, one a{sv} per action")
    }
    var actions: [NotificationAction] = []
    for item in items {
      let fields = try Fields(item.vardictEntries ?? [], allowed: Self.actionKeys, within: "an action")
      let kind = try fields.string("kind") ?? "button"
      if kind == "snooze" {
        guard let seconds = try fields.integer("seconds"), seconds > 0, seconds <= 366 * 86_400 else {
          throw .invalidArgs("a snooze action needs 'seconds', from 1 to a year")
        }
        actions.append(.snooze(seconds: Int(seconds)))
        continue
      }
      guard let key = try fields.string("key"), let title = try fields.string("title") else {
        throw .invalidArgs("an action needs 'key' and 'title' (s)")
      }
      let opensApp = try fields.bool("opensApp") ?? false
      switch kind {
      case "button":
        actions.append(
          .button(
            key: key, title: title, opensApp: opensApp, destructive: try fields.bool("destructive") ?? false))
      case "text-input":
        actions.append(
          .textInput(
            key: key, title: title, placeholder: try fields.string("placeholder"),
            buttonTitle: try fields.string("buttonTitle"), opensApp: opensApp))
      default:
        throw .invalidArgs(
          "unknown action kind '\(Escaper.visible(kind, limit: 40))': use button, text-input or snooze")
      }
    }
    return actions
  }
}

/// The entries of one `a{sv}`, read by type; a key given twice, a key not `allowed` and a
/// value of another type are refused, naming the key.
struct Fields {
  private var values: [String: BusValue] = [:]

  init(_ entries: [(key: String, value: BusValue)], allowed: Set<String>, within place: String = "a request")
    throws(SchedulerError)
  {
    for (key, value) in entries {
      guard allowed.contains(key) else {
        throw .invalidArgs(
          "unknown key '\(Escaper.visible(key, limit: 40))' in \(place): the keys are \(allowed.sorted().joined(separator: ", "))"
        )
      }
      guard values.updateValue(value, forKey: key) == nil else {
        throw .invalidArgs("the key '\(Escaper.visible(key, limit: 40))' is given twice in \(place)")
      }
    }
  }

  subscript(key: String) -> BusValue? { values[key] }

  func string(_ key: String) throws(SchedulerError) -> String? {
    guard let value = values[key] else { return nil }
    guard case .string(let text) = value else { throw Self.wrongType(key, value, "s") }
    return text
  }

  func strings(_ key: String) throws(SchedulerError) -> [String]? {
    guard let value = values[key] else { return nil }
    guard case .array("s", let items) = value else { throw Self.wrongType(key, value, "as") }
    return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
  }

  func bool(_ key: String) throws(SchedulerError) -> Bool? {
    guard let value = values[key] else { return nil }
    guard case .bool(let flag) = value else { throw Self.wrongType(key, value, "b") }
    return flag
  }

  /// An integer of any D-Bus integer type; nil when absent, or when it is a string and
  /// `textAllowed` (the caller reads it as text then).
  func integer(_ key: String, textAllowed: Bool = false) throws(SchedulerError) -> Int64? {
    guard let value = values[key] else { return nil }
    switch value {
    case .byte(let v): return Int64(v)
    case .int32(let v): return Int64(v)
    case .uint32(let v): return Int64(v)
    case .int64(let v): return v
    case .uint64(let v) where v <= UInt64(Int64.max): return Int64(v)
    case .string where textAllowed: return nil
    default: throw Self.wrongType(key, value, textAllowed ? "an integer or s" : "an integer (u, i or x)")
    }
  }

  /// An instant as the CLI's text: `x` milliseconds since the epoch become RFC 3339 UTC
  /// with milliseconds; `s` is the text of `notify schedule --at` as is.
  func instantText(_ key: String) throws(SchedulerError) -> String? {
    guard let value = values[key] else { return nil }
    if case .string(let text) = value { return text }
    guard let milliseconds = try integer(key, textAllowed: true),
      abs(milliseconds) < 253_402_300_800_000  // year 9999
    else { throw .invalidTrigger("'\(key)' is out of range: milliseconds since 1970-01-01 UTC") }
    let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    return RFC3339.string(from: date, milliseconds: true)
  }

  static func wrongType(_ key: String, _ value: BusValue, _ expected: String) -> SchedulerError {
    .invalidArgs("'\(key)' is a '\(value.signature)', not \(expected)")
  }
}
