extension DesktopEntry {
  /// The characters the spec reserves outside quotes ("The Exec key"): an argument holding
  /// one of them is written in double quotes.
  static let reservedInExec: Set<Unicode.Scalar> = [
    " ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`",
  ]

  /// The characters a backslash must precede inside double quotes.
  static let escapedInQuotes: Set<Unicode.Scalar> = ["\"", "`", "$", "\\"]

  /// The value to write after `Exec=` in a `.desktop` file so that launching the entry runs
  /// exactly `arguments` (the program first): the inverse of `commandLine(entryPath:)`.
  ///
  /// Each argument is quoted as the spec says ("The Exec key"): written bare when it is not
  /// empty and holds no reserved character (space, tab, newline, `"` `'` `\` `>` `<` `~`
  /// `|` `&` `;` `$` `*` `?` `#` `(` `)` `` ` ``), else in double quotes with `"` `` ` ``
  /// `$` `\` escaped by a backslash; `%` is written `%%` everywhere, so that no argument
  /// reads as a field code. The line is then escaped as a string value (`\` becomes `\\`,
  /// "Possible value types"), ready to follow `Exec=`.
  ///
  /// Throws `unwritableExec` for what no Exec line can carry or launch: no arguments, an
  /// empty program name or one with `=` (which `commandLine(entryPath:)` refuses), and a
  /// control character (U+0000–U+001F, U+007F–U+009F, newline and tab included) in any
  /// argument, which a string value may not hold.
  ///
  /// ```swift
  /// try DesktopEntry.execLine(["/opt/chat/chat-client", "--channel", "#notify", "100%"])
  /// // #"/opt/chat/chat-client --channel "#notify" 100%%"#
  /// try DesktopEntry.execLine(["chat", #"C:\dir"#, "it's"])
  /// // #"chat "C:\\\\dir" "it's""#: the backslash escaped in quotes, then as a string value
  /// ```
  public static func execLine(_ arguments: [String]) throws(DesktopEntryError) -> String {
    guard let program = arguments.first else { throw .unwritableExec("it names no program") }
    guard !program.isEmpty else { throw .unwritableExec("the program name is empty") }
    guard !program.unicodeScalars.contains("=") else {
      throw .unwritableExec("the program name contains '=', which the spec forbids there")
    }
    var words: [String] = []
    for (index, argument) in arguments.enumerated() {
      if let control = argument.unicodeScalars.first(where: isControl) {
        throw .unwritableExec(
          "argument \(index + 1) holds the control character U+\(hex(control)), which a desktop file "
            + "string value cannot carry")
      }
      words.append(quotedForExec(argument))
    }
    return escapedAsString(words.joined(separator: " "))
  }

  /// One argument as the Exec key writes it, `%` doubled; general string escapes not applied.
  static func quotedForExec(_ argument: String) -> String {
    let needsQuotes = argument.isEmpty || argument.unicodeScalars.contains(where: reservedInExec.contains)
    var out = String.UnicodeScalarView()
    if needsQuotes { out.append("\"") }
    for scalar in argument.unicodeScalars {
      if scalar == "%" {
        out.append(contentsOf: ["%", "%"])
        continue
      }
      if needsQuotes, escapedInQuotes.contains(scalar) { out.append("\\") }
      out.append(scalar)
    }
    if needsQuotes { out.append("\"") }
    return String(out)
  }

  /// `text` as a string value: each `\` doubled, undone by `unescaped(_:)` when the file is read.
  static func escapedAsString(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar == "\\" { out.append("\\") }
      out.append(scalar)
    }
    return String(out)
  }

  /// C0 controls, DEL and C1 controls: what a string value may not hold.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }

  /// `scalar` as four or more uppercase hex digits.
  private static func hex(_ scalar: Unicode.Scalar) -> String {
    let digits = String(scalar.value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
