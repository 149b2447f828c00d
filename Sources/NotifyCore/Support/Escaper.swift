/// Makes untrusted text safe to show: on a terminal, in messages, in markup.
public enum Escaper {
  /// Replaces control characters (C0, DEL, C1, and the ESC that starts terminal escape
  /// sequences) with visible `\u{..}` forms; keeps newline and tab when `keepLines`.
  public static func visible(_ text: String, keepLines: Bool = false, limit: Int? = nil) -> String {
    var out = ""
    var count = 0
    for scalar in text.unicodeScalars {
      if let limit, count >= limit {
        out += "…"
        break
      }
      count += 1
      let v = scalar.value
      if keepLines && (scalar == "\n" || scalar == "\t") {
        out.unicodeScalars.append(scalar)
      } else if v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029
        || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
      {
        out += "\\u{\(String(v, radix: 16))}"
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Escapes `& < > " '` for freedesktop body markup.
  ///
  /// Works on Unicode scalars, not `Character`s: `<` followed by a combining mark is one
  /// `Character` in Swift but still a raw `<` to the server's markup parser.
  public static func markup(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&apos;"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
