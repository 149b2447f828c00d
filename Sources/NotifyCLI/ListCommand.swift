import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify list`: what quiet hours hold, then pending notifications, soonest first.
struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", _superCommandName: "notify",
    abstract: "List pending notifications, soonest first, after those quiet hours hold.",
    discussion: """
      A notification quiet hours hold (it fell due while it was quiet) is listed first, \
      marked "held for quiet hours", at the instant it fell due; it is shown when quiet \
      ends unless it is cancelled first (notify cancel). With --json each object has \
      "state": "held" or "pending"; a held one also has "occurrence" and "heldAt".
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  @Flag(name: .customLong("all-apps"), help: "List every app's notifications.")
  var allApps = false

  @Option(name: .long, help: "Only the notifications of this thread.")
  var thread: String?

  func run() throws {
    let app = allApps ? nil : try appOption.resolve()
    // Every reader shows the instant that will fire: computed in the zones of now, so a
    // moved system zone or updated zone data shows before a firer has run.
    let zones = SystemClock().zones
    let opened = try store.open()
    if let thread { try Validator.threadIdentifier(thread) }
    let items = ListedNotification.list(
      held: try opened.held(app: app),
      pending: StoredNotification.current(try opened.pending(app: app), in: zones)
    ).filter { thread == nil || $0.notification.threadIdentifier == thread }
    if json {
      Output.line(Output.jsonArray(items.map(\.jsonRecord)))
      return
    }
    let zone = zones.local
    for item in items {
      Output.line(Self.row(item, zone: zone, showApp: allApps))
    }
  }

  /// One readable line: the instant in local time (next fire, or when a held one fell due),
  /// id, held or repeat or snooze, title or body.
  static func row(_ item: ListedNotification, zone: Zone, showApp: Bool) -> String {
    let n = item.notification
    var parts = [Output.localTime(item.fireDate, zone: zone)]
    if showApp { parts.append(Output.safe(n.app)) }
    parts.append(Output.safe(n.id))
    switch item {
    case .held(let held):
      if let realert = held.realertCopy, let times = n.realert?.times {
        parts.append(
          "held for quiet hours, re-alert \(realert.number) of \(times) (occurrence \(realert.occurrence))")
      } else {
        parts.append("held for quiet hours" + (held.occurrence > 1 ? " (occurrence \(held.occurrence))" : ""))
      }
    case .pending(let pending):
      if let unit = n.schedule.repeatInterval { parts.append("every \(unit.rawValue)") }
      if let number = pending.realertNumber, let realert = n.realert {
        parts.append("re-alert \(number) of \(realert.times) (occurrence \(pending.snoozedOccurrence ?? 1))")
      } else if let occurrence = pending.snoozedOccurrence {
        parts.append("snoozed (occurrence \(occurrence))")
      } else if let realert = n.realert {
        parts.append("alarm (every \(realert.intervalText), \(realert.times) times)")
      }
      if let rule = n.schedule.rule { parts.append("rule \(Output.safe(rule.ruleText, limit: 80))") }
      if n.wake { parts.append("wakes the machine") }
      if let limit = n.expireLate { parts.append("missed if \(MissedSummary.lateText(limit)) late") }
    }
    let text = [n.title, n.body].compactMap { $0 }.joined(separator: " — ")
    if !text.isEmpty { parts.append(Output.safe(text, limit: 60)) }
    return parts.joined(separator: "  ")
  }
}
