import Foundation
import NotifyCore

/// Writing to stdout and stderr, escaped for terminals.
enum Output {
  /// True when stdout is a terminal (readable output) rather than a pipe (machine output).
  static let stdoutIsTerminal = isatty(STDOUT_FILENO) == 1

  /// Prints a line on stdout.
  static func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
  }

  /// Prints `notify: TEXT` on stderr.
  static func error(_ text: String) {
    FileHandle.standardError.write(Data(("notify: " + text + "\n").utf8))
  }

  /// Prints `notify: warning: TEXT` on stderr.
  static func warning(_ text: String) { error("warning: " + text) }

  /// Text safe for a terminal: control characters shown, not obeyed.
  static func safe(_ text: String?, limit: Int? = nil) -> String {
    Escaper.visible(text ?? "", limit: limit)
  }

  /// `2026-11-22 09:00:00 CET` in the system zone: how people read instants.
  static func localTime(_ date: Date?, zone: Zone) -> String {
    guard let date else { return "-" }
    return safe(zone.readableText(for: date))
  }

  /// A JSON array of records, one per line for readability.
  static func jsonArray(_ records: [JSONRecord]) -> String {
    guard !records.isEmpty else { return "[]" }
    return "[\n" + records.map { "  " + $0.compactText }.joined(separator: ",\n") + "\n]"
  }
}
