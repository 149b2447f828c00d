extension NotificationResponse {
  /// The longest reply kept, in characters: a body's limit (`Validator.maxBody`), with
  /// the same bound on bytes (`Validator.bytesPerCharacter` each on average).
  public static let maxReply = Validator.maxBody

  /// A reply as notify keeps it: whole when it is within `maxReply`, else its first
  /// characters (never half a character), with how many characters it had.
  ///
  /// A reply comes from the notification server, after the user pressed send: there is
  /// no one to refuse it to, so it is cut rather than refused, and history says so.
  public static func keptReply(_ text: String) -> (text: String, originalCount: Int?) {
    let byteLimit = maxReply * Validator.bytesPerCharacter
    // Fewer bytes than the limit in characters: within both limits, without counting.
    guard text.utf8.count > maxReply else { return (text, nil) }
    let count = text.count
    guard count > maxReply || text.utf8.count > byteLimit else { return (text, nil) }
    var kept = Substring(text.prefix(maxReply))
    var bytes = kept.utf8.count
    while bytes > byteLimit, let last = kept.last {
      bytes -= String(last).utf8.count
      kept = kept.dropLast()
    }
    return (String(kept), count)
  }
}
