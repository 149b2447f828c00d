import ArgumentParser
import Foundation
import Notify

/// `notify history`: events newest first.
struct HistoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "history", _superCommandName: "notify",
    abstract:
      "Show what happened: delivered, discarded, cancelled, missed, failed, activated, dismissed, held.")

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  @Option(name: .long, help: "At most N events (default 50).")
  var limit: Int = 50

  @Flag(name: .customLong("all-apps"), help: "Every app's history.")
  var allApps = false

  func validate() throws {
    if limit < 1 { throw ValidationError("--limit must be at least 1") }
  }

  func run() throws {
    let app = allApps ? nil : try appOption.resolve()
    let events = try store.open().history(app: app, limit: limit)
    if json {
      Output.line(Output.jsonArray(events.map(\.jsonRecord)))
      return
    }
    let zone = SystemClock().localZone
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
  }
}
