import Foundation
import NotifyTestSupport
import Testing

/// Malformed input to every command and flag other than `schedule`'s own (those are in
/// NotifyCLITests/BadInputTests.swift): each is refused with the spec's exit code and a
/// message that says what was wrong, echoes nothing that could drive a terminal, and leaves
/// the store byte for byte as it was (SPEC.md §5).
@Suite("Reliability: bad input across commands", .ownThreads)
struct BadInputAcrossCommandsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var status: Int32
    /// Text the message must contain (stderr, or stdout for `sound check` verdicts).
    var says: String
    var environment: [String: String] = [:]
    var testDescription: String { name }
  }

  /// Paths the cases refer to, made fresh for each test in its folder.
  enum Fixture {
    static let notAStore = "@not-a-store"
    static let textFile = "@text-file"
    static let truncatedWAV = "@truncated.wav"
    static let longWAV = "@long.wav"
    static let folder = "@folder"
  }

  static let escape = "\u{1B}[31mred\u{1B}]0;title\u{07}"
  static let deepJSON = String(repeating: "{\"a\":", count: 3000) + "1" + String(repeating: "}", count: 3000)
  static let openJSON = "{\"a\":" + String(repeating: "[", count: 100_000)
  static let noBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/bus", "DISPLAY": ""]

  static let cases: [Case] = [
    // now: content, sinks
    Case(
      name: "now: nothing to show", arguments: ["now", "--sink", "stdout"], status: 65,
      says: "nothing to show"),
    Case(
      name: "now: unknown sink", arguments: ["now", "--sink", "carrier-pigeon", "x"], status: 64,
      says: "--sink"),
    Case(
      name: "now: badge out of range", arguments: ["now", "--badge", "100000", "x"], status: 65, says: "99999"
    ),
    Case(
      name: "now: userInfo an array", arguments: ["now", "--user-info", "[1]", "x"], status: 65,
      says: "object"),
    Case(
      name: "now: userInfo nested 3000 deep", arguments: ["now", "--user-info", deepJSON, "x"], status: 65,
      says: "JSON"),
    Case(
      name: "now: userInfo 100000 open brackets", arguments: ["now", "--user-info", openJSON, "x"],
      status: 65,
      says: "JSON"),
    Case(
      name: "now: userInfo NaN", arguments: ["now", "--user-info", "{\"a\":NaN}", "x"], status: 65,
      says: "JSON"),
    Case(
      name: "now: userInfo lone surrogate", arguments: ["now", "--user-info", "{\"a\":\"\\ud800\"}", "x"],
      status: 65, says: "JSON"),
    Case(
      name: "now: unknown urgency", arguments: ["now", "--urgency", "panic", "x"], status: 65, says: "urgency"
    ),
    Case(
      name: "now: sound escaping its folder", arguments: ["now", "--sound", "../../etc/passwd", "x"],
      status: 65,
      says: "plain file name"),
    Case(
      name: "now: terminal escape in the title", arguments: ["now", "--title", escape, "x"], status: 65,
      says: "control character"),
    Case(
      name: "now: control character in the action", arguments: ["now", "--action", "a\u{01}", "x"],
      status: 65, says: "control character"),
    Case(
      name: "now: control character in the launch image",
      arguments: ["now", "--launch-image", "\u{07}", "x"],
      status: 65, says: "control character"),
    Case(
      name: "now: body of 4001 characters",
      arguments: ["now", "--body", String(repeating: "b", count: 4001)], status: 65, says: "4000"),
    Case(name: "now: bad id", arguments: ["now", "--id", "a b", "x"], status: 65, says: "invalid id"),
    Case(name: "now: body twice", arguments: ["now", "--body", "a", "b"], status: 64, says: "twice"),
    Case(
      name: "now: 100 kB title", arguments: ["now", "--title", String(repeating: "é", count: 60_000)],
      status: 65,
      says: "200"),
    Case(
      name: "now: desktop sink without a session bus", arguments: ["now", "--sink", "desktop", "x"],
      status: 69,
      says: "session", environment: noBus),
    // cancel
    Case(name: "cancel: empty id", arguments: ["cancel", ""], status: 65, says: "invalid id"),
    Case(name: "cancel: ids and --all", arguments: ["cancel", "--all", "keep"], status: 64, says: "--all"),
    Case(name: "cancel: id with a slash", arguments: ["cancel", "a/b"], status: 65, says: "invalid id"),
    Case(
      name: "cancel: id of 129 characters", arguments: ["cancel", String(repeating: "i", count: 129)],
      status: 65, says: "128"),
    Case(
      name: "cancel: terminal escape as id", arguments: ["cancel", escape], status: 65, says: "invalid id"),
    // list
    Case(name: "list: stray argument", arguments: ["list", "extra"], status: 64, says: "extra"),
    Case(name: "list: unknown flag", arguments: ["list", "--colour"], status: 64, says: "--colour"),
    Case(
      name: "list: terminal escape as a stray argument", arguments: ["list", escape], status: 64,
      says: "Unexpected argument"),
    // show
    Case(name: "show: no id", arguments: ["show"], status: 64, says: "<id>"),
    Case(name: "show: bad id", arguments: ["show", "bad id"], status: 65, says: "invalid id"),
    Case(
      name: "show: --upcoming 0", arguments: ["show", "keep", "--upcoming", "0"], status: 64,
      says: "1 to 1000"),
    Case(
      name: "show: --upcoming 1001", arguments: ["show", "keep", "--upcoming", "1001"], status: 64,
      says: "1 to 1000"),
    Case(
      name: "show: --upcoming beyond Int", arguments: ["show", "keep", "--upcoming", "99999999999999999999"],
      status: 64, says: "--upcoming"),
    Case(name: "show: terminal escape as id", arguments: ["show", escape], status: 65, says: "invalid id"),
    // history
    Case(name: "history: --limit 0", arguments: ["history", "--limit", "0"], status: 64, says: "at least 1"),
    Case(
      name: "history: --limit words", arguments: ["history", "--limit", "lots"], status: 64, says: "--limit"),
    Case(
      name: "history: --limit beyond Int", arguments: ["history", "--limit", "99999999999999999999"],
      status: 64,
      says: "--limit"),
    Case(
      name: "history: terminal escape as --limit", arguments: ["history", "--limit", escape], status: 64,
      says: "--limit"),
    // badge
    Case(name: "badge: a fraction", arguments: ["badge", "1.5"], status: 65, says: "not a number"),
    Case(name: "badge: empty", arguments: ["badge", ""], status: 65, says: "not a number"),
    Case(name: "badge: stray argument", arguments: ["badge", "clear", "extra"], status: 64, says: "extra"),
    Case(
      name: "badge: beyond Int", arguments: ["badge", "99999999999999999999"], status: 65, says: "number"),
    // sound
    Case(
      name: "sound check: missing file", arguments: ["sound", "check", "/nonexistent/x.wav"], status: 66,
      says: "no such file"),
    Case(
      name: "sound check: a folder", arguments: ["sound", "check", Fixture.folder], status: 66,
      says: "not a regular file"),
    Case(
      name: "sound check: text, not audio", arguments: ["sound", "check", Fixture.textFile], status: 1,
      says: "text"),
    Case(
      name: "sound check: header claims more data than the file holds",
      arguments: ["sound", "check", Fixture.truncatedWAV], status: 1, says: "truncated"),
    Case(
      name: "sound check: 31 seconds", arguments: ["sound", "check", Fixture.longWAV], status: 1, says: "30"),
    Case(
      name: "sound install: missing file", arguments: ["sound", "install", "/nonexistent/x.wav"], status: 66,
      says: "no such file"),
    Case(
      name: "sound install: text, not audio", arguments: ["sound", "install", Fixture.textFile], status: 65,
      says: "not audio"),
    Case(
      name: "sound install: too long", arguments: ["sound", "install", Fixture.longWAV], status: 65,
      says: "30"),
    Case(
      name: "sound install: app with a slash",
      arguments: ["sound", "install", "--app", "bad/app", Fixture.textFile],
      status: 65, says: "invalid app"),
    Case(
      name: "sound list: app climbing out", arguments: ["sound", "list", "--app", "../x"], status: 65,
      says: "invalid app"),
    // the app, from the environment and the flag
    Case(
      name: "NOTIFY_APP with a space", arguments: ["list"], status: 65, says: "invalid app",
      environment: ["NOTIFY_APP": "bad app"]),
    Case(
      name: "NOTIFY_APP a terminal escape", arguments: ["list"], status: 65, says: "invalid app",
      environment: ["NOTIFY_APP": escape]),
    Case(
      name: "NOTIFY_APP markup", arguments: ["list"], status: 65, says: "invalid app",
      environment: ["NOTIFY_APP": "<b>x</b>"]),
    Case(
      name: "NOTIFY_APP ..", arguments: ["badge"], status: 65, says: "invalid app",
      environment: ["NOTIFY_APP": ".."]),
    Case(name: "--app empty", arguments: ["history", "--app", ""], status: 65, says: "invalid app"),
    // store paths
    Case(name: "--db a folder", arguments: ["list", "--db", Fixture.folder], status: 74, says: "store"),
    Case(
      name: "--db in a folder nobody may create files in", arguments: ["list", "--db", "/proc/notify.db"],
      status: 74, says: "store"),
    Case(
      name: "--db under a regular file", arguments: ["list", "--db", Fixture.textFile + "/notify.db"],
      status: 74, says: "store"),
    Case(
      name: "--db a file that is not a store", arguments: ["list", "--db", Fixture.notAStore], status: 74,
      says: "not a notify database"),
    Case(
      name: "NOTIFY_DB a folder", arguments: ["history"], status: 74, says: "store",
      environment: ["NOTIFY_DB": Fixture.folder]),
    // daemon and fire-due flags (they must refuse and exit, not start)
    Case(
      name: "daemon: unknown sink", arguments: ["daemon", "--sink", "carrier-pigeon"], status: 64,
      says: "--sink"),
    Case(
      name: "daemon: --misfire-grace words", arguments: ["daemon", "--misfire-grace", "soon"], status: 65,
      says: "--misfire-grace"),
    Case(
      name: "daemon: --misfire-grace 0s", arguments: ["daemon", "--misfire-grace", "0s"], status: 65,
      says: "--misfire-grace"),
    Case(
      name: "daemon: --misfire-grace beyond 100 years",
      arguments: ["daemon", "--misfire-grace", "99999999999w"],
      status: 65, says: "--misfire-grace"),
    Case(name: "daemon: stray argument", arguments: ["daemon", "extra"], status: 64, says: "extra"),
    Case(
      name: "daemon: store it cannot create",
      arguments: ["daemon", "--sink", "stdout", "--db", "/proc/notify.db"], status: 74, says: "store"),
    Case(
      name: "daemon: desktop sink without a session bus", arguments: ["daemon", "--sink", "desktop"],
      status: 69,
      says: "session", environment: noBus),
    Case(
      name: "fire-due: --budget words", arguments: ["fire-due", "--budget", "forever"], status: 65,
      says: "--budget"),
    Case(
      name: "fire-due: --budget 0s", arguments: ["fire-due", "--budget", "0s"], status: 65, says: "--budget"),
    Case(
      name: "fire-due: --budget 0ms", arguments: ["fire-due", "--budget", "0ms"], status: 65, says: "--budget"
    ),
    Case(
      name: "fire-due: --budget with a unit of years", arguments: ["fire-due", "--budget", "5y"], status: 65,
      says: "--budget"),
    Case(
      name: "fire-due: unknown sink", arguments: ["fire-due", "--sink", "carrier-pigeon"], status: 64,
      says: "--sink"),
    Case(
      name: "fire-due: --db a folder", arguments: ["fire-due", "--sink", "stdout", "--db", Fixture.folder],
      status: 74, says: "store"),
    Case(
      name: "fire-due: desktop sink without a session bus", arguments: ["fire-due", "--sink", "desktop"],
      status: 69,
      says: "session", environment: noBus),
  ]

  @Test("is refused with the spec's exit code and message, the store untouched", arguments: cases)
  func refused(_ c: Case) throws {
    // Given a store holding one notification, and the fixture files
    let folder = TemporaryFolder(prefix: "notify-bad")
    let db = folder.file("notify.db")
    let seeded = try notify(["schedule", "--app", "tests", "--in", "1h", "--id", "keep", "seed"], db: db)
    try #require(seeded.status == 0, "seeding failed: \(seeded.stderr)")
    try Self.makeFixtures(in: folder)
    let resolve = { (text: String) in
      text.hasPrefix("@") ? text.replacingOccurrences(of: "@", with: folder.path + "/") : text
    }
    let before = try #require(storeBytes(db))
    let notAStore = fileBytes(resolve(Fixture.notAStore))
    // When the bad input is given (with --db unless the case names its own store)
    var arguments = c.arguments.map(resolve)
    var environment = ["NOTIFY_APP": "tests", "XDG_DATA_HOME": folder.file("data")]
    for (key, value) in c.environment { environment[key] = resolve(value) }
    let ownStore = arguments.contains("--db") || environment["NOTIFY_DB"] != nil
    if !ownStore { arguments += ["--db", db] }
    let result = try CommandRunner(
      environment: environment.merging(["JOURNAL_STREAM": "", "INVOCATION_ID": ""]) { $1 }
    )
    .run(arguments, timeout: 30)
    // Then the exit code and message are the spec's
    #expect(result.status == c.status, "stderr: \(result.stderr)")
    let message = result.stderr + result.stdout
    #expect(message.contains(c.says), "output: \(message.prefix(500))")
    if c.status != 1 {
      #expect(
        result.stderr.hasPrefix("notify: error: "),
        "\(result.stderr.prefix(300))")
    }
    // And nothing that could drive a terminal was echoed
    let controls = (result.stderr + result.stdout).unicodeScalars.filter {
      ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
    }
    #expect(
      controls.isEmpty, "raw control characters echoed: \(controls.map { String($0.value, radix: 16) })")
    // And the store, and a file that is not a store, are byte for byte as they were
    #expect(storeBytes(db) == before)
    #expect(fileBytes(resolve(Fixture.notAStore)) == notAStore)
  }

  /// Invalid UTF-8 cannot be put in a Swift string: each goes through /bin/sh and printf.
  struct RawCase: CustomTestStringConvertible, Sendable {
    var name: String
    /// A shell command line; `$N` is notify, `$DB` the store.
    var command: String
    var says: String
    var testDescription: String { name }
  }

  static let rawCases: [RawCase] = [
    RawCase(
      name: "now: body not UTF-8", command: #""$N" now --db "$DB" "$(printf 'caf\351')""#,
      says: "not valid UTF-8"),
    RawCase(
      name: "cancel: id not UTF-8", command: #""$N" cancel --db "$DB" "$(printf 'id\377')""#,
      says: "not valid UTF-8"),
    RawCase(
      name: "show: id not UTF-8", command: #""$N" show --db "$DB" "$(printf 'id\300\200')""#,
      says: "not valid UTF-8"),
    RawCase(
      name: "badge: value not UTF-8", command: #""$N" badge --db "$DB" "$(printf '\377')""#,
      says: "not valid UTF-8"),
    RawCase(
      name: "list: --app not UTF-8", command: #""$N" list --db "$DB" --app "$(printf 'a\355\240\200')""#,
      says: "not valid UTF-8"),
    RawCase(
      name: "NOTIFY_APP not UTF-8", command: #"NOTIFY_APP="$(printf 'app\377')" "$N" list --db "$DB""#,
      says: "app"),
    RawCase(
      name: "NOTIFY_DB not UTF-8", command: #"NOTIFY_DB="$(dirname "$DB")/$(printf 'x\377').db" "$N" list"#,
      says: "UTF-8"),
  ]

  @Test("a value that is not UTF-8 is refused with 65, the store untouched", arguments: rawCases)
  func notUTF8(_ c: RawCase) throws {
    let folder = TemporaryFolder(prefix: "notify-utf8")
    let db = folder.file("notify.db")
    let seeded = try notify(["schedule", "--app", "tests", "--in", "1h", "--id", "keep", "seed"], db: db)
    try #require(seeded.status == 0, "seeding failed: \(seeded.stderr)")
    let before = try #require(storeBytes(db))
    let shell = CommandRunner(
      executable: "/bin/sh",
      environment: [
        "N": CommandRunner.product("notify"), "DB": db, "NOTIFY_APP": "tests", "JOURNAL_STREAM": "",
      ])
    let result = try shell.run(["-c", c.command], timeout: 30)
    #expect(result.status == 65, "stderr: \(result.stderr)")
    #expect(result.stderr.contains(c.says), "stderr: \(result.stderr)")
    #expect(storeBytes(db) == before)
    // Nothing else was created beside the store (a repaired name would be a different file)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      !$0.hasPrefix("notify.db")
    }
    #expect(names.isEmpty, "created \(names)")
  }

  /// The files the cases point at.
  static func makeFixtures(in folder: TemporaryFolder) throws {
    try FileManager.default.createDirectory(atPath: folder.file("folder"), withIntermediateDirectories: true)
    try "just some text\n".write(toFile: folder.file("text-file"), atomically: true, encoding: .utf8)
    try String(repeating: "not a database\n", count: 500).write(
      toFile: folder.file("not-a-store"), atomically: true, encoding: .utf8)
    // 8 kHz mono 8-bit PCM: 31 s is 248,000 bytes; the truncated one claims 100,000 but holds 100.
    try WAV.pcm8(frames: 31 * 8000, rate: 8000).write(to: URL(fileURLWithPath: folder.file("long.wav")))
    try WAV.pcm8(frames: 100, rate: 8000, claimed: 100_000).write(
      to: URL(fileURLWithPath: folder.file("truncated.wav")))
  }
}

/// WAV files written byte by byte, for sound fixtures.
enum WAV {
  /// A mono 8-bit PCM WAV of `frames` samples of silence; its data chunk claims `claimed`
  /// bytes (default: the true size).
  static func pcm8(frames: Int, rate: Int, claimed: Int? = nil) -> Data {
    var data = Data()
    func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { data.append(contentsOf: $0) } }
    func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { data.append(contentsOf: $0) } }
    let size = claimed ?? frames
    data.append(contentsOf: Array("RIFF".utf8))
    u32(36 + size)
    data.append(contentsOf: Array("WAVEfmt ".utf8))
    u32(16)
    u16(1)  // PCM
    u16(1)  // mono
    u32(rate)
    u32(rate)  // byte rate
    u16(1)  // block align
    u16(8)  // bits
    data.append(contentsOf: Array("data".utf8))
    u32(size)
    data.append(Data(repeating: 0x80, count: frames))
    return data
  }
}
