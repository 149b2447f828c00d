import Foundation
import NotifyCore
import Testing

@testable import NotifyService

/// Whether a connection's pid still holds the process that made it: pure decisions over
/// what the bus and `/proc` said, with the times given.
@Suite("Caller origin: the process that made the connection, not one that took its pid")
struct CallerOriginTests {
  @Test func aNameSeenArrivingIsBoundedByItsOwnTime() {
    var arrivals = ConnectionArrivals()
    arrivals.arrived(":1.5", at: 100)
    arrivals.arrived(":1.9", at: 200)
    arrivals.arrived(":1.7", at: 300)  // (out of order: ignored; names come in order)
    #expect(arrivals.appeared(":1.5", now: 999) == 100)
    #expect(arrivals.appeared(":1.9", now: 999) == 200)
    // A name not seen is bounded by the next one seen; before the first, by the first
    #expect(arrivals.appeared(":1.7", now: 999) == 200)
    #expect(arrivals.appeared(":1.2", now: 999) == 100)
    // One after every name seen: only now is sure; no unique name: no answer
    #expect(arrivals.appeared(":1.10", now: 999) == 999)
    #expect(arrivals.appeared(":2.0", now: 999) == 999)
    #expect(arrivals.appeared("org.example.App", now: 999) == nil)
  }

  @Test func pastItsCapacityTheBoundStaysTrue() {
    var arrivals = ConnectionArrivals(capacity: 4)
    for serial in 1...10 { arrivals.arrived(":1.\(serial)", at: UInt64(serial) * 10) }
    // The oldest were dropped: their bound is a later name's time, never an earlier one
    let bound = arrivals.appeared(":1.1", now: 999) ?? 0
    #expect(bound >= 10 && bound <= 999)
    #expect(arrivals.appeared(":1.10", now: 999) == 100)
  }

  @Test(
    "the process at the pid is the one that connected unless it started after, or its pidfd says it exited",
    arguments: [
      (ProcessOrigin.started(at: 1_000, connectionBy: 2_000), true),
      (ProcessOrigin.started(at: 2_000, connectionBy: 2_000), true),
      (ProcessOrigin.started(at: 2_001, connectionBy: 2_000), false),
      (ProcessOrigin.pidfd(alive: true), true),
      (ProcessOrigin.pidfd(alive: false), false),
      (ProcessOrigin.unknown("gone"), false),
    ])
  func origins(origin: ProcessOrigin, trusted: Bool) {
    let sandbox = Sandbox.decide(.sameRoot, origin: origin, pid: 42)
    if trusted {
      #expect(sandbox == Sandbox.none)
    } else {
      guard case .unverified = sandbox else {
        Issue.record("\(origin) was trusted: \(sandbox)")
        return
      }
      let caller = Caller(connection: ":1.4", pid: 42, uid: 1000, sandbox: sandbox)
      #expect(throws: SchedulerError.self) { try caller.app(claimed: "org.example.B") }
    }
  }

  @Test func aProcessStartTimeIsReadOnTheClockOfBoot() throws {
    // This process started before now, on CLOCK_BOOTTIME
    let start = try #require(ProcessStart.bootNanoseconds(pid: getpid()))
    #expect(start <= ProcessStart.now())
    #expect(ProcessStart.bootNanoseconds(pid: Int32.max) == nil)
  }
}
