import ArgumentParser
import Foundation
import Notify

/// `notify badge [N | clear]`: shows or sets the app badge.
struct BadgeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "badge", abstract: "Show the app's badge, or set it (N or clear).")

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Argument(help: "A number 0...99999, or clear.")
  var value: String?

  func run() throws {
    let app = try appOption.resolve()
    let store = try store.open()
    guard let value else {
      Output.line(String(try store.badge(app: app) ?? 0))
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
    try store.setBadge(app: app, count: count, at: SystemClock().now())
  }
}
