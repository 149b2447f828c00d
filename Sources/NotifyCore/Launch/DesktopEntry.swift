/// A parsed `.desktop` file: only the `[Desktop Entry]` group's keys notify needs.
///
/// Reading follows the Desktop Entry Specification ("Basic format of the file", "Possible
/// value types") and, where the spec leaves room, GLib's `GKeyFile`, which GNOME and
/// `gio launch` read entries with, so that an entry that launches from the GNOME shell
/// launches from a notification too:
/// - a repeated key: the last one wins (GKeyFile keeps one value per key and replaces it);
///   a repeated `[Desktop Entry]` group adds to the first one;
/// - leading whitespace of a line, whitespace around `=` and a `\r` before the newline are
///   ignored; whitespace at the end of a value is kept (`Type=Application ` is not an
///   application, for GLib either);
/// - localized keys (`Name[de]`) are ignored: `name` is the unlocalized one;
/// - string values have `\s \n \t \r \\` undone; any other backslash is kept as written,
///   as GLib does (so `Exec=app "\$HOME"`, which should be `"\\$HOME"`, still means `$HOME`);
/// - a boolean is true for `true` or `1`, with trailing whitespace ignored, and false for
///   anything else (the spec allows only `true` and `false`; GLib reads `1` as true too).
///
/// ```swift
/// let entry = try DesktopEntry(parsing: "[Desktop Entry]\nType=Application\nExec=chat --new\n")
/// try entry.commandLine(entryPath: path)  // ["chat", "--new"]
/// ```
public struct DesktopEntry: Hashable, Sendable {
  /// `Type`: `Application`, `Link` or `Directory`; only applications can be launched.
  public var type: String?
  /// `Name`, unlocalized: what `%c` expands to.
  public var name: String?
  /// `Exec`, with the general string escapes (`\s \n \t \r \\`) already undone; its own
  /// quoting is undone by `commandLine(entryPath:)`.
  public var exec: String?
  /// `TryExec`: a program that must exist for the entry to be usable. Checking it touches
  /// the file system, so it is the caller's job.
  public var tryExec: String?
  /// `Icon`: a themed icon name or an absolute path; what `%i` expands to.
  public var icon: String?
  /// `DBusActivatable=true`: launch by D-Bus activation of `DesktopFileID.busName`, not by `Exec`.
  public var dbusActivatable: Bool
  /// `Hidden=true`: the entry counts as deleted.
  public var hidden: Bool
  /// `Path`: the working directory to launch the program in.
  public var path: String?

  /// Parses the text of a `.desktop` file.
  ///
  /// Throws `noDesktopEntryGroup` when the first group is not `[Desktop Entry]` (comments
  /// and blank lines may precede it) and `malformedLine` for a line that is neither a group
  /// header, a `Key=Value` pair, a comment nor blank, in any group, as GLib refuses such a
  /// file. Whether the entry can be launched is checked later, by `validateForLaunch()`.
  public init(parsing text: String) throws(DesktopEntryError) {
    var values: [String: Substring] = [:]
    var sawGroup = false
    var inDesktopEntry = false
    for (index, line) in Self.lines(of: text).enumerated() {
      let line = line.droppingLeadingScalars(where: Self.isSpace)
      guard let first = line.unicodeScalars.first, first != "#" else { continue }
      if first == "[" {
        guard let group = Self.groupName(line) else { throw .malformedLine(number: index + 1) }
        guard sawGroup || group == Self.group else { throw .noDesktopEntryGroup }
        sawGroup = true
        inDesktopEntry = group == Self.group
        continue
      }
      guard let (key, value) = Self.keyAndValue(line) else { throw .malformedLine(number: index + 1) }
      guard sawGroup else { throw .noDesktopEntryGroup }
      if inDesktopEntry, let key { values[key] = value }
    }
    guard sawGroup else { throw .noDesktopEntryGroup }

    func string(_ key: String) -> String? { values[key].map(Self.unescaped) }
    func boolean(_ key: String) -> Bool {
      let value = values[key]?.droppingTrailingScalars(where: Self.isSpace)
      return value == "true" || value == "1"
    }
    type = string("Type")
    name = string("Name")
    exec = string("Exec")
    tryExec = string("TryExec")
    icon = string("Icon")
    dbusActivatable = boolean("DBusActivatable")
    hidden = boolean("Hidden")
    path = string("Path")
  }

  /// The one group notify reads.
  static let group = "Desktop Entry"

  /// The lines of `text`, split at each `\n` scalar (a `\r\n` is one `Character` in Swift,
  /// so `Character`s cannot split it), each without a trailing `\r`.
  static func lines(of text: String) -> [Substring] {
    text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { scalars in
      var line = Substring(scalars)
      if line.unicodeScalars.last == "\r" { line.unicodeScalars.removeLast() }
      return line
    }
  }

  /// The name in a `[Group]` header, which may be followed by spaces and tabs only; nil when
  /// the line is no valid header (an empty name, or one with brackets or control characters).
  static func groupName(_ line: Substring) -> String? {
    let scalars = line.unicodeScalars.dropFirst()
    guard let close = scalars.firstIndex(of: "]"),
      scalars[scalars.index(after: close)...].allSatisfy({ $0 == " " || $0 == "\t" })
    else { return nil }
    let name = scalars[..<close]
    guard !name.isEmpty, !name.contains(where: { $0 == "[" || $0.value < 0x20 || $0.value == 0x7F }) else {
      return nil
    }
    return String(String.UnicodeScalarView(name))
  }

  /// Splits `Key=Value`, with whitespace around `=` dropped. The key is nil for a localized
  /// key (`Name[de]`); the pair is nil when the line has no `=` or the key is not valid: it
  /// must not be empty nor hold brackets except one locale suffix of `[A-Za-z0-9_.@-]*`.
  static func keyAndValue(_ line: Substring) -> (key: String?, value: Substring)? {
    guard let equals = line.unicodeScalars.firstIndex(of: "=") else { return nil }
    let key = line[..<equals].droppingTrailingScalars(where: isSpace)
    let value = line[line.unicodeScalars.index(after: equals)...].droppingLeadingScalars(where: isSpace)
    let base = key.unicodeScalars.prefix { $0 != "[" && $0 != "]" }
    guard !base.isEmpty else { return nil }
    let suffix = key.unicodeScalars[base.endIndex...]
    if suffix.isEmpty { return (String(key), value) }
    guard suffix.first == "[", suffix.last == "]", suffix.count >= 2,
      suffix.dropFirst().dropLast().allSatisfy({
        $0.properties.isAlphabetic || $0.properties.numericType != nil
          || "_.@-".unicodeScalars.contains($0)
      })
    else { return nil }
    return (nil, value)
  }

  /// A string value with the general escapes `\s \n \t \r \\` undone and any other backslash
  /// kept as written.
  static func unescaped(_ value: Substring) -> String {
    var out = String.UnicodeScalarView()
    var scalars = value.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      guard scalar == "\\", let escaped = scalars.next() else {
        out.append(scalar)
        continue
      }
      switch escaped {
      case "s": out.append(" ")
      case "n": out.append("\n")
      case "t": out.append("\t")
      case "r": out.append("\r")
      case "\\": out.append("\\")
      default: out.append(contentsOf: ["\\", escaped])
      }
    }
    return String(out)
  }

  /// ASCII whitespace as GLib's `g_ascii_isspace` counts it.
  static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0B}"
      || scalar == "\u{0C}"
  }
}

extension Substring {
  /// The substring without leading scalars that match.
  fileprivate func droppingLeadingScalars(where matches: (Unicode.Scalar) -> Bool) -> Substring {
    Substring(unicodeScalars.drop(while: matches))
  }

  /// The substring without trailing scalars that match.
  fileprivate func droppingTrailingScalars(where matches: (Unicode.Scalar) -> Bool) -> Substring {
    var scalars = unicodeScalars
    while let last = scalars.last, matches(last) { scalars.removeLast() }
    return Substring(scalars)
  }
}
