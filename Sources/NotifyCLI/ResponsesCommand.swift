import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify responses`: the actions picked while the app was not running.
struct ResponsesCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "responses", _superCommandName: "notify",
    abstract: "Print (and take) the actions the user picked while the app was not running, as JSON lines.",
    discussion: """
      An action that does not open the app (a button without 'open', a reply typed into the \
      notification), picked while no process of the app runs, waits in the store for the app. \
      This command takes them all: one JSON object per line, oldest first, shaped as \
      `notify launch-response` prints (actionKey, userText, activationToken, at, occurrence and \
      the notification's fields). Nothing is printed when none waits; the exit status is 0.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  func run() throws {
    let app = try appOption.resolve()
    for response in try store.center(app: app).ownStore.takeWaitingResponses() {
      Output.line(response.jsonRecord.compactText)
    }
  }
}
