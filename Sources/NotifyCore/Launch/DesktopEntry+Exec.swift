// How strict the Exec parser is, and why.
//
// The spec ("The Exec key") is the rule; where it leaves room, notify does what GLib does
// (`gio launch`, the GNOME shell: `expand_application_parameters` then `g_shell_parse_argv`),
// checked by DesktopEntryGioOracleTests against the real gio. GLib is far looser than the
// spec: it substitutes field codes as shell-quoted text and then parses a shell subset.
//
// Followed from the spec, stricter than GLib (GLib accepts these, the spec forbids them;
// desktop-file-validate also reports reserved characters outside quotes, an unescaped $ or `
// inside quotes and unknown field codes as errors):
// - a reserved character outside quotes (tab, newline, ' \ > < ~ | & ; $ * ? # ( ) `) is an
//   error; GLib reads most literally, but ' quotes, \ escapes, # starting a word starts a
//   comment, and tab and newline separate arguments;
// - inside quotes only \" \` \$ \\ are escapes; any other backslash, and an unescaped $ or `,
//   is an error (GLib keeps them literally);
// - an unknown field code (%z, %1, a lone %) is an error (GLib drops it, or keeps a final %);
// - %c, %k and %i inside quotes are errors: GLib inserts the value shell-quoted, so "%c"
//   becomes the argument 'Name' with the single quotes in it;
// - a field code other than %% in the program name is an error (GLib looks the program up
//   before expanding, so it fails to find it).
//
// Loose in the spec, done as GLib does:
// - arguments are separated by runs of spaces; leading and trailing spaces are ignored;
// - quotes may cover part of an argument, and adjacent parts join: --name="a b" is one argument;
// - "" is an empty argument; an unquoted argument that expands to nothing disappears;
// - %f %F %u %U and the deprecated %d %D %n %N %v %m expand to nothing, in quotes too (launching
//   without files), so `sh -c "app %u"` stays launchable; %% is % anywhere;
// - %i glued to text splits there: a%ib is "a--icon" then Icon + "b";
// - %c with an empty Name is an empty argument; the "at most one of %f %u %F %U" rule is not
//   enforced: it only matters when files are passed, and commandLine passes none.
//
// Where notify follows the spec and GLib does otherwise: an empty `Icon=` makes %i expand to
// nothing (GLib: "--icon" and an empty argument), and GLib strips .png/.svg/.xpm from a
// relative Icon before %i; notify passes Icon as written.

extension DesktopEntry {
  /// Checks that the entry is one to launch: `Type=Application` and not `Hidden`.
  ///
  /// `commandLine(entryPath:)` checks this first; call it alone before launching a
  /// `dbusActivatable` entry by D-Bus, which needs no command line.
  public func validateForLaunch() throws(DesktopEntryError) {
    guard type == "Application" else { throw .notAnApplication(type: type) }
    guard !hidden else { throw .hidden }
  }

  /// The argv for launching with no files or URLs, field codes expanded per the spec:
  /// %f %F %u %U dropped (a lone field code argument disappears; inside an argument it expands to nothing),
  /// %i -> two arguments "--icon", Icon (nothing if no Icon), %c -> Name, %k -> entryPath,
  /// %% -> %, deprecated %d %D %n %N %v %m removed, any other %X -> error.
  ///
  /// `entryPath` is where the entry was read from; an empty one means the location is
  /// unknown and %k expands to nothing, as the spec allows (and as `gio launch` does). The
  /// first element is the program, as written: a name to look up in `PATH` or a path. The
  /// comment at the top of this file lists how strict the parsing is.
  ///
  /// ```swift
  /// // Exec=chat "--title=Chat \\$1" %U --from=%k
  /// try entry.commandLine(entryPath: "/usr/share/applications/org.example.Chat.desktop")
  /// // ["chat", "--title=Chat $1", "--from=/usr/share/applications/org.example.Chat.desktop"]
  /// ```
  public func commandLine(entryPath: String) throws(DesktopEntryError) -> [String] {
    try validateForLaunch()
    guard let exec else { throw .noExec }
    var argv: [String] = []
    for (index, word) in try Self.words(of: exec).enumerated() {
      argv += try expand(word, isProgram: index == 0, entryPath: entryPath)
    }
    guard let program = argv.first else { throw .malformedExec("it names no program") }
    guard !program.isEmpty else { throw .malformedExec("the program name is empty") }
    guard !program.unicodeScalars.contains("=") else {
      throw .malformedExec("the program name contains '=', which the spec forbids there")
    }
    return argv
  }

  /// The field codes the spec lists, `%%` aside: each one is an error only where it stands.
  static let knownFieldCodes: Set<String> = [
    "%f", "%F", "%u", "%U", "%i", "%c", "%k", "%d", "%D", "%n", "%N", "%v", "%m",
  ]

  /// One argument of an Exec line with its quoting undone, each scalar marked with whether
  /// it stood inside quotes; field codes are not expanded yet.
  struct Word {
    var scalars: [(scalar: Unicode.Scalar, quoted: Bool)] = []
    /// The argument had quotes, so it stays even when it expands to nothing.
    var hasQuotes = false
  }

  /// Splits an Exec value into arguments and undoes their quoting.
  static func words(of exec: String) throws(DesktopEntryError) -> [Word] {
    var words: [Word] = []
    var word: Word?
    var scalars = exec.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      switch scalar {
      case " ":
        if let finished = word { words.append(finished) }
        word = nil
      case "\"":
        var quoted = word ?? Word()
        quoted.hasQuotes = true
        try readQuoted(from: &scalars, into: &quoted)
        word = quoted
      case "\t", "\n", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`":
        throw .malformedExec("\(describe(scalar)) outside quotes, where the spec reserves it")
      default:
        word = word ?? Word()
        word?.scalars.append((scalar, false))
      }
    }
    if let word { words.append(word) }
    return words
  }

  /// Reads a quoted part up to its closing quote, the opening one already read.
  private static func readQuoted(
    from scalars: inout String.UnicodeScalarView.Iterator, into word: inout Word
  ) throws(DesktopEntryError) {
    while let scalar = scalars.next() {
      switch scalar {
      case "\"":
        return
      case "\\":
        guard let escaped = scalars.next() else { throw .malformedExec("a double quote is not closed") }
        guard escaped == "\"" || escaped == "`" || escaped == "$" || escaped == "\\" else {
          throw .malformedExec(
            "a backslash before \(describe(escaped)) inside quotes, where only \\\" \\` \\$ \\\\ are escapes")
        }
        word.scalars.append((escaped, true))
      case "$", "`":
        throw .malformedExec("\(describe(scalar)) inside quotes without the backslash the spec asks for")
      default:
        word.scalars.append((scalar, true))
      }
    }
    throw .malformedExec("a double quote is not closed")
  }

  /// Expands the field codes of one argument, which may yield no argument (%f alone), one,
  /// or two (%i).
  private func expand(
    _ word: Word, isProgram: Bool, entryPath: String
  ) throws(DesktopEntryError) -> [String] {
    var arguments: [String] = []
    var current = String.UnicodeScalarView()
    var keep = word.hasQuotes
    var index = 0
    while index < word.scalars.count {
      let (scalar, quoted) = word.scalars[index]
      index += 1
      guard scalar == "%" else {
        current.append(scalar)
        continue
      }
      guard index < word.scalars.count else { throw .invalidFieldCode("%") }
      let (letter, letterQuoted) = word.scalars[index]
      index += 1
      let code = "%" + String(letter)
      if letter == "%" {
        current.append("%")
        continue
      }
      guard Self.knownFieldCodes.contains(code), !isProgram else { throw .invalidFieldCode(code) }
      guard "cki".unicodeScalars.contains(letter) else { continue }  // the file codes and deprecated ones
      guard !quoted, !letterQuoted else { throw .invalidFieldCode(code) }
      switch letter {
      case "c":
        guard let name else { continue }
        current.append(contentsOf: name.unicodeScalars)
        keep = true
      case "k":
        guard !entryPath.isEmpty else { continue }
        current.append(contentsOf: entryPath.unicodeScalars)
        keep = true
      default:
        guard let icon, !icon.isEmpty else { continue }
        current.append(contentsOf: "--icon".unicodeScalars)
        arguments.append(String(current))
        current = icon.unicodeScalars
        keep = true
      }
    }
    if keep || !current.isEmpty { arguments.append(String(current)) }
    return arguments
  }

  /// A character named for a message: tab and newline in words, others in quotes.
  private static func describe(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\t": "a tab"
    case "\n": "a newline"
    case "'": "a single quote"
    case "\\": "a backslash"
    default: "'\(Escaper.visible(String(scalar)))'"
    }
  }
}
