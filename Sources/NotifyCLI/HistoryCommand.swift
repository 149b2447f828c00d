import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify history`: events newest first.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", _superCommandName: "notify",
    abstract:
      "Show what happened: delivered, discarded, cancelled, missed, failed, activated, dismissed, held, snoozed.",
    discussion: """
      History keeps at most 10000 events and none older than 90 days (every app together); \
      set other bounds with --keep-entries and --keep-days. Pruning happens as history is \
      written; the listing ends with a line saying how many older events were pruned.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  @Option(name: .long, help: "At most N events (default 50).")
  var limit: Int = 50

  @Flag(name: .customLong("all-apps"), help: "Every app's history.")
  var allApps = false

  @Option(name: .long, help: "Only the events of the notifications of this thread.")
  var thread: String?

  @Option(
    name: .customLong("keep-entries"), parsing: .unconditional,
    help: "Set the retention: keep at most N events (100 to 10000000; default 10000).")
  var keepEntries: String?

  @Option(
    name: .customLong("keep-days"), parsing: .unconditional,
    help: "Set the retention: keep no event older than N days (1 to 36525; default 90).")
  var keepDays: String?

  func validate() throws {
    if limit < 1 { throw ValidationError("--limit must be at least 1") }
  }

  func run() throws {
    if keepEntries != nil || keepDays != nil {
      try setRetention()
      return
    }
    let app = allApps ? nil : try appOption.resolve()
    let opened = try store.open()
    if let thread { try Validator.threadIdentifier(thread) }
    let events = try opened.history(app: app, limit: limit, thread: thread)
    if json {
      Output.line(Output.jsonArray(events.map(\.jsonRecord)))
      return
    }
    let zone = SystemClock().zones.local
    for event in events {
      var parts = [Output.localTime(event.at, zone: zone), event.kind.rawValue]
      if allApps { parts.append(Output.safe(event.app)) }
      parts.append(Output.safe(event.notificationID))
      if let reason = event.reason { parts.append("(\(Output.safe(reason)))") }
      if event.late == true { parts.append("late") }
      if let note = event.soundNote { parts.append("sound: \(Output.safe(note))") }
      if case .array(let kinds)? = event.detail["suppressed"] {
        let names = kinds.compactMap { kind -> String? in
          if case .string(let name) = kind { return Output.safe(name) }
          return nil
        }
        parts.append("suppressed by your settings: \(names.joined(separator: ", "))")
      }
      if case .string(let how)? = event.detail["opened"] { parts.append("opened: \(Output.safe(how))") }
      if case .string(let why)? = event.detail["notOpened"] {
        parts.append("not opened: \(Output.safe(why))")
      }
      Output.line(parts.joined(separator: "  "))
    }
    let pruned = try opened.historyPruning()
    if pruned.count > 0 {
      let retention = try opened.historyRetention()
      let newest = pruned.newest.map { ", the newest from \(Output.localTime($0, zone: zone))" } ?? ""
      Output.line(
        "(\(pruned.count) older events pruned by the retention of \(retention.entries) events and \(retention.days) days\(newest); change it with --keep-entries and --keep-days)"
      )
    }
  }

  /// `--keep-entries` / `--keep-days`: sets the retention (the other bound stays) and prunes.
  private func setRetention() throws {
    func number(_ text: String?, _ flag: String, _ range: ClosedRange<Int>) throws(NotifyError) -> Int? {
      guard let text else { return nil }
      guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
        throw NotifyError(
          .invalidData,
          "\(flag) '\(Escaper.visible(text, limit: 40))' is not a number from \(range.lowerBound) to \(range.upperBound)",
          fix: "give a whole number in that range")
      }
      return value
    }
    let entries = try number(keepEntries, "--keep-entries", HistoryRetention.entriesRange)
    let days = try number(keepDays, "--keep-days", HistoryRetention.daysRange)
    let opened = try store.open()
    var retention = try opened.historyRetention()
    if let entries { retention.entries = entries }
    if let days { retention.days = days }
    try opened.setHistoryRetention(retention, at: Date())
    Output.line("history keeps at most \(retention.entries) events, none older than \(retention.days) days")
  }
}
