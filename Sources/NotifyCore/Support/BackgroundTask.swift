import Dispatch
import Foundation

/// A piece of work with a time budget, modeled on iOS `beginBackgroundTask(withName:
/// expirationHandler:)` (SPEC.md §6, §8).
///
/// The expiration handler runs once, shortly before the budget is spent (at
/// `budget - min(2 s, 10 % of budget)`), so the work can stop starting new things and
/// put back what it has not begun. It never runs after `end()`.
///
/// Time comes from an injected clock. With `.checkpoints` nothing runs on its own: the
/// worker calls `checkExpiration()` between steps (this is what tests and the
/// single-threaded daemon do). With `.dispatch` a timer also calls it on a background
/// queue at the expiration instant, so the handler runs even while the worker is blocked.
///
/// ```swift
/// let task = BackgroundTask.begin(named: "sync", budget: 25) { stop.set() }
/// defer { task.end() }
/// while !stop.isSet, let next = queue.popFirst() { work(next); task.checkExpiration() }
/// ```
public final class BackgroundTask: @unchecked Sendable {
  // Safe: the mutable state (`handler`, `expired`, `ended`, `timer`) is only touched with
  // `lock` held; the rest is immutable.
  /// How the expiration handler gets called.
  public enum Trigger: Sendable {
    /// Only from `checkExpiration()`.
    case checkpoints
    /// Also from a timer on a Dispatch queue at the expiration instant (real time).
    case dispatch
  }

  /// A label for logs.
  public let name: String
  /// The whole budget, in seconds.
  public let budget: TimeInterval
  /// When the task began.
  public let startDate: Date
  /// When the budget is spent.
  public let deadline: Date
  /// When the expiration handler is due: a little before `deadline`.
  public let expirationDate: Date

  /// `now()` of the injected clock, or `Date()` without one.
  private let clock: @Sendable () -> Date
  private let lock = NSLock()
  private var handler: (@Sendable () -> Void)?
  private var expired = false
  private var ended = false
  private var timer: (any DispatchSourceTimer)?

  /// The warning margin before the deadline: 10 % of the budget, at most 2 s.
  public static func warningMargin(forBudget budget: TimeInterval) -> TimeInterval {
    min(2, max(0, budget) * 0.1)
  }

  /// Begins a task now. `budget` is clamped at zero; a zero budget expires at the first
  /// check.
  public static func begin(
    named name: String, budget: TimeInterval, clock: (any NotifyClock)? = nil,
    trigger: Trigger = .checkpoints, expirationHandler: @escaping @Sendable () -> Void
  ) -> BackgroundTask {
    let task = BackgroundTask(name: name, budget: budget, clock: clock, handler: expirationHandler)
    if case .dispatch = trigger { task.armTimer() }
    return task
  }

  private init(
    name: String, budget: TimeInterval, clock: (any NotifyClock)?, handler: @escaping @Sendable () -> Void
  ) {
    let budget = max(0, budget)
    self.name = name
    self.budget = budget
    if let clock { self.clock = { clock.now() } } else { self.clock = { Date() } }
    self.handler = handler
    self.startDate = self.clock()
    self.deadline = startDate + budget
    self.expirationDate = deadline - BackgroundTask.warningMargin(forBudget: budget)
  }

  /// Seconds left until the budget is spent, never negative (iOS
  /// `backgroundTimeRemaining`).
  public var timeRemaining: TimeInterval {
    max(0, deadline.timeIntervalSince(clock()))
  }

  /// True once the expiration handler has been called.
  public var isExpired: Bool { lock.withLock { expired } }

  /// True once `end()` has been called.
  public var hasEnded: Bool { lock.withLock { ended } }

  /// Calls the expiration handler if its instant has come and it has not run yet.
  /// Returns true when the task is (now or already) expired.
  @discardableResult
  public func checkExpiration() -> Bool {
    let handler: (@Sendable () -> Void)? = lock.withLock {
      guard !ended, !expired else { return nil }
      guard clock() >= expirationDate else { return nil }
      expired = true
      defer { self.handler = nil }
      return self.handler
    }
    handler?()
    return isExpired
  }

  /// Ends the task; the expiration handler will not be called any more.
  public func end() {
    let timer: (any DispatchSourceTimer)? = lock.withLock {
      ended = true
      handler = nil
      defer { self.timer = nil }
      return self.timer
    }
    timer?.cancel()
  }

  private func armTimer() {
    let source = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .userInitiated))
    source.setEventHandler { [weak self] in self?.timerFired() }
    lock.withLock { timer = source }
    schedule(source)
    source.resume()
  }

  /// Dispatch measures time on its own clock; if it fires a hair before `clock` says the
  /// instant has come, wait the rest instead of never calling the handler.
  private func timerFired() {
    guard !checkExpiration(), let source = lock.withLock({ ended ? nil : timer }) else { return }
    schedule(source)
  }

  private func schedule(_ source: any DispatchSourceTimer) {
    let delay = max(0.001, expirationDate.timeIntervalSince(clock()))
    source.schedule(deadline: .now() + delay, leeway: .milliseconds(10))
  }

  deinit { timer?.cancel() }
}
