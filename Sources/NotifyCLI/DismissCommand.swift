import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify dismiss`: takes delivered notifications of the app off the screen.
struct DismissCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dismiss", _superCommandName: "notify",
    abstract: "Take delivered notifications of the app off the screen.",
    discussion: """
      Closes the bubbles (CloseNotification) whichever process showed them, and records each \
      as dismissed (dismissed-by-app). Exit 1 when an id was not on screen (the others are \
      still dismissed), 69 when no notification server answers.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .long, help: "Dismiss every delivered notification of the app still on screen.")
  var all = false

  @Option(name: .long, help: "Dismiss the app's notifications of this thread still on screen (its bubble).")
  var thread: String?

  @Argument(help: "Ids to dismiss.")
  var ids: [String] = []

  func validate() throws {
    if [all, !ids.isEmpty, thread != nil].filter({ $0 }).count != 1 {
      throw ValidationError("give the ids to dismiss, --all or --thread (one of them)")
    }
  }

  func run() throws {
    let app = try appOption.resolve()
    for id in ids { try Validator.id(id) }
    let center = try store.center(app: app)
    if let thread {
      try Validator.threadIdentifier(thread)
      let dismissed = try center.ownStore.removeDelivered(thread: thread)
      Output.error(
        "dismissed \(dismissed.count) notification\(dismissed.count == 1 ? "" : "s") of thread '\(thread)' of app '\(app)'"
      )
      return
    }
    if all {
      let dismissed = try center.ownStore.removeAllDelivered()
      Output.error(
        "dismissed \(dismissed.count) notification\(dismissed.count == 1 ? "" : "s") of app '\(app)'")
      return
    }
    let missing = try center.ownStore.removeDelivered(ids)
    for id in missing {
      Output.error("not dismissed: '\(id)' of app '\(app)' is not on screen (see notify history)")
    }
    if !missing.isEmpty { throw ExitCode(1) }
  }
}
