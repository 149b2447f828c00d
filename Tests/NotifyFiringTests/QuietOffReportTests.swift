import Foundation
import NotifyTestSupport
import Testing

/// `notify quiet off` must not say "held: 6, shown when quiet ends" once quiet has ended.
/// What it says of the held notifications is what then happens: a running daemon
/// or app process shows them at once (the store change wakes it), and with neither they
/// wait for a `fire-due` run, which then shows them.
@Suite(.ownThreads)
struct QuietOffReportTests {
  enum Case: String, CaseIterable, CustomTestStringConvertible {
    case daemon, app
    case fireDue = "fire-due"
    case fireDueWithTimer = "fire-due, notify-fire.timer enabled"
    var testDescription: String { rawValue }
    var firer: StdoutFirer {
      switch self {
      case .daemon: .daemon
      case .app: .app
      case .fireDue, .fireDueWithTimer: .fireDue
      }
    }
  }

  @Test("quiet off says who shows the held ones, and they do", arguments: Case.allCases)
  func quietOff(situation: Case) throws {
    // Given a firer, a user systemd configuration of the test's own, and quiet hours on
    let f = try FiringFixture()
    let config = f.folder.file("config")
    if situation == .fireDueWithTimer {
      let wants = config + "/systemd/user/timers.target.wants"
      try FileManager.default.createDirectory(atPath: wants, withIntermediateDirectories: true)
      FileManager.default.createFile(atPath: wants + "/notify-fire.timer", contents: Data())
    }
    let environment = ["XDG_CONFIG_HOME": config]
    let firing = try StdoutFiring(f, situation.firer)
    #expect(try notify(["quiet", "on"], db: f.path).status == 0)
    // When two notifications fall due during them
    let due = Date() + (firing.resident == nil ? 0 : 0.3)
    try f.schedule("a", at: due)
    try f.schedule("b", at: due)
    try firing.act()
    // Then both are held, and quiet says they are shown when it ends
    #expect(waitUntil(timeout: 10) { f.ids(.held).sorted() == ["a", "b"] }, "\(firing.log)")
    let quiet = try notify(["quiet"], db: f.path, environment: environment)
    #expect(quiet.stdout.hasSuffix("\nheld: 2, shown when quiet ends\n"), "\(quiet.stdout)")
    // When quiet hours are turned off
    let off = try notify(["quiet", "off"], db: f.path, environment: environment)
    #expect(off.status == 0, "\(off.stderr)")
    // Then it says what happens to them, never that they wait for quiet to end
    let said = off.stdout.split(separator: "\n").dropFirst().map(String.init)
    let pid = firing.resident?.pid ?? 0
    let expected =
      switch situation {
      case .daemon: "released: 2, quiet hours are over: the daemon (pid \(pid)) shows them now"
      case .app: "released: 2, quiet hours are over: test's own process (pid \(pid)) shows them now"
      case .fireDue:
        "held: 2, quiet hours are over but no daemon is running: they are shown when notify daemon starts or notify fire-due runs"
      case .fireDueWithTimer:
        "held: 2, quiet hours are over but no daemon is running: the next notify fire-due run (notify-fire.timer, within a minute) shows them"
      }
    #expect(said == [expected], "\(off.stdout)")
    // And that is what happens: the running firer shows both at once; else they stay held
    // until a fire-due run shows them
    if firing.resident == nil {
      #expect(QuietState.of(f) == QuietState(quiet: false, held: 2))
      #expect(firing.printed.isEmpty)
      try firing.act()
    }
    #expect(waitUntil(timeout: 10) { Set(firing.printed.map(\.id)) == ["a", "b"] }, "\(firing.log)")
    #expect(waitUntil(timeout: 10) { f.ids(.delivered).sorted() == ["a", "b"] }, "\(firing.log)")
    #expect(QuietState.of(f) == QuietState(quiet: false, held: 0))
    firing.stop()
  }
}
