import ArgumentParser
import Foundation
import NotifyCore
import NotifyStore

/// `notify category set/list/remove`: the buttons an app registers once under a name
/// (`UNNotificationCategory`), which `notify schedule --category` names.
struct CategoryCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "category", _superCommandName: "notify",
    abstract: "Register, list and remove an app's categories: named sets of buttons.",
    discussion: """
      A notification scheduled with --category ID and no buttons of its own is shown with \
      the category's buttons as they are when it is delivered: changing a category changes \
      the deliveries after the change, not the bubbles already shown. A category the app has \
      not registered at delivery is shown without buttons (history says why).
      Examples:
        notify category set --app chat message --text-button reply:Reply
        notify schedule --app chat --in 5m --category message "lunch?"
        notify category list --app chat --json
        notify category remove --app chat message
      """,
    subcommands: [SetCategory.self, ListCategories.self, RemoveCategory.self])

  /// `notify category set ID --button ...`.
  struct SetCategory: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract: "Register a category, or replace the one with its identifier.",
      discussion: """
        The action flags are those of notify schedule, with the same rules (at most 4 actions, \
        exit 65 and the store untouched otherwise). Prints the category as list does.
        """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var appOption: AppOption

    @Argument(help: "The category's identifier, [A-Za-z0-9._:-]{1,64}.")
    var identifier: String

    @OptionGroup(title: "Actions") var actionOptions: ActionOptions

    @Flag(name: .long, help: "Print the category as JSON.")
    var json = false

    func run() throws {
      let app = try appOption.resolve()
      try Validator.categoryIdentifier(identifier)
      let category = NotificationCategory(identifier: identifier, actions: try actionOptions.actions())
      try store.open().setCategory(category, app: app)
      Output.line(json ? category.jsonRecord.compactText : CategoryCommand.line(category))
    }
  }

  /// `notify category list [--json]`.
  struct ListCategories: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the app's categories, by identifier.",
      discussion: "Each line is the identifier and its buttons, written as the flags that make them.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var appOption: AppOption

    @Flag(name: .long, help: "Print a JSON array of {\"identifier\", \"actions\"}.")
    var json = false

    func run() throws {
      let app = try appOption.resolve()
      let categories = try store.open().categories(app: app)
      if json {
        Output.line(Output.jsonArray(categories.map(\.jsonRecord)))
        return
      }
      guard !categories.isEmpty else {
        Output.error("app '\(app)' has no categories (notify category set)")
        return
      }
      for category in categories { Output.line(CategoryCommand.line(category)) }
    }
  }

  /// `notify category remove ID`: exit 1 when the app has none by that name.
  struct RemoveCategory: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove a category.",
      discussion: """
        Notifications that name it are shown without buttons from then on. Exits 1 when the \
        app has no category by that identifier.
        """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var appOption: AppOption

    @Argument(help: "The category's identifier.")
    var identifier: String

    func run() throws {
      let app = try appOption.resolve()
      guard try store.open().removeCategory(identifier, app: app) else {
        Output.error("not removed: app '\(app)' has no category '\(identifier)' (see notify category list)")
        throw ExitCode(1)
      }
    }
  }

  /// `message  --text-button reply:Reply --button mark-read:"Mark read"`: the identifier and
  /// the flags that make its buttons, escaped for the terminal.
  static func line(_ category: NotificationCategory) -> String {
    var words: [String] = []
    for action in category.actions {
      let label =
        action.title.contains(where: { $0 == " " || $0 == "\"" || $0 == "'" })
        ? "\"" + action.title.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : action.title
      switch action.kind {
      case .button:
        let options = (action.opensApp ? ["open"] : []) + (action.destructive ? ["destructive"] : [])
        words.append(
          "--button \(action.key):\(label)" + (options.isEmpty ? "" : ":" + options.joined(separator: ",")))
      case .textInput(let placeholder, let buttonTitle):
        words.append("--text-button \(action.key):\(label)" + (action.opensApp ? ":open" : ""))
        if let placeholder { words.append("--placeholder \"\(placeholder)\"") }
        if let buttonTitle { words.append("--send-label \"\(buttonTitle)\"") }
      case .snooze(let seconds):
        words.append("--snooze \(seconds)s")
      }
    }
    if category.actions.isEmpty { words.append("(no buttons)") }
    return Output.safe(category.identifier + "  " + words.joined(separator: " "))
  }
}
