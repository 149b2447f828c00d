import Foundation
import NotifyTestSupport
import Testing

extension ChildProcess {
  /// A daemon with the stdout sink.
  static func daemon(
    db: String, folder: TemporaryFolder, name: String, extra: [String] = [],
    environment: [String: String] = [:]
  ) throws -> ChildProcess {
    try notify(
      ["daemon", "--sink", "stdout"] + extra, db: db, folder: folder, name: name, environment: environment)
  }

  /// A firer of `driver`'s kind delivering to `sink`: the daemon (every app), or an app
  /// firing its own notifications in process (`app`'s only).
  static func firer(
    _ driver: FiringDriver, db: String, folder: TemporaryFolder, name: String, app: String = "test",
    sink: String = "stdout", environment: [String: String] = [:]
  ) throws -> ChildProcess {
    switch driver {
    case .daemon:
      try notify(["daemon", "--sink", sink], db: db, folder: folder, name: name, environment: environment)
    case .app:
      try notify(
        ["--app", app, "--sink", sink], db: db, folder: folder, name: name, environment: environment,
        program: "embedded-app-fixture")
    }
  }

  /// The JSON lines the stdout sink wrote so far (a line cut short by a kill is ignored).
  var deliveries: [Delivered] { stdoutLines.compactMap { Delivered(line: $0) } }
}

/// Who fires: every firing case runs against each (issue "one firing engine").
enum FiringDriver: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// `notify daemon`, firing every app's notifications.
  case daemon
  /// An app embedding the library, firing its own in process (`embedded-app-fixture`).
  case app

  var testDescription: String { rawValue }
}

/// One delivery line of the stdout sink.
struct Delivered: Hashable {
  var app: String
  var id: String
  var occurrence: Int
  var late: Bool
  var deliveredAt: Date
  var line: String

  init?(line: String) {
    guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      object["event"] as? String == "delivered", let app = object["app"] as? String,
      let id = object["id"] as? String, let occurrence = object["occurrence"] as? Int,
      let late = object["late"] as? Bool, let at = object["deliveredAt"] as? String,
      let deliveredAt = Delivered.parse(at)
    else { return nil }
    self.app = app
    self.id = id
    self.occurrence = occurrence
    self.late = late
    self.deliveredAt = deliveredAt
    self.line = line
  }

  /// The key that identifies one occurrence.
  var key: String { "\(app)/\(id)#\(occurrence)" }

  static func parse(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}
