import Foundation
import NotifyCore

/// The one owner of a sink, its bus connection and the firer that delivers through it,
/// in a process where several threads reach them: an app calls `present` from its own
/// threads while its firing loop runs on another.
///
/// Ownership is a recursive lock: whoever holds it owns the sink. The firing loop holds it
/// for every sd-event dispatch (so the desktop sink's bus callbacks, the timer's
/// hand-overs and the app's calls never overlap) and releases it only while it sleeps in
/// `epoll_wait`. Recursive, because a dispatch that delivers goes through `deliver` again.
/// The daemon, a single thread, needs none.
public final class SerializedSink: DeliverySink, @unchecked Sendable {
  // Safe: `sink` is only touched with `lock` held.
  private let lock = NSRecursiveLock()
  private let sink: any DeliverySink

  /// Wraps `sink`.
  public init(_ sink: any DeliverySink) { self.sink = sink }

  /// The wrapped sink's name.
  public var name: String { lock.withLock { sink.name } }

  /// Hands one delivery to the sink. A `SinkFault` goes through as it is (a firer gives
  /// the occurrence back instead of counting an attempt); errors other than `NotifyError`
  /// become a temporary failure.
  public func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    do {
      return try lock.withLock { try sink.deliver(delivery) }
    } catch let error as NotifyError {
      throw error
    } catch let fault as SinkFault {
      throw fault
    } catch {
      throw NotifyError(
        .temporary, "the \(name) sink could not show the notification (\(error))",
        fix: "try again, or use \(term: .stdoutSink)")
    }
  }

  /// Runs `body` as the sink's owner.
  public func exclusively<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body()
  }
}
