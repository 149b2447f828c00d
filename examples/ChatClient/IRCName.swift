/// IRC's rules for nicks in text: case-insensitive comparison (the `rfc1459` case
/// mapping, where `[]\~` are the upper case of `{}|^`) and what counts as a mention.
enum IRCName {
  /// The characters a nick may hold besides letters and digits.
  static let specialCharacters: Set<Character> = ["[", "]", "\\", "`", "_", "^", "{", "|", "}", "-"]

  /// `name` in its case-folded form, for comparison.
  static func folded(_ name: String) -> String {
    String(
      name.lowercased().map { ch -> Character in
        switch ch {
        case "[": "{"
        case "]": "}"
        case "\\": "|"
        case "~": "^"
        default: ch
        }
      })
  }

  /// Whether `a` and `b` are the same nick or channel.
  static func same(_ a: String, _ b: String) -> Bool { folded(a) == folded(b) }

  /// Whether `text` names `nick`: a run of nick characters (letters, digits and
  /// ``[]\`_^{|}-``) that is the nick, or is the nick in brackets or braces.
  ///
  /// Brackets are nick characters, so `ada[m]` is another nick and does not mention `ada`;
  /// but people write `[ada]` and `{ada}` to name someone, so opening brackets before and
  /// closing brackets after a run are tried away one by one. Every other character ends
  /// a run: `ada:`, `@ada`, `(ada)` and `ada's` mention `ada`; `adam`, `_ada`, `ada-` and
  /// `ada|away` do not.
  static func mentions(_ text: String, nick: String) -> Bool {
    let target = folded(nick)
    guard !target.isEmpty else { return false }
    let runs = folded(text).split { !isNickCharacter($0) }
    return runs.contains { run in
      // Folded, `[` and `]` are `{` and `}`.
      let opening = run.prefix { $0 == "{" }.count
      let closing = run.reversed().prefix { $0 == "}" }.count
      for leading in 0...opening {
        for trailing in 0...closing where leading + trailing < run.count {
          if run.dropFirst(leading).dropLast(trailing) == target { return true }
        }
      }
      return false
    }
  }

  /// Letters, digits and the special characters of nicks.
  static func isNickCharacter(_ ch: Character) -> Bool {
    ch.isLetter || ch.isNumber || specialCharacters.contains(ch)
  }
}
