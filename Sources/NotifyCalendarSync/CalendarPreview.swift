import Foundation
import NotifyCalendar
import NotifyCore

/// A dry run of a calendar: the alarm instants its files have in a window, soonest first,
/// as `calendar add` would schedule them, and what was skipped. One path for `notify
/// calendar preview` and the library's `LocalNotificationCenter.previewCalendar`.
public enum CalendarPreview {
  /// One alarm instant and the file it is in.
  public struct Found: Sendable {
    /// The alarm instant.
    public var instant: AlarmInstant
    /// The file it is in, as listed from the path given.
    public var file: String
  }

  /// What a preview found.
  public struct Result: Sendable {
    /// The instants, soonest first.
    public var alarms: [Found] = []
    /// What was skipped, each naming its file, line and property.
    public var warnings: [String] = []
  }

  /// Why a preview of `paths` over `[from, to)` cannot run: no path, a window that does
  /// not start before it ends, a path that names nothing (the first, as given).
  public static func check(paths: [String], from: Date, to: Date) throws(CalendarFailure) {
    guard !paths.isEmpty else { throw .noPath }
    guard from < to else { throw .emptyWindow }
    if let missing = paths.first(where: { CalendarFiles.kind(of: $0) == .missing }) {
      throw .noSuchPath(missing)
    }
  }

  /// The instants of the files of `paths` (folders read as `calendar add` reads them) in
  /// `[from, to)`.
  public static func run(paths: [String], from: Date, to: Date, zones: Zones) -> Result {
    var contents: [(String, Swift.Result<[UInt8], CalendarWarning>)] = []
    for path in paths {
      for file in CalendarFiles.list(path).files { contents.append((file, CalendarFiles.read(file))) }
    }
    return run(contents, from: from, to: to, zones: zones)
  }

  /// The instants of files already read, each under its name.
  public static func run(
    _ files: [(name: String, bytes: Swift.Result<[UInt8], CalendarWarning>)], from: Date, to: Date,
    zones: Zones
  ) -> Result {
    var result = Result()
    for (file, read) in files {
      switch read {
      case .failure(let warning): result.warnings.append(warning.description)
      case .success(let bytes):
        let expanded = AlarmExpansion.instants(
          in: CalendarDocument(bytes: bytes), zones: zones, from: from, to: to)
        result.warnings += expanded.warnings.map { $0.inFile(file).description }
        if expanded.truncated {
          result.warnings.append(
            "\(Escaper.visible(file)): more than \(expanded.instants.count) alarm instants in the window: the first ones are listed"
          )
        }
        result.alarms += expanded.instants.map { Found(instant: $0, file: file) }
      }
    }
    result.alarms.sort { AlarmInstant.soonestFirst($0.instant, $1.instant) }
    return result
  }
}
