import Foundation

/// Waits for a condition with a deadline, checking every `interval` seconds; blocks the
/// calling thread (tests that use it run under `.ownThreads`). Returns its last value.
public func waitUntil(
  timeout: TimeInterval, interval: TimeInterval = 0.02, _ condition: () throws -> Bool
) rethrows -> Bool {
  let deadline = Date() + timeout
  while Date() < deadline {
    if try condition() { return true }
    Thread.sleep(forTimeInterval: interval)
  }
  return try condition()
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass, without
/// blocking a thread (other tests' tasks run meanwhile). Returns its last value.
public func eventually(timeout: TimeInterval, _ condition: () throws -> Bool) async rethrows -> Bool {
  let deadline = Date() + timeout
  while Date() < deadline {
    if try condition() { return true }
    try? await Task.sleep(for: .milliseconds(20))
  }
  return try condition()
}

/// Runs `service`, which runs until it is cancelled, beside `body`. Returns what `body`
/// returns, or nil when `timeout` passes or the service ends first; the rest is then
/// cancelled.
public func whileRunning<T: Sendable>(
  _ service: @escaping @Sendable () async throws -> Void, timeout: Duration = .seconds(60),
  _ body: @escaping @Sendable () async throws -> T?
) async throws -> T? {
  try await withThrowingTaskGroup(of: T?.self) { group in
    group.addTask {
      try await service()
      return nil
    }
    group.addTask { try await body() }
    group.addTask {
      try await Task.sleep(for: timeout)
      return nil
    }
    let first = try await group.next() ?? nil
    group.cancelAll()
    return first
  }
}
