import Foundation
import NotifyCore
import NotifyDesktop
import NotifyStore
import NotifyTestSupport
import Testing

@testable import NotifyService

/// Who a caller is, from what its process shows: the `/.flatpak-info` key file, the
/// decision, and which app ids each kind of caller may pass.
struct SandboxTests {
  static func evidence(_ text: String) -> SandboxEvidence { .flatpakInfo(Array(text.utf8)) }

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var evidence: SandboxEvidence
    var expected: Sandbox?  // nil: unidentified (refused)
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(name: "the daemon's own root", evidence: .sameRoot, expected: Sandbox.none),
    Case(
      name: "a Flatpak app",
      evidence: evidence(
        "[Application]\nname=org.example.Probe\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n\n[Instance]\ninstance-id=123\n"
      ), expected: .flatpak(app: "org.example.Probe")),
    Case(
      name: "spaces, comments and CRLF",
      evidence: evidence("# made by flatpak\r\n  [Application]\r\nname = org.example.Probe\r\n"),
      expected: .flatpak(app: "org.example.Probe")),
    Case(
      name: "a runtime instance names its runtime, as the portal reads it",
      evidence: evidence("[Application]\nname=org.example.Probe\n[Runtime]\nname=org.example.Sdk\n"),
      expected: .flatpak(app: "org.example.Sdk")),
    Case(
      name: "the later key wins",
      evidence: evidence("[Application]\nname=org.example.A\nname=org.example.B\n"),
      expected: .flatpak(app: "org.example.B")),
    Case(name: "no process", evidence: .unknownProcess, expected: nil),
    Case(name: "another root without the file", evidence: .unreadable("no file"), expected: nil),
    Case(name: "no Application group", evidence: evidence("[Instance]\ninstance-id=1\n"), expected: nil),
    Case(name: "an empty file", evidence: evidence(""), expected: nil),
    Case(name: "a key before any group", evidence: evidence("name=org.example.Probe\n"), expected: nil),
    Case(name: "a line that is nothing", evidence: evidence("[Application]\nname\n"), expected: nil),
    Case(
      name: "a broken group header", evidence: evidence("[Application\nname=org.example.Probe\n"),
      expected: nil),
    Case(
      name: "an id notify cannot store",
      evidence: evidence("[Application]\nname=../org.example.Probe\n"), expected: nil),
    Case(
      name: "a trailing space is part of the value, as for GLib",
      evidence: evidence("[Application]\nname=org.example.Probe \n"), expected: nil),
    Case(name: "an empty id", evidence: evidence("[Application]\nname=\n"), expected: nil),
    Case(
      name: "not UTF-8", evidence: .flatpakInfo(Array("[Application]\nname=a".utf8) + [0xFF]), expected: nil),
    Case(
      name: "too long",
      evidence: .flatpakInfo(
        Array("[Application]\nname=org.example.Probe\n#".utf8) + Array(repeating: 0x41, count: 70_000)),
      expected: nil),
  ]

  @Test(arguments: cases) func theDecision(_ test: Case) {
    // Given what the process shows, When it is decided
    let sandbox = Sandbox.decide(test.evidence)
    // Then it is the expected kind; anything unclear is unidentified, never unsandboxed
    if let expected = test.expected {
      #expect(sandbox == expected)
    } else {
      guard case .unidentified(let reason) = sandbox else {
        Issue.record("\(test.name) decided \(sandbox)")
        return
      }
      #expect(!reason.isEmpty)
    }
  }

  @Test func aFlatpakAppActsForItselfOnly() throws {
    let caller = Caller(connection: ":1.3", pid: 42, uid: 1000, sandbox: .flatpak(app: "org.example.Probe"))
    // Its own id and "" both mean itself
    #expect(try caller.app(claimed: "org.example.Probe") == "org.example.Probe")
    #expect(try caller.app(claimed: "") == "org.example.Probe")
    // Another id is NotAllowed, naming both and the fix, its text escaped
    for claimed in ["org.example.Other", "org.example.Probe2", "evil\u{1B}[2J"] {
      do {
        _ = try caller.app(claimed: claimed)
        Issue.record("\(claimed) was taken")
      } catch {
        #expect(error.name == "io.github.notify.Scheduler1.Error.NotAllowed")
        #expect(error.description.contains("the Flatpak app 'org.example.Probe'"), "\(error)")
        #expect(error.description.contains("pass 'org.example.Probe' or an empty app id"))
        #expect(!error.description.contains("\u{1B}"))
      }
    }
  }

  @Test func anUnidentifiedSandboxIsRefusedWhateverItClaims() {
    let caller = Caller(connection: ":1.4", pid: 43, uid: 1000, sandbox: .unidentified(reason: "no file"))
    for claimed in ["org.example.App", ""] {
      #expect(throws: SchedulerError.self) { _ = try caller.app(claimed: claimed) }
    }
    do { _ = try caller.app(claimed: "org.example.App") } catch {
      #expect(error.name == "io.github.notify.Scheduler1.Error.NotAllowed")
      #expect(error.description.contains("(no file)") && error.description.contains("only Flatpak apps"))
    }
  }

  @Test func anUnsandboxedCallerNamesItsAppAsBefore() throws {
    let caller = Caller(connection: ":1.5", pid: 44, uid: 1000)
    #expect(try caller.app(claimed: "org.example.Any") == "org.example.Any")
    #expect(
      throws: SchedulerError.invalidArgs(
        "the app id is empty: name your app (the first argument), as in notify --app ID; [A-Za-z0-9._-]{1,128}"
      )
    ) {
      _ = try caller.app(claimed: "")
    }
  }

  @Test func aServiceCallOfASandboxedCallerActsForItsApp() throws {
    // Given a service on a real store, and a Flatpak caller
    let folder = TemporaryFolder()
    let store = try SQLiteStore(path: folder.file("notify.db"))
    let clock = ManualClock(now: Date(timeIntervalSince1970: 1_790_000_000))
    let service = SchedulerService(store: store, clock: clock, owner: 1000)
    let caller = Caller(connection: ":1.6", pid: 45, uid: 1000, sandbox: .flatpak(app: "org.example.Probe"))
    let request = BusValue.vardict([("id", .string("p1")), ("body", .string("b")), ("in", .string("1h"))])
    // When it schedules with "" and then claims another app
    _ = try service.call("Schedule", [.string(""), .array(element: "a{sv}", [request])], caller: caller)
    #expect(throws: SchedulerError.self) {
      _ = try service.call("ListPending", [.string("org.example.Other")], caller: caller)
    }
    // Then the notification is its app's
    let host = Caller(connection: ":1.7", pid: 46, uid: 1000)
    let listed = try service.call("ListPending", [.string("org.example.Probe")], caller: host)
    guard case .array(_, let items)? = listed.first else {
      Issue.record("ListPending answered \(listed)")
      return
    }
    #expect(items.count == 1)
  }

  @Test func theDaemonsOwnProcessSharesItsRoot() {
    // The adapter on the real /proc: this process is not sandboxed; no pid is unknown
    #expect(ProcessRoot.evidence(pid: getpid()) == .sameRoot)
    #expect(ProcessRoot.evidence(pid: nil) == .unknownProcess)
    guard case .unreadable = ProcessRoot.evidence(pid: Int32.max) else {
      Issue.record("a process that does not exist was not unreadable")
      return
    }
  }
}
