import Foundation
import NotifyCore
import NotifyFiring
import Testing

/// Who fires, for in-process tests of the one engine: as `notify daemon` drives it (one
/// long-lived firer woken by its loop), as an app firing in process drives it (the same,
/// for its own notifications only), and as `notify fire-due` does (every run a firer of its
/// own that runs once and ends).
enum EngineDriver: String, CaseIterable, CustomTestStringConvertible {
  case daemon, app
  case fireDue = "fire-due"
  var testDescription: String { rawValue }
}

/// The one engine on a test's store, sink and clock, driven as `driver` drives it.
final class EngineRun {
  let driver: EngineDriver
  let store: any FiringStore
  let sink: any DeliverySink
  let clock: ManualClock
  let identity: FirerIdentity
  private var resident: Firer?

  init(
    _ driver: EngineDriver, store: any FiringStore, sink: any DeliverySink, clock: ManualClock,
    identity: FirerIdentity = .current
  ) {
    self.driver = driver
    self.store = store
    self.sink = sink
    self.clock = clock
    self.identity = identity
  }

  /// One look: the resident firer's wake-up (what its loop does at the timer or a store
  /// change), or one whole `fire-due` run. Returns when the resident firer asked to be
  /// woken next (nil for a run, which arms nothing).
  @discardableResult
  func look() throws -> Date? {
    switch driver {
    case .daemon, .app:
      let firer = resident ?? makeFirer()
      resident = firer
      return try firer.wake().next
    case .fireDue:
      _ = try FireDue.run(firer: makeFirer(), budget: 25, clock: clock)
      return nil
    }
  }

  private func makeFirer() -> Firer {
    Firer(
      store: store, sink: sink, identity: identity, clock: clock, sounds: UncheckedSounds(),
      options: .init(app: driver == .app ? "test" : nil))
  }
}
