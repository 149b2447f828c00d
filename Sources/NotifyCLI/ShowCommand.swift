import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify show`: one notification, optionally with its next fire instants.
struct ShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", _superCommandName: "notify", abstract: "Show one pending notification.")

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Argument(help: "The notification id.")
  var id: String

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  @Option(name: .long, help: "Also list the next N fire instants.")
  var upcoming: Int?

  func validate() throws {
    if let upcoming, !(1...1000).contains(upcoming) {
      throw ValidationError("--upcoming takes a number from 1 to 1000")
    }
  }

  func run() throws {
    let app = try appOption.resolve()
    try Validator.id(id)
    guard let item = try store.open().notification(app: app, id: id) else {
      throw NotifyError(
        .notFound([id]), "'\(id)' is not pending in app '\(app)'", fix: "see notify list (or notify history)")
    }
    let clock = SystemClock()
    let zones = clock.zones
    // A past-due repeat delivers one coalesced occurrence (the latest past one), then
    // moves on: list from there, as the firer will deliver them.
    let schedule = item.notification.schedule
    let start =
      schedule.latestOccurrence(
        atOrBefore: clock.now(), from: item.nextOccurrence, zones: zones)?
      .index ?? item.nextOccurrence
    let instants = upcoming.map { schedule.upcoming($0, from: start, zones: zones) } ?? []
    // The instant that will fire, in the zones of now, not the one stored for the old zone.
    let shown = item.current(in: zones)
    if json {
      var record = shown.jsonRecord
      if upcoming != nil {
        record.set("upcoming", .array(instants.map { .string(RFC3339.string(from: $0)) }))
      }
      Output.line(record.prettyText())
      return
    }
    let zone = zones.local
    for member in shown.jsonRecord.members {
      let value: String
      switch member.value {
      case .string(let s): value = Output.safe(s)
      case .null: value = "-"
      default: value = Output.safe(member.value.compactText)
      }
      Output.line("\(member.key.padding(toLength: 15, withPad: " ", startingAt: 0)) \(value)")
    }
    if upcoming != nil {
      Output.line("upcoming:")
      for instant in instants {
        Output.line("  \(Output.localTime(instant, zone: zone))  \(RFC3339.string(from: instant))")
      }
    }
  }
}
