import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify launch-response`: the click that launched the app, for apps written in shell.
struct LaunchResponseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "launch-response", _superCommandName: "notify",
    abstract: "Print (and take) the click that launched the app, as JSON.",
    discussion: """
      When the user clicks a notification of an app that is not running, notify opens the app \
      from its desktop entry and leaves the response in the store. The launched app reads it \
      once with this command: one JSON object (actionKey, activationToken, at, occurrence and \
      the notification's fields). Exit 1 when no response waits for the app.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  func run() throws {
    let app = try appOption.resolve()
    guard let response = try store.center(app: app).ownStore.takeLaunchResponse() else {
      Output.error(
        "no launch response waits for app '\(app)' (it was not launched by a click, or it was read)")
      throw ExitCode(1)
    }
    Output.line(response.jsonRecord.compactText)
  }
}
