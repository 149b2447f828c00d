import Foundation
import Logging
import Notify
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// logind's sleep as a firing loop hears it (`SleepWatch`, the loop's companion), against
/// `python3-dbusmock`'s logind on a private bus standing in for the system bus. No machine
/// here can suspend: the firer's clock is moved as a sleep would move it, and logind's
/// announcements are what a real suspend sends.
@Suite("sleep and resume: logind's announcements", .serialized, .ownThreads, .needsLogindMock)
struct SleepWatchTests {
  @Test(
    "PrepareForSleep(false) delivers what fell due while asleep at once, without waiting for a timer that counted while asleep"
  )
  func resumeLooksAgain() async throws {
    // Given logind, a store with a notification due in an hour and a firing loop whose
    // clock says now, armed for it
    let folder = TemporaryFolder(prefix: "notify-sleep")
    let bus = try PrivateBus(in: folder)
    let logind = try LogindMock(address: bus.address, in: folder)
    let path = folder.file("notify.db")
    let store = try SQLiteStore(path: path)
    let start = Date()
    let clock = ManualClock(now: start)
    // (whole seconds: the store keeps milliseconds)
    let due = Date(timeIntervalSince1970: (start.timeIntervalSince1970 + 3600).rounded())
    _ = try store.schedule(
      LocalNotification(
        id: "alarm", app: "test", schedule: Schedule(fireDate: .instant(due)), title: "Wake up",
        createdAt: start),
      zones: testZones(.utc))
    let sink = RecordingSink()
    let firer = Firer(
      store: try SQLiteStore(path: path), sink: sink, identity: .current, clock: clock,
      sounds: UncheckedSounds())
    let loop = FiringLoop(
      firer: firer, clock: clock, configuration: .init(storePath: path, handlesSignals: false),
      hooks: .init(companions: [SleepWatch(logger: Logger(label: "test"), systemBus: bus.address)]))
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await loop.run() }
      #expect(await eventually(timeout: 60) { loop.isReady })
      // When the machine goes to sleep and wakes two hours later (the clock moves; the
      // loop's realtime timer, armed for an hour after the real now, does not fire)
      try logind.prepareForSleep(true)
      clock.advance(by: 7200)
      // (settled: the loop sleeps on a timer an hour away and nothing changed in the store)
      #expect(sink.deliveries.isEmpty)
      try logind.prepareForSleep(false)
      // Then what fell due is delivered at once, late, by the resume alone
      #expect(await eventually(timeout: 30) { !sink.deliveries.isEmpty })
      let delivery = try #require(sink.deliveries.first)
      #expect(delivery.notification.id == "alarm")
      #expect(delivery.late)
      #expect(delivery.fireDate == due)
      group.cancelAll()
      try await group.waitForAll()
    }
    // And nothing is left pending, nor any inhibitor held
    #expect(try store.pending(app: nil).isEmpty)
    #expect(try logind.inhibitors().isEmpty)
  }
}
