import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound

/// The requests the client sends: one notification as the `a{sv}` the service's decoder
/// takes (`SchedulerInterface.Keys`, docs/dbus.md, "Request keys"), its schedule as the trigger
/// keys, its files as descriptors.
extension SchedulerClient {
  /// The open files of one request: the attachments' descriptors, then the sound file's
  /// (when the sound is a file of the app's sound folder here, which the host cannot see).
  struct Files {
    var attachments: [Int32] = []
    var sound: Int32?
    var all: [Int32] { attachments + (sound.map { [$0] } ?? []) }
  }

  /// Opens `attachments` and, for a sound file the app's folders hold, the sound file.
  static func openFiles(_ attachments: [AttachmentSource], sound: SoundName, app: String)
    throws(NotificationError) -> Files
  {
    var files = Files()
    do throws(NotificationError) {
      for (index, source) in attachments.enumerated() {
        let fd = source.descriptor.map { dup($0) } ?? open(source.file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
          throw NotificationError(
            NotifyError(
              .inputMissing(path: source.file),
              "the attachment \(index + 1) (\(Escaper.visible(source.file))) cannot be opened: \(String(cString: strerror(errno)))"
            ))
        }
        files.attachments.append(fd)
      }
      if case .file(let name) = sound, let path = try? SoundLibrary(app: app).locate(name) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 { files.sound = fd }
      }
    } catch {
      for fd in files.all { close(fd) }
      throw error
    }
    return files
  }

  /// `notification` as a request's `a{sv}`: its content, its files, and with `trigger`
  /// its schedule (an instant as `at` in ms, a wall clock as its text with `timeZone`
  /// unless it follows the system zone, the repeat unit or rule, the end).
  static func request(_ notification: LocalNotification, files: Files, trigger: Bool) -> BusValue {
    let n = notification
    var entries: [(String, BusValue)] = [("id", .string(n.id))]
    func add(_ key: String, _ value: String?) {
      if let value { entries.append((key, .string(value))) }
    }
    add("title", n.title)
    add("subtitle", n.subtitle)
    add("body", n.body)
    if n.bodyMarkup { entries.append(("bodyMarkup", .bool(true))) }
    add("action", n.action)
    add("launchImage", n.launchImage)
    if n.sound != .none { add("sound", n.sound.name) }
    if let badge = n.badge { entries.append(("badge", .int64(Int64(badge)))) }
    if !n.userInfo.isEmpty, let userInfo = BusValue(json: .object(n.userInfo)) {
      entries.append(("userInfo", userInfo))
    }
    entries.append(("interruptionLevel", .string(n.interruptionLevel.rawValue)))
    if !n.actions.isEmpty {
      entries.append(
        ("actions", .array(element: "a{sv}", n.actions.compactMap { BusValue(json: $0.jsonValue) })))
    }
    add("category", n.categoryIdentifier)
    add("threadIdentifier", n.threadIdentifier)
    add("threadSummary", n.threadSummary)
    if let realert = n.realert {
      entries.append(("realertEvery", .int64(Int64(realert.every))))
      entries.append(("realertTimes", .int64(Int64(realert.times))))
    }
    if !files.attachments.isEmpty {
      entries.append(("attachments", .array(element: "h", files.attachments.map(BusValue.unixFD))))
    }
    if let sound = files.sound { entries.append(("soundFile", .unixFD(sound))) }
    if trigger {
      entries += Self.trigger(n.schedule)
      if n.wake { entries.append(("wake", .bool(true))) }
      if let limit = n.expireLate { entries.append(("expireLate", .int64(Int64(limit.rounded())))) }
    }
    return .vardict(entries)
  }

  /// The trigger keys of `schedule`.
  static func trigger(_ schedule: Schedule) -> [(String, BusValue)] {
    var entries: [(String, BusValue)] = []
    switch schedule.fireDate {
    case .instant(let date):
      entries.append(("at", .int64(RFC3339.millisecondsSince1970(date))))
    case .wallClock(let wall, let zone):
      entries.append(("at", .string(wall.iso8601)))
      if case .named(let name) = zone { entries.append(("timeZone", .string(name))) }
    }
    if let rule = schedule.rule {
      // The rule carries its end (COUNT, UNTIL); its exclusions go as `except`.
      entries.append(("rrule", .string(rule.ruleText)))
      if !rule.exclusions.isEmpty { entries.append(("except", .strings(rule.exclusions.map(\.isoText)))) }
      return entries
    }
    if let unit = schedule.repeatInterval { entries.append(("repeat", .string(unit.rawValue))) }
    if let count = schedule.repeatCount { entries.append(("repeatCount", .int64(Int64(count)))) }
    if let until = schedule.until { entries.append(("until", .int64(RFC3339.millisecondsSince1970(until)))) }
    return entries
  }
}
