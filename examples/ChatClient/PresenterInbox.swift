import Synchronization

/// What the presenter is told, in the order it happened.
enum PresenterInput: Hashable, Sendable {
  /// A message that deserves a notification was read from the server.
  case message(ChatMessage)
  /// The user read everything (typed a line, or opened a notification).
  case read
}

/// The presenter's inbox: the IRC reader, stdin and the event watcher put inputs in and
/// never wait; the presenter takes everything that arrived at once, or waits for more.
///
/// A lock rather than an actor: the producers are synchronous code that must not be held
/// up, least of all the IRC reader, and an actor would make them await. The lock is held
/// only to move values in and out, never across an await or any I/O.
final class PresenterInbox: Sendable {
  private struct State {
    var inputs: [PresenterInput] = []
    var closed = false
    /// A wake-up that came while nobody waited; the next wait returns at once.
    var woken = false
    var waiter: CheckedContinuation<Void, Never>?

    mutating func takeWaiter() -> CheckedContinuation<Void, Never>? {
      defer { waiter = nil }
      return waiter
    }
  }

  private let state = Mutex(State())

  init() {}

  /// Adds `input`; ignored once the inbox is closed.
  func put(_ input: PresenterInput) {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.closed else { return nil }
      state.inputs.append(input)
      return state.takeWaiter()
    }
    waiter?.resume()
  }

  /// Ends the inbox: nothing more is added, and a wait returns.
  func close() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.closed = true
      return state.takeWaiter()
    }
    waiter?.resume()
  }

  /// Whether `close()` was called.
  var isClosed: Bool { state.withLock { $0.closed } }

  /// Everything that arrived since the last call, oldest first.
  func takeAll() -> [PresenterInput] {
    state.withLock { state in
      defer { state.inputs.removeAll() }
      return state.inputs
    }
  }

  /// Waits until an input arrives, the inbox is closed, or `deadline` (if any) passes.
  /// The deadline's timer is a child task, cancelled as soon as the wait is over.
  func wait(until deadline: ContinuousClock.Instant?) async {
    guard let deadline else { return await waitForInput() }
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        do {
          try await Task.sleep(until: deadline, clock: .continuous)
          self.wake()
        } catch {
          // Cancelled: an input came first.
        }
      }
      await waitForInput()
      group.cancelAll()
    }
  }

  /// Returns when something is there to take, the inbox is closed, or `wake()` was
  /// called. Cancellation closes the inbox.
  private func waitForInput() async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready = state.withLock { state -> Bool in
          if !state.inputs.isEmpty || state.closed || state.woken {
            state.woken = false
            return true
          }
          state.waiter = continuation
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      close()
    }
  }

  /// Ends the current wait, or the next one if nobody waits.
  private func wake() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard let waiter = state.takeWaiter() else {
        state.woken = true
        return nil
      }
      return waiter
    }
    waiter?.resume()
  }
}
