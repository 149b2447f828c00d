/// Text that came from the network, made fit to show: in a notification, and in the
/// transcript before `Escaper` escapes what is left.
///
/// Removed: IRC formatting (bold, colours `\x03NN,NN` and `\x04RRGGBB`, reset, ...), whole
/// terminal escape sequences introduced by ESC or a C1 control (CSI `ESC [ … final` and
/// `0x9B`, OSC `ESC ] … BEL/ST` and the other string sequences, `ESC x`), the remaining C0
/// and C1 controls, and the Unicode bidi controls that can make text read backwards.
/// Text typed literally stays: `[31m` without an ESC before it is what a person wrote.
///
/// ```swift
/// NetworkText.plain("\u{1B}[31mred\u{1B}[0m \u{202E}olleh")  // "red olleh"
/// ```
enum NetworkText {
  /// `text` without formatting, escape sequences, controls and bidi controls; a tab
  /// becomes a space.
  static func plain(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var rest = text.unicodeScalars[...]
    while let scalar = rest.popFirst() {
      switch scalar.value {
      case 0x03: dropIRCColour(&rest)
      case 0x04: dropIRCHexColour(&rest)
      case 0x1B: dropEscapeSequence(&rest)
      case 0x9B: dropControlSequence(&rest)
      case 0x90, 0x98, 0x9D, 0x9E, 0x9F: dropControlString(&rest)
      case 0x09: out.append(" ")
      case 0..<0x20, 0x7F, 0x80...0x9F: continue
      case _ where isBidiControl(scalar): continue
      default: out.append(scalar)
      }
    }
    return String(out)
  }

  /// The Unicode bidi embeddings, overrides, isolates and marks (U+202A–U+202E,
  /// U+2066–U+2069, U+200E, U+200F, U+061C).
  static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
    default: false
    }
  }

  // MARK: IRC formatting

  /// After `\x03`: up to two digits, then optionally a comma and up to two more.
  private static func dropIRCColour(_ rest: inout Substring.UnicodeScalarView) {
    let foreground = rest.prefix(2).prefix(while: isDigit)
    guard !foreground.isEmpty else { return }
    rest = rest.dropFirst(foreground.count)
    guard rest.first == ",", let next = rest.dropFirst().first, isDigit(next) else { return }
    rest = rest.dropFirst(1 + rest.dropFirst().prefix(2).prefix(while: isDigit).count)
  }

  /// After `\x04`: six hex digits, then optionally a comma and six more.
  private static func dropIRCHexColour(_ rest: inout Substring.UnicodeScalarView) {
    guard rest.prefix(6).count == 6, rest.prefix(6).allSatisfy(isHexDigit) else { return }
    rest = rest.dropFirst(6)
    let background = rest.dropFirst().prefix(6)
    if rest.first == ",", background.count == 6, background.allSatisfy(isHexDigit) {
      rest = rest.dropFirst(7)
    }
  }

  // MARK: Terminal escapes (ECMA-48)

  /// After ESC: `[` starts a control sequence; `]`, `P`, `X`, `^`, `_` a control string;
  /// otherwise intermediates (0x20–0x2F) and one final character (0x30–0x7E). A lone ESC
  /// is dropped on its own.
  private static func dropEscapeSequence(_ rest: inout Substring.UnicodeScalarView) {
    guard let next = rest.first else { return }
    switch next {
    case "[":
      rest.removeFirst()
      dropControlSequence(&rest)
    case "]", "P", "X", "^", "_":
      rest.removeFirst()
      dropControlString(&rest)
    default:
      let intermediates = rest.prefix { (0x20...0x2F).contains($0.value) }
      let afterwards = rest.dropFirst(intermediates.count)
      if let final = afterwards.first, (0x30...0x7E).contains(final.value) {
        rest = afterwards.dropFirst()
      }
    }
  }

  /// After CSI: parameters (0x30–0x3F), intermediates (0x20–0x2F), one final (0x40–0x7E).
  /// A sequence broken by another character ends there; that character is kept for the
  /// caller to judge.
  private static func dropControlSequence(_ rest: inout Substring.UnicodeScalarView) {
    rest = rest.drop { (0x30...0x3F).contains($0.value) }
    rest = rest.drop { (0x20...0x2F).contains($0.value) }
    if let final = rest.first, (0x40...0x7E).contains(final.value) { rest.removeFirst() }
  }

  /// After OSC, DCS, SOS, PM or APC: everything up to BEL or ST (`ESC \` or 0x9C),
  /// which go too. An unterminated string runs to the end of the text, as on a terminal.
  private static func dropControlString(_ rest: inout Substring.UnicodeScalarView) {
    while let scalar = rest.popFirst() {
      if scalar == "\u{7}" || scalar == "\u{9C}" { return }
      if scalar == "\u{1B}", rest.first == "\\" {
        rest.removeFirst()
        return
      }
    }
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

  private static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
    isDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
  }
}
