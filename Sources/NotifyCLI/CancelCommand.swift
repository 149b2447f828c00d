import ArgumentParser
import Foundation
import Notify

/// `notify cancel`: removes pending notifications of the app.
struct CancelCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cancel", _superCommandName: "notify", abstract: "Cancel pending notifications of the app.")

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .long, help: "Cancel every pending notification of the app.")
  var all = false

  @Argument(help: "Ids to cancel.")
  var ids: [String] = []

  func validate() throws {
    if all == !ids.isEmpty {
      throw ValidationError("give the ids to cancel, or --all (not both)")
    }
  }

  func run() throws {
    let app = try appOption.resolve()
    for id in ids { try Validator.id(id) }
    let center = try store.center(app: app)
    if all {
      let cancelled = try center.cancelAll()
      Output.error(
        "cancelled \(cancelled.count) notification\(cancelled.count == 1 ? "" : "s") of app '\(app)'")
      return
    }
    let missing = try center.cancel(ids)
    for id in missing {
      Output.error("not cancelled: '\(id)' is not pending in app '\(app)' (see notify list)")
    }
    if !missing.isEmpty { throw ExitCode(1) }
  }
}
