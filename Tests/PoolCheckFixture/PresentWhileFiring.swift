// `pool-check-fixture DB present-while-firing`: an app presents from more tasks at once
// than the cooperative pool has threads while its firing service fires, all through one
// center. Prints
// `started=N ran=true|false delivered=N of=N once=true|false serial=true|false outside-tasks=true|false`
// and returns true when every task got to its call while the owner was held in a firing
// hand-off (none blocked a thread of the pool), an unrelated task ran meanwhile, every
// notification (fired and presented) reached the sink exactly once, never two at a time,
// and never from inside a task.
import Foundation
import Notify
import NotifyCore
import NotifyStore
import NotifyTestSupport

enum PresentWhileFiring {
  static func run(db: String) async throws -> Bool {
    let presents = ProcessInfo.processInfo.activeProcessorCount + 2
    let scheduled = 8
    let sink = RecordingSink()
    let center = try LocalNotificationCenter(app: "app", store: try SQLiteStore(path: db), sink: sink)
    return try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await center.firingService().run() }
      defer { group.cancelAll() }
      guard await eventually(timeout: 30, { center.isFiring }) else {
        print("the firing service did not start")
        return false
      }
      // Given the firing loop held in the sink by a due notification of its own
      sink.gate.close()
      let due = Date() + 0.3
      for i in 0..<scheduled {
        try await center.add(
          NotificationRequest(
            identifier: "fired-\(i)", content: NotificationContent(title: "fired \(i)"),
            trigger: .at(due)))
      }
      guard await eventually(timeout: 30, { sink.gate.entered > 0 }) else {
        print("nothing fired")
        return false
      }
      // When more tasks than the pool has threads present at once
      let started = Counter()
      let presenting = Task {
        try await withThrowingTaskGroup(of: Void.self) { presenters in
          for i in 0..<presents {
            presenters.addTask {
              started.add()
              try await center.add(
                NotificationRequest(
                  identifier: "presented-\(i)", content: NotificationContent(title: "presented \(i)"),
                  trigger: nil))
            }
          }
          try await presenters.waitForAll()
        }
      }
      // Then each task gets to its call (none holds a thread while the owner is busy), and
      // an unrelated task runs meanwhile
      let allStarted = await eventually(timeout: 30, { started.value == presents })
      let ran = await unrelatedTaskRuns()
      sink.gate.open()
      try await presenting.value
      // And every notification reaches the sink once, one at a time, outside any task
      let expected = scheduled + presents
      _ = await eventually(timeout: 30, { sink.ids.count >= expected })
      let ids = sink.ids
      let once =
        Set(ids) == Set((0..<scheduled).map { "fired-\($0)" } + (0..<presents).map { "presented-\($0)" })
        && ids.count == expected
      print(
        "started=\(allStarted ? presents : started.value) ran=\(ran) delivered=\(ids.count) of=\(expected) once=\(once) serial=\(sink.serial) outside-tasks=\(sink.outsideTasks)"
      )
      return allStarted && ran && once && sink.serial && sink.outsideTasks
    }
  }

  /// True when a task started on the global pool runs (within 30 s), waited for from a
  /// thread of its own.
  static func unrelatedTaskRuns() async -> Bool {
    await withCheckedContinuation { continuation in
      Thread {
        let ran = DispatchSemaphore(value: 0)
        Task.detached { ran.signal() }
        continuation.resume(returning: ran.wait(timeout: .now() + 30) == .success)
      }.start()
    }
  }
}

/// A count shared between tasks.
final class Counter: @unchecked Sendable {
  // Safe: `count` is read and written holding `lock`.
  private let lock = NSLock()
  private var count = 0
  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

/// A sink that records what it got, whether two deliveries ever overlapped, and whether
/// one came from inside a task; deliveries wait at `gate` while it is closed.
final class RecordingSink: DeliverySink, @unchecked Sendable {
  // Safe: every field is read and written holding `lock`; `gate` is thread-safe.
  let name = "recording"
  let gate = OpenableGate()
  private let lock = NSLock()
  private var recorded: [String] = []
  private var inside = 0
  private var overlapped = false
  private var inTask = false

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    let insideTask = withUnsafeCurrentTask { $0 != nil }
    lock.withLock {
      inside += 1
      if inside > 1 { overlapped = true }
      if insideTask { inTask = true }
    }
    gate.pass()
    lock.withLock {
      recorded.append(delivery.notification.id)
      inside -= 1
    }
    return DeliveryReceipt()
  }

  var ids: [String] { lock.withLock { recorded } }
  var serial: Bool { lock.withLock { !overlapped } }
  var outsideTasks: Bool { lock.withLock { !inTask } }
}

/// Holds whoever passes while closed (at most a minute, so a failing check still ends).
final class OpenableGate: @unchecked Sendable {
  // Safe: every field is read and written holding `condition`.
  private let condition = NSCondition()
  private var isOpen = true
  private var count = 0

  func close() { condition.withLock { isOpen = false } }

  func open() {
    condition.withLock {
      isOpen = true
      condition.broadcast()
    }
  }

  var entered: Int { condition.withLock { count } }

  func pass() {
    condition.withLock {
      count += 1
      let deadline = Date() + 60
      while !isOpen, condition.wait(until: deadline) {}
    }
  }
}
