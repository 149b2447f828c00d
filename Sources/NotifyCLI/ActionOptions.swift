import ArgumentParser
import NotifyCore

/// The action flags `schedule` and `now` share: buttons, a reply, snoozes.
struct ActionOptions: ParsableArguments {
  @Option(
    name: .customLong("button"),
    help: ArgumentHelp(
      "A button KEY:LABEL[:open,destructive] (repeatable). 'open' opens the app when it is not running.",
      valueName: "key:label"))
  var buttons: [String] = []

  @Option(
    name: .customLong("text-button"),
    help: ArgumentHelp(
      "A reply action KEY:LABEL[:open]: a reply field where the server has inline reply, else a button that opens the app.",
      valueName: "key:label"))
  var textAction: String?

  @Option(name: .long, help: "The reply field's placeholder text (with --text-button).")
  var placeholder: String?

  @Option(name: .customLong("send-label"), help: "The reply field's send button label (with --text-button).")
  var sendLabel: String?

  // Unconditional, as every duration flag is: `-5m` is a bad duration (65), not a missing
  // value (64).
  @Option(
    name: .long, parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "Add a snooze button: the notification comes back after DURATION (10m, 1h, ...; repeatable).",
      valueName: "duration"))
  var snooze: [String] = []

  /// The actions, in the order shown: buttons, the reply, snoozes.
  func actions() throws(NotifyError) -> [NotificationAction] {
    if textAction == nil, placeholder != nil || sendLabel != nil {
      throw NotifyError(
        .usage, "--placeholder and --send-label belong to a reply action", fix: "add --text-button KEY:LABEL")
    }
    var actions: [NotificationAction] = []
    for spec in buttons {
      let (key, title, options) = try Self.split(spec, field: .action, allowed: ["open", "destructive"])
      actions.append(
        .button(
          key: key, title: title, opensApp: options.contains("open"),
          destructive: options.contains("destructive")))
    }
    if let textAction {
      let (key, title, options) = try Self.split(textAction, field: .textAction, allowed: ["open"])
      actions.append(
        .textInput(
          key: key, title: title, placeholder: placeholder, buttonTitle: sendLabel,
          opensApp: options.contains("open")))
    }
    for text in snooze {
      let seconds = Int(try TimeParser.duration(text, field: .snooze))
      actions.append(.snooze(seconds: seconds))
    }
    return actions
  }

  /// Splits `KEY:LABEL[:OPTIONS]`. The last part counts as options only when each of its
  /// comma-separated words is an allowed option, so a label may contain colons ("Meet at
  /// 10:30").
  static func split(_ spec: String, field: Term, allowed: Set<String>) throws(NotifyError)
    -> (key: String, title: String, options: Set<String>)
  {
    guard let colon = spec.firstIndex(of: ":") else {
      throw NotifyError(
        .invalidData, "\(term: field) '\(Escaper.visible(spec, limit: 60))' has no label",
        fix: "write KEY:LABEL, as in \(term: field) archive:Archive")
    }
    let key = String(spec[..<colon])
    var title = String(spec[spec.index(after: colon)...])
    var options: Set<String> = []
    if let last = title.lastIndex(of: ":") {
      let words = title[title.index(after: last)...].split(separator: ",", omittingEmptySubsequences: false)
        .map(String.init)
      if !words.isEmpty, words.allSatisfy(allowed.contains) {
        options = Set(words)
        title = String(title[..<last])
      }
    }
    return (key, title, options)
  }
}
