import Foundation
import Notify
import NotifyTestSupport
import Testing

/// Each way adding, removing, previewing or importing a calendar fails, through both doors:
/// the built `notify` and the library's center. One table (`CalendarFailure.notifyError`)
/// gives both their answer, so each failure has one exit code, one public case and the same
/// words, only the terms named by each door its own way (`--name` / `name`).
@Suite("Calendar failures: the command line and the library answer alike", .ownThreads)
struct CalendarFailureDoorsTests {
  /// The paths a case uses, made in its own folder.
  struct Paths: Sendable {
    var folder: String
    var store: String { folder + "/notify.db" }
    var work: String { folder + "/work" }
    var missing: String { folder + "/missing" }
    /// A file over the 256 MiB an `.ics` file may have (sparse: it takes no room).
    var huge: String { folder + "/huge.ics" }

    subscript(place: Place) -> String {
      switch place {
      case .work: work
      case .missing: missing
      case .huge: huge
      }
    }
  }

  /// Which of the paths a call names.
  enum Place: Sendable { case work, missing, huge }

  /// What a door is asked to do.
  enum Call: Sendable {
    case add(path: Place, name: String?)
    case remove(name: String)
    case preview(path: Place, emptyWindow: Bool)
    case importFile(Place)
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var call: Call
    /// The exit code (SPEC.md §5; docs/calendars.md).
    var status: Int32
    /// The library's case, by name.
    var publicCase: String
    /// The field and the rule the library's case carries, when it names them.
    var field: NotificationError.Field?
    /// The words, as each door names its terms; `{}` stands for the case's folder.
    var commandSays: String
    var librarySays: String
    var testDescription: String { name }
  }

  static let app = "org.example.Cal"

  static let cases: [Case] = [
    Case(
      name: "add: the path names nothing", call: .add(path: .missing, name: nil), status: 66,
      publicCase: "invalidContent", field: nil,
      commandSays: "no such file or folder: {}/missing: name an existing vdir folder or .ics file",
      librarySays: "no such file or folder: {}/missing: name an existing vdir folder or .ics file"),
    Case(
      name: "add: not a calendar name", call: .add(path: .work, name: "my work"), status: 65,
      publicCase: "invalidContent", field: .calendarName,
      commandSays:
        "'my work' is not a calendar name: use 1 to 128 letters, digits, '.', '_' and '-' (--name)",
      librarySays: "'my work' is not a calendar name: use 1 to 128 letters, digits, '.', '_' and '-' (name)"),
    Case(
      name: "add: the name is taken", call: .add(path: .work, name: "taken"), status: 1,
      publicCase: "invalidContent", field: .calendarName,
      commandSays:
        "a calendar named 'taken' is already watched: pick another --name, or remove that calendar first (notify calendar remove)",
      librarySays:
        "a calendar named 'taken' is already watched: pick another name, or remove that calendar first (removeCalendar(named:))"
    ),
    Case(
      name: "remove: no calendar has the name", call: .remove(name: "nothing"), status: 1,
      publicCase: "notFound",
      field: nil, commandSays: "no calendar is named 'nothing': see notify calendar list",
      librarySays: "no calendar is named 'nothing': see calendars()"),
    Case(
      name: "preview: the path names nothing", call: .preview(path: .missing, emptyWindow: false), status: 66,
      publicCase: "invalidContent", field: nil,
      commandSays: "no such file or folder: {}/missing: name an existing vdir folder or .ics file",
      librarySays: "no such file or folder: {}/missing: name an existing vdir folder or .ics file"),
    Case(
      name: "preview: the window does not start before it ends",
      call: .preview(path: .work, emptyWindow: true),
      status: 64, publicCase: "invalidContent", field: nil,
      commandSays: "--from is not before --to: give a window whose start comes before its end",
      librarySays: "the preview's start is not before its end: give a window whose start comes before its end"
    ),
    Case(
      name: "import: no such file", call: .importFile(.missing), status: 66, publicCase: "invalidContent",
      field: nil, commandSays: "no such file: {}/missing: name an existing .ics file",
      librarySays: "no such file: {}/missing: name an existing .ics file"),
    Case(
      name: "import: a file too large to read", call: .importFile(.huge), status: 66,
      publicCase: "invalidContent",
      field: nil,
      commandSays: "{}/huge.ics: skipped: 268435457 bytes, more than 268435456: name a readable .ics file",
      librarySays: "{}/huge.ics: skipped: 268435457 bytes, more than 268435456: name a readable .ics file"),
  ]

  static let calendar = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify tests//EN", "BEGIN:VEVENT", "UID:a@test",
    "DTSTART:20300110T090000Z", "SUMMARY:Standup", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M",
    "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
  ].joined(separator: "\r\n")

  /// A folder with a vdir `work`, a huge file, and a store that watches `work` as `taken`.
  func given(_ folder: TemporaryFolder) async throws -> Paths {
    let paths = Paths(folder: folder.path)
    try FileManager.default.createDirectory(atPath: paths.work, withIntermediateDirectories: true)
    try Data(Self.calendar.utf8).write(to: URL(fileURLWithPath: paths.work + "/a.ics"))
    #expect(FileManager.default.createFile(atPath: paths.huge, contents: nil))
    let handle = try #require(FileHandle(forWritingAtPath: paths.huge))
    try handle.truncate(atOffset: 256 * 1024 * 1024 + 1)
    try handle.close()
    let center = try LocalNotificationCenter(app: Self.app, storePath: paths.store, sink: .stdout)
    _ = try await center.addCalendar(atPath: paths.work, name: "taken")
    return paths
  }

  func commandLine(_ call: Call, _ paths: Paths) -> [String] {
    switch call {
    case .add(let path, let name):
      ["calendar", "add", paths[path], "--app", Self.app] + (name.map { ["--name", $0] } ?? [])
    case .remove(let name): ["calendar", "remove", name]
    case .preview(let path, let empty):
      [
        "calendar", "preview", paths[path], "--from", "2030-01-01T00:00:00Z", "--to",
        empty ? "2030-01-01T00:00:00Z" : "2030-02-01T00:00:00Z",
      ]
    case .importFile(let path): ["import", paths[path], "--app", Self.app]
    }
  }

  func library(_ call: Call, _ paths: Paths) async throws(NotificationError) {
    let center = try LocalNotificationCenter(app: Self.app, storePath: paths.store, sink: .stdout)
    let from = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01
    switch call {
    case .add(let path, let name): _ = try await center.addCalendar(atPath: paths[path], name: name)
    case .remove(let name): try await center.removeCalendar(named: name)
    case .preview(let path, let empty):
      _ = try await center.previewCalendar(
        paths: [paths[path]], from: from, to: empty ? from : from + 31 * 86_400)
    case .importFile(let path): try await center.importCalendar(file: paths[path])
    }
  }

  @Test(arguments: cases)
  func bothDoorsAnswerAlike(_ failure: Case) async throws {
    let folder = TemporaryFolder(prefix: "notify-calendar-doors")
    let paths = try await given(folder)
    let before = try await LocalNotificationCenter(app: Self.app, storePath: paths.store, sink: .stdout)
      .pendingNotificationRequests().map(\.identifier)
    let words = { (text: String) in text.replacingOccurrences(of: "{}", with: paths.folder) }
    // When the command line is asked
    let command = try CommandRunner(environment: ["NOTIFY_DB": paths.store, "TZ": "UTC"]).run(
      commandLine(failure.call, paths))
    // Then it exits with the failure's code and says its words, naming its flags
    #expect(command.status == failure.status, "\(command.stderr)")
    #expect(command.stderr == "notify: error: \(words(failure.commandSays))\n")
    // When the library is asked
    do {
      try await library(failure.call, paths)
      Issue.record("the library did it")
    } catch {
      // Then it throws the case the same reason maps to, with the same words
      #expect(error.caseName == failure.publicCase)
      #expect(error.description == words(failure.librarySays))
      if case .invalidContent(let field, _, _) = error { #expect(field == failure.field) }
      if case .notFound(let ids, _) = error, case .remove(let name) = failure.call { #expect(ids == [name]) }
    }
    // And neither changed the store
    let after = try LocalNotificationCenter(app: Self.app, storePath: paths.store, sink: .stdout)
    #expect(try await after.pendingNotificationRequests().map(\.identifier) == before)
    #expect(try await after.calendars().map(\.name) == ["taken"])
  }
}
