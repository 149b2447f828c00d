/// TEXT values (RFC 5545 §3.3.11): `\n`, `\,`, `\;` and `\\` escapes.
public enum CalendarText {
  /// The text a TEXT value stands for.
  public static func unescaped(_ value: String) -> String {
    guard value.contains("\\") else { return value }
    var result = ""
    result.reserveCapacity(value.utf8.count)
    var escaping = false
    for character in value {
      if escaping {
        switch character {
        case "n", "N": result.append("\n")
        default: result.append(character)
        }
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else {
        result.append(character)
      }
    }
    if escaping { result.append("\\") }
    return result
  }

  /// `text` as a TEXT value: backslashes, commas, semicolons and newlines escaped.
  public static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "\\": result += "\\\\"
      case ",": result += "\\,"
      case ";": result += "\\;"
      case "\n", "\r\n": result += "\\n"
      case "\r": break
      default: result.append(character)
      }
    }
    return result
  }
}
