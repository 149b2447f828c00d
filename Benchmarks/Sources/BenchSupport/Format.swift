import Foundation

/// How figures are written in the harnesses' Markdown tables.
public enum Format {
  /// `412 µs`, `3.4 ms` or `1.20 s`.
  public static func duration(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "n/a" }
    let magnitude = abs(seconds)
    if magnitude < 0.001 { return String(format: "%.0f µs", seconds * 1e6) }
    if magnitude < 1 { return String(format: "%.2f ms", seconds * 1e3) }
    return String(format: "%.2f s", seconds)
  }

  /// `12.3 MiB`.
  public static func mebibytes(_ kibibytes: Int) -> String {
    String(format: "%.1f MiB", Double(kibibytes) / 1024)
  }

  /// `4.2x`; `n/a` when undefined.
  public static func ratio(_ value: Double) -> String {
    value.isFinite ? String(format: "%.1fx", value) : "n/a"
  }

  /// `met` or `MISSED`, for a target.
  public static func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }

  /// One Markdown table row.
  public static func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }

  /// A Markdown table header with its rule.
  public static func header(_ cells: [String]) -> String {
    row(cells) + "\n" + row(cells.map { _ in "---" })
  }
}
