import Foundation
import NotifyTestSupport
import Testing

/// Every malformed input gets the spec's exit code, a message naming the fix, and leaves
/// the store byte for byte as it was. These run the built binary.
@Suite("Bad input, end to end", .ownThreads)
struct BadInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var arguments: [String]
    var status: Int32
    var says: String
    var testDescription: String { name }
  }

  static let longTitle = String(repeating: "t", count: 201)
  static let longBody = String(repeating: "b", count: 4001)
  static let bigUserInfo = "{\"k\":\"" + String(repeating: "x", count: 4100) + "\"}"

  static let cases: [Case] =
    [
      Case(
        name: "category set: bad identifier", arguments: ["category", "set", "a b", "--button", "k:K"],
        status: 65, says: "invalid category 'a b'"),
      Case(
        name: "category set: 5 actions",
        arguments: [
          "category", "set", "big", "--button", "a:A", "--button", "b:B", "--button", "c:C", "--button",
          "d:D",
          "--snooze", "5m",
        ], status: 65, says: "category 'big': the notification has 5 actions"),
      Case(
        name: "category set: a reserved key", arguments: ["category", "set", "c", "--button", "default:D"],
        status: 65, says: "reserved"),
      Case(
        name: "category remove: bad identifier", arguments: ["category", "remove", "a/b"], status: 65,
        says: "invalid category"),
      Case(
        name: "schedule: bad category", arguments: ["schedule", "--in", "1m", "--category", "no way", "x"],
        status: 65, says: "invalid category 'no way'"),
      Case(name: "no fire date", arguments: ["schedule", "x"], status: 64, says: "--at WHEN or --in"),
      Case(
        name: "--at and --in", arguments: ["schedule", "--at", "09:00", "--in", "1m", "x"], status: 64,
        says: "only one"),
      Case(
        name: "bad date", arguments: ["schedule", "--at", "2026-13-40T09:00", "x"], status: 65, says: "at"),
      Case(
        name: "words as a date", arguments: ["schedule", "--at", "tomorrow", "x"], status: 65, says: "at"),
      Case(name: "Feb 30", arguments: ["schedule", "--at", "2027-02-30T09:00", "x"], status: 65, says: "at"),
      Case(name: "hour 24", arguments: ["schedule", "--at", "24:00", "x"], status: 65, says: "at"),
      Case(name: "--in 0s", arguments: ["schedule", "--in", "0s", "x"], status: 65, says: "in"),
      Case(name: "--in negative", arguments: ["schedule", "--in", "-5m", "x"], status: 65, says: "in"),
      Case(name: "--in unknown unit", arguments: ["schedule", "--in", "5y", "x"], status: 65, says: "in"),
      Case(
        name: "unknown repeat unit", arguments: ["schedule", "--in", "1m", "--repeat", "fortnight", "x"],
        status: 65, says: "minute, hour, day"),
      Case(
        name: "--repeat-count without --repeat",
        arguments: ["schedule", "--in", "1m", "--repeat-count", "3", "x"], status: 64, says: "--repeat"),
      Case(
        name: "--repeat-count 0",
        arguments: ["schedule", "--in", "1m", "--repeat", "day", "--repeat-count", "0", "x"], status: 65,
        says: "repeat-count"),
      Case(
        name: "--time-zone with an offset time",
        arguments: ["schedule", "--at", "2026-11-22T09:00:00+01:00", "--time-zone", "Europe/Berlin", "x"],
        status: 64, says: "time-zone"),
      Case(
        name: "--time-zone with --in",
        arguments: ["schedule", "--in", "1m", "--time-zone", "Europe/Berlin", "x"], status: 64,
        says: "time-zone"),
      Case(
        name: "unknown zone", arguments: ["schedule", "--at", "09:00", "--time-zone", "Mars/Olympus", "x"],
        status: 65, says: "Mars/Olympus"),
      Case(
        name: "negative badge", arguments: ["schedule", "--in", "1m", "--badge", "-1", "x"], status: 65,
        says: "0 to 99999"),
      Case(
        name: "huge badge", arguments: ["schedule", "--in", "1m", "--badge", "100000", "x"], status: 65,
        says: "0 to 99999"),
      Case(
        name: "badge beyond Int",
        arguments: ["schedule", "--in", "1m", "--badge", "99999999999999999999999", "x"], status: 65,
        says: "number"),
      Case(
        name: "userInfo not JSON", arguments: ["schedule", "--in", "1m", "--user-info", "{room:4B}", "x"],
        status: 65, says: "JSON"),
      Case(
        name: "userInfo an array", arguments: ["schedule", "--in", "1m", "--user-info", "[1,2]", "x"],
        status: 65, says: "object"),
      Case(
        name: "userInfo a string", arguments: ["schedule", "--in", "1m", "--user-info", "\"hi\"", "x"],
        status: 65, says: "object"),
      Case(
        name: "userInfo too big", arguments: ["schedule", "--in", "1m", "--user-info", bigUserInfo, "x"],
        status: 65, says: "4096"),
      Case(
        name: "bad id", arguments: ["schedule", "--in", "1m", "--id", "has space", "x"], status: 65,
        says: "A-Z a-z 0-9"),
      Case(
        name: "id too long",
        arguments: ["schedule", "--in", "1m", "--id", String(repeating: "i", count: 129), "x"], status: 65,
        says: "128"),
      Case(
        name: "bad app", arguments: ["schedule", "--in", "1m", "--app", "my/app", "x"], status: 65,
        says: "app"),
      Case(
        name: "title too long", arguments: ["schedule", "--in", "1m", "--title", longTitle, "x"], status: 65,
        says: "200"),
      Case(name: "body too long", arguments: ["schedule", "--in", "1m", longBody], status: 65, says: "4000"),
      Case(
        name: "control character", arguments: ["schedule", "--in", "1m", "bell\u{07}"], status: 65,
        says: "control character"),
      Case(
        name: "terminal escape", arguments: ["schedule", "--in", "1m", "--title", "\u{1B}[31mred", "x"],
        status: 65, says: "control character"),
      Case(
        name: "nothing to show", arguments: ["schedule", "--in", "1m"], status: 65, says: "nothing to show"),
      Case(
        name: "sound name with a slash",
        arguments: ["schedule", "--in", "1m", "--sound", "../../etc/passwd", "x"], status: 65,
        says: "plain file name"),
      Case(
        name: "hidden sound name", arguments: ["schedule", "--in", "1m", "--sound", ".secret.wav", "x"],
        status: 65, says: "plain file name"),
      Case(
        name: "unknown urgency", arguments: ["schedule", "--in", "1m", "--urgency", "panic", "x"], status: 65,
        says: "low, normal or critical"),
      Case(
        name: "--until before the first fire",
        arguments: [
          "schedule", "--at", "2030-01-02T09:00:00Z", "--repeat", "day", "--until", "2030-01-01T00:00:00Z",
          "x",
        ], status: 65, says: "until"),
      Case(
        name: "unknown flag", arguments: ["schedule", "--in", "1m", "--colour", "red", "x"], status: 64,
        says: "colour"),
      Case(name: "cancel nothing", arguments: ["cancel"], status: 64, says: "--all"),
      Case(name: "cancel an unknown id", arguments: ["cancel", "nope"], status: 1, says: "not pending"),
      Case(name: "badge not a number", arguments: ["badge", "lots"], status: 65, says: "number"),
      Case(name: "badge too big", arguments: ["badge", "100000"], status: 65, says: "99999"),
      Case(name: "badge negative", arguments: ["badge", "-1"], status: 65, says: "99999"),
      Case(
        name: "badge unknown option", arguments: ["badge", "--bogus"], status: 64, says: "unknown option"),
      Case(name: "show an unknown id", arguments: ["show", "nope"], status: 1, says: "not pending"),
      Case(
        name: "settings: not on or off", arguments: ["settings", "--alerts", "maybe"], status: 64,
        says: "one of 'on' and 'off'"),
      Case(
        name: "settings: --all-apps with a switch", arguments: ["settings", "--all-apps", "--sounds", "off"],
        status: 64, says: "--default"),
      Case(
        name: "settings: --app with --default",
        arguments: ["settings", "--app", "a", "--default", "--badges", "off"],
        status: 64, says: "give one"),
      Case(
        name: "a one-character title of 20001 bytes",
        arguments: [
          "schedule", "--in", "1m", "--title", "a" + String(repeating: "\u{301}", count: 10_000), "x",
        ],
        status: 65, says: "bytes of UTF-8"),
      Case(
        name: "quiet: --from without --to", arguments: ["quiet", "--from", "22:00"], status: 64, says: "--to"),
      Case(
        name: "quiet: hour 25", arguments: ["quiet", "--from", "25:00", "--to", "07:00"], status: 65,
        says: "25:00"),
      Case(
        name: "quiet: unknown day",
        arguments: ["quiet", "--from", "22:00", "--to", "07:00", "--days", "funday"],
        status: 65, says: "funday"),
      Case(
        name: "quiet: --for without on", arguments: ["quiet", "off", "--for", "1h"], status: 64, says: "'on'"),
      Case(
        name: "quiet: bad duration", arguments: ["quiet", "on", "--for", "soon"], status: 65, says: "soon"),
      Case(
        name: "quiet: --for and --until", arguments: ["quiet", "on", "--for", "1h", "--until", "07:00"],
        status: 64,
        says: "--until"),
      Case(name: "quiet: neither on nor off", arguments: ["quiet", "maybe"], status: 64, says: "'on'"),
      Case(
        name: "rule: month day 32",
        arguments: ["schedule", "--at", "09:00", "--rrule", "FREQ=MONTHLY;BYMONTHDAY=32", "x"],
        status: 65, says: "'BYMONTHDAY=32'"),
      Case(
        name: "rule: never fires",
        arguments: ["schedule", "--at", "09:00", "--rrule", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "x"],
        status: 65, says: "'BYMONTH=2;BYMONTHDAY=30'"),
      Case(
        name: "rule: steps miss BYHOUR",
        arguments: [
          "schedule", "--at", "2030-01-01T00:00", "--rrule", "FREQ=HOURLY;INTERVAL=2;BYHOUR=3", "x",
        ],
        status: 65, says: "'INTERVAL=2;BYHOUR=3'"),
      Case(
        name: "rule: Monday minutes from year 1000",
        arguments: [
          "schedule", "--at", "1000-01-01T00:00", "--rrule", "FREQ=MINUTELY;BYDAY=MO;BYHOUR=9", "x",
        ],
        status: 65, says: "'BYDAY=MO'"),
      Case(
        name: "rule: month days from year 1",
        arguments: ["schedule", "--at", "0001-01-01T09:00", "--rrule", "FREQ=DAILY;BYDAY=MO,FR", "x"],
        status: 65, says: "'BYDAY=MO,FR'"),
      Case(
        name: "rule: unknown part",
        arguments: ["schedule", "--at", "09:00", "--rrule", "FREQ=DAILY;BYFOO=1", "x"],
        status: 65, says: "'BYFOO=1'"),
      Case(
        name: "rule: SECONDLY", arguments: ["schedule", "--at", "09:00", "--rrule", "FREQ=SECONDLY", "x"],
        status: 65, says: "FREQ=MINUTELY"),
      Case(
        name: "rule with --repeat",
        arguments: ["schedule", "--at", "09:00", "--rrule", "FREQ=DAILY", "--repeat", "day", "x"],
        status: 64, says: "--repeat and --rrule"),
      Case(
        name: "--on with --repeat",
        arguments: ["schedule", "--at", "09:00", "--on", "mon", "--repeat", "week", "x"],
        status: 64, says: "--repeat and --on"),
      Case(
        name: "--rrule with --every",
        arguments: ["schedule", "--at", "09:00", "--rrule", "FREQ=DAILY", "--every", "2d", "x"],
        status: 64, says: "--rrule and --every"),
      Case(
        name: "--repeat-count with COUNT",
        arguments: [
          "schedule", "--at", "09:00", "--rrule", "FREQ=DAILY;COUNT=2", "--repeat-count", "3", "x",
        ],
        status: 64, says: "--repeat-count and COUNT"),
      Case(
        name: "--until with UNTIL",
        arguments: [
          "schedule", "--at", "09:00", "--rrule", "FREQ=DAILY;UNTIL=20991231", "--until", "2099-01-01T00:00",
          "x",
        ],
        status: 64, says: "--until and UNTIL"),
      Case(
        name: "--every 2x", arguments: ["schedule", "--at", "09:00", "--every", "2x", "x"], status: 65,
        says: "--every"),
      Case(
        name: "--on funday", arguments: ["schedule", "--at", "09:00", "--on", "funday", "x"], status: 65,
        says: "--on funday"),
      Case(
        name: "--except without a rule",
        arguments: ["schedule", "--at", "09:00", "--except", "2030-01-01", "x"],
        status: 64, says: "--except"),
      Case(
        name: "--except not a date",
        arguments: ["schedule", "--at", "09:00", "--on", "mon", "--except", "soon", "x"],
        status: 65, says: "--except"),
      Case(
        name: "settings: bad app id", arguments: ["settings", "--app", "a/b", "--alerts", "off"], status: 65,
        says: "app"),
      Case(
        name: "--keep-entries too small", arguments: ["history", "--keep-entries", "5"], status: 65,
        says: "--keep-entries '5'"),
      Case(
        name: "--keep-days 0", arguments: ["history", "--keep-days", "0"], status: 65, says: "--keep-days '0'"
      ),
      Case(
        name: "--keep-days not a number", arguments: ["history", "--keep-days", "ninety"], status: 65,
        says: "from 1 to 36525"),
      // Actions: each refused on `schedule` and on `now`.
    ]
    + actionCases.flatMap { c in
      [
        Case(
          name: "schedule: " + c.name, arguments: ["schedule", "--in", "1m"] + c.arguments + ["x"],
          status: c.status, says: c.says),
        Case(
          name: "now: " + c.name, arguments: ["now", "--sink", "stdout"] + c.arguments + ["x"],
          status: c.status, says: c.says),
      ]
    }

  static let actionCases: [Case] = [
    Case(
      name: "too many actions",
      arguments: [
        "--button", "a:A", "--button", "b:B", "--button", "c:C", "--snooze", "1m", "--snooze", "2m",
      ],
      status: 65, says: "at most 4"),
    Case(name: "empty label", arguments: ["--button", "a:"], status: 65, says: "is empty"),
    Case(name: "blank label", arguments: ["--button", "a:   "], status: 65, says: "is empty"),
    Case(name: "no label", arguments: ["--button", "archive"], status: 65, says: "KEY:LABEL"),
    Case(
      name: "label over 40 characters", arguments: ["--button", "a:" + String(repeating: "é", count: 41)],
      status: 65, says: "at most 40"),
    Case(
      name: "duplicate keys", arguments: ["--button", "a:A", "--button", "a:B"], status: 65,
      says: "given twice"),
    Case(
      name: "button and reply with one key", arguments: ["--button", "r:A", "--text-button", "r:Reply"],
      status: 65, says: "given twice"),
    Case(
      name: "duplicate snooze", arguments: ["--snooze", "10m", "--snooze", "600s"], status: 65, says: "once"),
    Case(
      name: "reserved key default", arguments: ["--button", "default:Open"], status: 65, says: "reserved"),
    Case(
      name: "reserved key inline-reply", arguments: ["--button", "inline-reply:R"], status: 65,
      says: "reserved"),
    Case(
      name: "reserved notify. prefix", arguments: ["--button", "notify.snooze.60:S"], status: 65,
      says: "reserved"),
    Case(name: "key with a space", arguments: ["--button", "a b:A"], status: 65, says: "A-Z a-z 0-9"),
    Case(
      name: "key over 64 bytes", arguments: ["--button", String(repeating: "k", count: 65) + ":A"],
      status: 65, says: "1 to 64"),
    Case(
      name: "control character in a label", arguments: ["--button", "a:A\u{1B}[31m"], status: 65,
      says: "U+001B"),
    Case(name: "line break in a label", arguments: ["--button", "a:A\nB"], status: 65, says: "line break"),
    Case(
      name: "control character in a placeholder",
      arguments: ["--text-button", "r:Reply", "--placeholder", "x\u{7}"], status: 65, says: "U+0007"),
    Case(
      name: "placeholder without a reply", arguments: ["--placeholder", "say"], status: 64,
      says: "--text-button"),
    Case(name: "snooze of zero", arguments: ["--snooze", "0s"], status: 65, says: "--snooze"),
    Case(name: "snooze past 30 days", arguments: ["--snooze", "31d"], status: 65, says: "30d"),
    Case(name: "snooze with no unit", arguments: ["--snooze", "10"], status: 65, says: "--snooze"),
  ]

  @Test("is refused with the spec's exit code and the store untouched", arguments: cases)
  func refused(_ c: Case) throws {
    // Given a store that already holds one notification
    let store = try SeededStore()
    // When the bad input is given
    let result = try store.notify.run(c.arguments)
    // Then the exit code and message are the spec's, and the store is byte for byte the same
    #expect(result.status == c.status, "stderr: \(result.stderr)")
    #expect(result.stderr.contains(c.says), "stderr: \(result.stderr)")
    if c.status != 64 || result.stderr.contains("notify: error:") {
      #expect(result.stderr.contains("notify: "), "stderr: \(result.stderr)")
    }
    #expect(store.isUntouched)
  }

  @Test("an argument that is not UTF-8 is refused with 65")
  func invalidUTF8() throws {
    let folder = TemporaryFolder()
    let db = folder.file("notify.db")
    let shell = CommandRunner(executable: "/bin/sh", environment: ["NOTIFY_DB": db])
    let result = try shell.run([
      "-c", "\"$0\" schedule --in 1m \"$(printf 'caf\\351')\"", CommandRunner.product("notify"),
    ])
    #expect(result.status == 65)
    #expect(result.stderr.contains("not valid UTF-8"))
    #expect(!FileManager.default.fileExists(atPath: db))
  }
}
