import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify cancel`: removes pending notifications of the app, and what quiet hours hold.
struct CancelCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cancel", _superCommandName: "notify",
    abstract: "Cancel pending notifications of the app, and those quiet hours hold.",
    discussion: """
      A notification quiet hours hold (notify list marks it "held for quiet hours") is \
      cancelled too: it is not shown when quiet ends. Each cancel is recorded in history \
      as cancelled (a held one with reason quiet-hours). Exit 1 when an id is neither \
      pending nor held (the others are cancelled anyway).
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .long, help: "Cancel every pending and held notification of the app.")
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
    // The store's own API: the rows go and are synced; what they carried is swept.
    let opened = try store.open()
    let now = SystemClock().now()
    if all {
      let cancelled = try opened.cancelAll(app: app, at: now)
      opened.sweepAttachments()
      Output.error(
        "cancelled \(cancelled.count) notification\(cancelled.count == 1 ? "" : "s") of app '\(app)'")
      return
    }
    let missing = try opened.cancel(app: app, ids: ids, at: now)
    opened.sweepAttachments()
    for id in missing {
      Output.error(
        "not cancelled: '\(id)' is not pending in app '\(app)', nor held for quiet hours (see notify list)")
    }
    if !missing.isEmpty { throw ExitCode(1) }
  }
}
