import Foundation

/// A value shared between threads, read and written under a lock.
public final class Locked<Value: Sendable>: @unchecked Sendable {
  // Safe: every access to `stored` holds `lock`.
  private let lock = NSLock()
  private var stored: Value

  /// Wraps `value`.
  public init(_ value: Value) { stored = value }

  /// The current value.
  public var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }

  /// Changes the value in place, in one step.
  public func update(_ body: (inout Value) -> Void) {
    lock.withLock { body(&stored) }
  }

  /// Stores `newValue` and returns the previous value, in one step.
  public func exchange(_ newValue: Value) -> Value {
    lock.withLock {
      defer { stored = newValue }
      return stored
    }
  }
}
