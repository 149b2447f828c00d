import ArgumentParser
import Foundation
import Notify

/// `notify list`: pending notifications, soonest first.
struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", _superCommandName: "notify", abstract: "List pending notifications, soonest first.")

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  @Flag(name: .customLong("all-apps"), help: "List every app's notifications.")
  var allApps = false

  func run() throws {
    let app = allApps ? nil : try appOption.resolve()
    // Every reader shows the instant that will fire: computed in the zones of now, so a
    // moved system zone or updated zone data shows before a firer has run.
    let zones = SystemClock().zones
    let pending = StoredNotification.current(try store.open().pending(app: app), in: zones)
    if json {
      Output.line(Output.jsonArray(pending.map(\.jsonRecord)))
      return
    }
    let zone = zones.local
    for item in pending {
      Output.line(Self.row(item, zone: zone, showApp: allApps))
    }
  }

  /// One readable line: id, next fire in local time, repeat or snooze, title or body.
  static func row(_ item: StoredNotification, zone: Zone, showApp: Bool) -> String {
    let n = item.notification
    var parts = [Output.localTime(item.nextFireDate, zone: zone)]
    if showApp { parts.append(Output.safe(n.app)) }
    parts.append(Output.safe(n.id))
    if let unit = n.schedule.repeatInterval { parts.append("every \(unit.rawValue)") }
    if let occurrence = item.snoozedOccurrence { parts.append("snoozed (occurrence \(occurrence))") }
    if let rule = n.schedule.rule { parts.append("rule \(Output.safe(rule.ruleText, limit: 80))") }
    let text = [n.title, n.body].compactMap { $0 }.joined(separator: " — ")
    if !text.isEmpty { parts.append(Output.safe(text, limit: 60)) }
    return parts.joined(separator: "  ")
  }
}
