import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify badge [N | clear]`: shows or sets the app badge.
struct BadgeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "badge", _superCommandName: "notify",
    abstract: "Show the app's badge, or set it (N or clear).")

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  // Captures what the parser does not recognize, so that `badge -1` reaches the range
  // check (65) instead of being taken for an unknown option (64).
  @Argument(
    parsing: .allUnrecognized, help: ArgumentHelp("A number 0...99999, or clear.", valueName: "N|clear"))
  var values: [String] = []

  func validate() throws {
    if values.count > 1 {
      throw ValidationError(
        "extra value '\(Escaper.visible(values[1], limit: 40))': give one number 0...99999, or clear")
    }
    if let value = values.first, value.hasPrefix("-"), Int(value) == nil {
      throw ValidationError("unknown option '\(Escaper.visible(value, limit: 40))': see notify badge --help")
    }
  }

  func run() throws {
    let app = try appOption.resolve()
    let center = try store.center(app: app)
    guard let value = values.first else {
      Output.line(String(try center.ownStore.badge()))
      return
    }
    let count: Int
    if value == "clear" {
      count = 0
    } else if let number = Int(value) {
      count = number
    } else {
      throw NotifyError(
        .invalidData, "badge '\(Escaper.visible(value, limit: 40))' is not a number",
        fix: "use a number from 0 to 99999, or clear")
    }
    try center.ownStore.setBadge(count)
  }
}
