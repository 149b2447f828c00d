/// Whether the quotes, parentheses, brackets and braces of a piece of prose pair up, in
/// order, as a reader would pair them: what `('Europe/Berlin, ':Europe/Berlin'')` or
/// `(notify sound install), default ~/.local/share)` in a man page fails.
///
/// `'` and `"` open and close alike, so which one a mark is comes from where it stands: after
/// a space, an opening bracket, another opening mark, `:`, `=` or `,` it opens (`'{"k":"v"}'`),
/// anywhere else it closes; a `'` between two letters or digits is an apostrophe (`APP's`).
/// An opening mark may not be followed by a space nor open again inside a quote of its own
/// kind, and a closing one may not follow a space: `'a, ':b''` fails on both counts.
enum ProseBalance {
  private static let closing: [Character: Character] = [")": "(", "]": "[", "}": "{", "’": "‘", "”": "“"]
  private static let opensAfter: Set<Character> = ["(", "[", "{", "‘", "“", ":", "=", ","]

  /// The first problem in `text`, or nil when everything pairs up.
  static func problem(in text: String) -> String? {
    let characters = Array(text)
    var open: [(mark: Character, at: Int)] = []
    func context(_ at: Int) -> String {
      let from = max(0, at - 30)
      let to = min(characters.count, at + 30)
      return "'" + String(characters[from..<to]).replacingOccurrences(of: "\n", with: " ") + "'"
    }
    for (index, character) in characters.enumerated() {
      let before: Character = index > 0 ? characters[index - 1] : " "
      let after: Character = index + 1 < characters.count ? characters[index + 1] : " "
      switch character {
      case "(", "[", "{", "‘", "“":
        open.append((character, index))
      case ")", "]", "}", "’", "”":
        if character == "’", before.isLetter || before.isNumber, after.isLetter { continue }  // an apostrophe
        guard let last = open.last, last.mark == closing[character] else {
          return "\(character) closes nothing open at \(context(index))"
        }
        open.removeLast()
      case "'", "\"":
        if character == "'", before.isLetter || before.isNumber, after.isLetter || after.isNumber { continue }
        if before.isWhitespace || opensAfter.contains(before) || before == "'" && open.last?.mark != "'"
          || before == "\"" && open.last?.mark != "\""
        {
          if open.contains(where: { $0.mark == character }) {
            return "\(character) opens inside a quote of its own kind at \(context(index))"
          }
          if after.isWhitespace { return "\(character) opens before a space at \(context(index))" }
          open.append((character, index))
        } else {
          guard let last = open.last, last.mark == character else {
            return "\(character) closes nothing open at \(context(index))"
          }
          open.removeLast()
        }
      default:
        continue
      }
    }
    if let last = open.last { return "\(last.mark) is never closed, at \(context(last.at))" }
    return nil
  }
}
