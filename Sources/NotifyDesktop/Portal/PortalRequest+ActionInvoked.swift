import NotifyCore

extension PortalRequest {
  /// The values of `ActionInvoked`'s `parameter` (`av`), unwrapped.
  static func parameters(_ value: BusValue) -> [BusValue] {
    guard case .array("v", let items) = value else { return [] }
    return items.map { item in
      if case .variant(let inner) = item { return inner }
      return item
    }
  }

  /// The text a version-2 portal reports for a reply button (`purpose`
  /// `im.reply-with-text`): the first string of `parameter` (notify sets no `target`, so a
  /// string there is the user's text).
  static func replyText(_ parameters: [BusValue]) -> String? {
    for value in parameters {
      if case .string(let text) = value { return text }
    }
    return nil
  }

  /// The `activation-token` of the platform data a version-2 portal appends (`a{sv}`).
  static func activationToken(_ parameters: [BusValue]) -> String? {
    for value in parameters {
      guard let entries = value.vardictEntries else { continue }
      for (key, token) in entries where key == "activation-token" {
        if case .string(let text) = token { return text }
      }
    }
    return nil
  }
}
