// pool-check-fixture: holds more calls of the library's `async` API blocked than Swift's
// cooperative pool has threads, and checks that an unrelated task still runs. Run by
// `CooperativePoolTests` in a process of its own, under LIBDISPATCH_COOPERATIVE_POOL_STRICT=1
// (a pool of exactly one thread per core), so that no other test's work shares the pool.
//
//   pool-check-fixture DB
//   pool-check-fixture DB present-while-firing   (see PresentWhileFiring.swift)
//   pool-check-fixture - machine-trap            (an impossible event for the firing machine:
//                                                  it must trap; FiringStateMachineTests)
//
// Prints `entered=N ran=true|false delivered=N outside-tasks=true|false` and exits 0 when
// every call was blocked in the sink at once, the unrelated task ran meanwhile, and no
// call ran inside a task (on a thread running a task's job, as `Task.detached` would), 1
// otherwise. The last is the check that fails on Linux too: there libdispatch adds
// threads to the global pool when its threads block, so a blocked pool is hard to see
// from outside.
import Foundation
import Notify
import NotifyCore
import NotifyStore

@main
enum PoolCheckFixture {
  static func main() async throws {
    let db = CommandLine.arguments[1]
    if CommandLine.arguments.dropFirst(2).first == "machine-trap" {
      var machine = FiringStateMachine()
      _ = machine.recorded(now: Date(), next: nil)
      exit(0)  // not reached: an idle machine cannot have recorded anything
    }
    if CommandLine.arguments.dropFirst(2).first == "present-while-firing" {
      exit(try await PresentWhileFiring.run(db: db) ? 0 : 1)
    }
    // More centers than the pool has threads, each with a sink that blocks until the gate
    // opens (a notification server that does not answer).
    let count = ProcessInfo.processInfo.activeProcessorCount + 2
    let gate = Gate()
    let centers = try (0..<count).map { i in
      try LocalNotificationCenter(app: "app\(i)", store: try SQLiteStore(path: db), sink: GatedSink(gate))
    }
    let (entered, ran) = try await withThrowingTaskGroup(of: Void.self) { group in
      for center in centers {
        group.addTask {
          try await center.add(NotificationRequest(content: NotificationContent(title: "x"), trigger: nil))
        }
      }
      // From a thread of its own: wait until every call is in the sink, then start an
      // unrelated task on the global pool and wait for it; open the gate in any case.
      let outcome = await withCheckedContinuation { continuation in
        Thread {
          let entered = gate.waitForEntered(count, deadline: Date() + 60)
          let ran = DispatchSemaphore(value: 0)
          Task.detached { ran.signal() }
          let unrelatedRan = ran.wait(timeout: .now() + 60) == .success
          gate.open()
          continuation.resume(returning: (entered, unrelatedRan))
        }.start()
      }
      try await group.waitForAll()
      return outcome
    }
    let outside = gate.outsideTasks
    print("entered=\(entered ? count : -1) ran=\(ran) delivered=\(gate.delivered) outside-tasks=\(outside)")
    exit(entered && ran && gate.delivered == count && outside ? 0 : 1)
  }
}

/// Counts the calls that entered a `GatedSink` and holds them until opened.
final class Gate: @unchecked Sendable {
  // Safe: every field is read and written holding `condition`.
  private let condition = NSCondition()
  private var entered = 0
  private var isOpen = false
  private var passed = 0
  private var inTask = 0

  /// Blocks until the gate opens (or a minute passes, so a failing check still ends).
  func pass() {
    let insideTask = withUnsafeCurrentTask { $0 != nil }
    condition.withLock {
      if insideTask { inTask += 1 }
      entered += 1
      condition.broadcast()
      let deadline = Date() + 60
      while !isOpen, condition.wait(until: deadline) {}
      passed += 1
    }
  }

  /// Waits until `count` calls entered; false when `deadline` passed first.
  func waitForEntered(_ count: Int, deadline: Date) -> Bool {
    condition.withLock {
      while entered < count { if !condition.wait(until: deadline) { return entered >= count } }
      return true
    }
  }

  func open() {
    condition.withLock {
      isOpen = true
      condition.broadcast()
    }
  }

  var delivered: Int { condition.withLock { passed } }

  /// True when no call reached the sink from inside a task.
  var outsideTasks: Bool { condition.withLock { inTask == 0 } }
}

/// A sink whose deliveries block at the gate.
final class GatedSink: DeliverySink, Sendable {
  let name = "gated"
  let gate: Gate

  init(_ gate: Gate) { self.gate = gate }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    gate.pass()
    return DeliveryReceipt()
  }
}
