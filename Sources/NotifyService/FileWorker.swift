import CSystemd
import Foundation
import Synchronization

/// A thread of its own for the scheduler's file work (checking, copying and syncing the
/// files a call sends), so that the service's loop answers other callers meanwhile: a
/// job runs here, and its result is handed back on the loop's thread (`attach`), where
/// the call it belongs to is finished and answered. Jobs run one at a time, in order.
final class FileWorker: Sendable {
  /// One job's result, as the loop gets it.
  typealias Finished = (ticket: UInt64, result: any Sendable)

  private struct State {
    var waiting: [(ticket: UInt64, work: @Sendable () -> any Sendable)] = []
    var finished: [Finished] = []
    var next: UInt64 = 1
    var stopped = false
    var thread: Bool = false
  }

  private let state = Mutex(State())
  private let ready = DispatchSemaphore(value: 0)
  /// Written by the worker when a job finished (`ring`); read by the loop (`doorbell`).
  private let doorbell: Int32
  private let ring: Int32

  init() throws(SchedulerError) {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw .failed("cannot make a pipe: \(String(cString: strerror(errno)))") }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    (doorbell, ring) = (ends[0], ends[1])
  }

  deinit {
    close(doorbell)
    close(ring)
  }

  /// Queues `work`, started at once when the worker is idle; returns its ticket.
  func submit(_ work: @escaping @Sendable () -> any Sendable) -> UInt64 {
    let (ticket, start) = state.withLock { state in
      let ticket = state.next
      state.next += 1
      state.waiting.append((ticket, work))
      let start = !state.thread
      state.thread = true
      return (ticket, start)
    }
    if start {
      let thread = Thread { [self] in run() }
      thread.name = "notify-files"
      thread.start()
    } else {
      ready.signal()
    }
    return ticket
  }

  /// The jobs finished since the last call, in the order they were submitted.
  func takeFinished() -> [Finished] {
    var bytes = [UInt8](repeating: 0, count: 64)
    while read(doorbell, &bytes, bytes.count) > 0 {}
    return state.withLock { state in
      defer { state.finished = [] }
      return state.finished
    }
  }

  /// Calls `body` on the loop `event` whenever jobs finished; the source is returned.
  func attach(to event: OpaquePointer, _ body: @escaping () -> Void) -> OpaquePointer? {
    var source: OpaquePointer?
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    _ = sd_event_add_io(
      event, &source, doorbell, UInt32(EPOLLIN.rawValue),
      { _, _, _, userdata in
        Unmanaged<Box>.fromOpaque(userdata!).takeUnretainedValue().body()
        return 0
      }, box)
    _ = sd_event_source_set_destroy_callback(source) { userdata in
      Unmanaged<Box>.fromOpaque(userdata!).release()
    }
    return source
  }

  /// Lets the thread end once its current job is done; jobs still waiting are dropped.
  func stop() {
    state.withLock {
      $0.stopped = true
      $0.waiting = []
    }
    ready.signal()
  }

  private func run() {
    while true {
      let next = state.withLock { state -> (UInt64, @Sendable () -> any Sendable)?? in
        if state.stopped { return .some(nil) }
        return state.waiting.isEmpty ? nil : state.waiting.removeFirst()
      }
      switch next {
      case .some(nil): return
      case .some(let (ticket, work)?):
        let result = work()
        state.withLock { $0.finished.append((ticket, result)) }
        var one: UInt8 = 1
        _ = write(ring, &one, 1)
      case nil:
        ready.wait()
      }
    }
  }

  private final class Box {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
  }
}
