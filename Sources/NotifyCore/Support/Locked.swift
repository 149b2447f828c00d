import Synchronization

/// A value shared between threads by design, read and written under a `Mutex`: a class so
/// that closures and several owners can hold the same one (a `Mutex` cannot be copied).
public final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  /// Wraps `value`.
  public init(_ value: Value) { mutex = Mutex(value) }

  /// The current value.
  public var value: Value {
    get { mutex.withLock { $0 } }
    set { mutex.withLock { $0 = newValue } }
  }

  /// Changes the value in place, in one step.
  public func update(_ body: (inout Value) -> Void) {
    mutex.withLock { body(&$0) }
  }

  /// Stores `newValue` and returns the previous value, in one step.
  public func exchange(_ newValue: Value) -> Value {
    mutex.withLock { value in
      defer { value = newValue }
      return value
    }
  }
}
