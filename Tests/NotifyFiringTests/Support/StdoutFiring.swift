import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

/// Who fires, for tests that run each way in on the stdout sink: the daemon, an app firing
/// its own in process, and `fire-due` runs.
enum StdoutFirer: String, CaseIterable, CustomTestStringConvertible {
  case daemon, app
  case fireDue = "fire-due"
  var testDescription: String { rawValue }
}

/// A firer on the stdout sink: a resident one (ready when made), or `fire-due` runs.
final class StdoutFiring {
  let f: FiringFixture
  private(set) var resident: ChildProcess?
  private var runs: [String] = []
  /// What each firer runs with, besides the store: `fire-due` runs get it too.
  private let environment: [String: String]

  init(_ f: FiringFixture, _ firer: StdoutFirer, name: String = "d", environment: [String: String] = [:])
    throws
  {
    self.f = f
    self.environment = environment
    switch firer {
    case .daemon, .app:
      let process = try ChildProcess.firer(
        firer == .daemon ? .daemon : .app, db: f.path, folder: f.folder, name: name, environment: environment)
      #expect(process.waitReady(), "\(process.stderr)")
      resident = process
    case .fireDue: resident = nil
    }
  }

  /// Lets the firer act: a resident one acts by itself; `fire-due` is run once.
  func act() throws {
    guard resident == nil else { return }
    let run = try notify(["fire-due", "--sink", "stdout"], db: f.path, environment: environment)
    #expect(run.status == 0, "\(run.stderr)")
    runs += run.stdout.split(separator: "\n").map(String.init)
  }

  /// Schedules `id` (app `test`) due at once, lets the firer act, and waits until it is
  /// recorded `kind`.
  func fire(_ id: String, until kind: HistoryEvent.Kind = .delivered) throws {
    try f.schedule(id, at: Date() + (resident == nil ? 0 : 0.3))
    try act()
    #expect(
      waitUntil(timeout: 10) { (try? self.f.events(kind).map(\.notificationID))?.contains(id) == true },
      "\(resident?.stderr ?? "")")
  }

  /// What the stdout sink printed, in order.
  var printed: [Delivered] {
    resident.map(\.deliveries) ?? runs.compactMap { Delivered(line: $0) }
  }

  /// What the firer logged (a resident one).
  var log: String { resident?.stderr ?? "" }

  /// Stops a resident firer (SIGTERM) and waits for it to exit; what it printed is then all
  /// it ever will. Does nothing for `fire-due`, whose runs have exited, or once stopped.
  func stop() {
    guard let resident, resident.isRunning else { return }
    resident.send(SIGTERM)
    #expect(resident.waitExit() == 0, "\(resident.stderr)")
  }

  /// Waits until the store has settled (nothing due, no claim held), then stops the firer:
  /// a check that nothing more was printed is meaningful after this.
  func settle() {
    #expect(f.waitSettled(), "\(log)")
    stop()
  }
}
