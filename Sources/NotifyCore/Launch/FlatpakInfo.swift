/// A Flatpak instance's `/.flatpak-info`, a key file (`[Application]` `name=org.example.App`),
/// parsed as GLib's `GKeyFile` reads it for xdg-desktop-portal: groups in brackets, `key=value`
/// lines with the spaces around `=` dropped, `#` comments and blank lines skipped, a later key
/// replacing an earlier one of its group. Anything else (a line outside a group, a line that is
/// neither, text that is not UTF-8) makes the whole file unusable, as it makes it for GLib.
package struct FlatpakInfo: Equatable, Sendable {
  /// The values by group, then key (keys with a locale, `name[de]`, are kept as written).
  package private(set) var groups: [String: [String: String]] = [:]

  /// Where Flatpak binds the instance's file inside its sandbox.
  package static let path = "/.flatpak-info"

  /// The most bytes read of the file (real ones are a few KiB).
  package static let maximumBytes = 65_536

  /// Why a file could not be parsed.
  package struct ParseError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, and on which line.
    package var description: String
  }

  /// Parses the file's bytes.
  package init(parsing bytes: [UInt8]) throws(ParseError) {
    guard bytes.count <= Self.maximumBytes else {
      throw ParseError(description: "longer than \(Self.maximumBytes) bytes")
    }
    guard String(validating: bytes, as: UTF8.self) != nil else {
      throw ParseError(description: "not UTF-8")
    }
    var group: String?
    // Lines are split on bytes ("\r\n" is one Character to Swift), a trailing "\r" dropped.
    for (index, rawLine) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
      var bytes = rawLine[...]
      if bytes.last == 0x0D { bytes = bytes.dropLast() }
      let line = Substring(decoding: bytes, as: UTF8.self).drop { $0 == " " || $0 == "\t" }
      if line.isEmpty || line.first == "#" { continue }
      if line.first == "[" {
        let name = line.dropFirst().dropLast()
        guard line.last == "]", !name.isEmpty, !name.contains(where: { $0 == "[" || $0 == "]" }) else {
          throw ParseError(description: "line \(index + 1): a malformed group header")
        }
        group = String(name)
        continue
      }
      guard let group else { throw ParseError(description: "line \(index + 1): a key before any group") }
      guard let equals = line.firstIndex(of: "=") else {
        throw ParseError(description: "line \(index + 1): neither a group, a key nor a comment")
      }
      let key = line[..<equals].trimmingSuffix { $0 == " " || $0 == "\t" }
      guard !key.isEmpty else { throw ParseError(description: "line \(index + 1): a value without a key") }
      // GLib keeps a value's trailing spaces (an id with one is then refused).
      let value = line[line.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
      groups[group, default: [:]][String(key)] = String(value)
    }
  }

  /// The app id, as the portal reads it: `[Runtime] name` when the instance is a runtime
  /// (`flatpak run --runtime`), else `[Application] name`.
  package var appName: String? {
    let group = groups["Runtime"] != nil ? "Runtime" : "Application"
    return groups[group]?["name"]
  }
}

extension Substring {
  /// The text without the trailing characters that satisfy `predicate`.
  fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> Substring {
    var end = endIndex
    while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
    return self[startIndex..<end]
  }
}
