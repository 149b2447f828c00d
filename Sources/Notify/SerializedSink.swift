import Foundation

/// Makes any `DeliverySink` safe to share: deliveries from the app's threads and from the
/// firing service reach it one at a time, as a sink expects.
final class SerializedSink: @unchecked Sendable {
  private let lock = NSLock()
  private let sink: any DeliverySink

  init(_ sink: any DeliverySink) { self.sink = sink }

  /// The wrapped sink's name.
  var name: String { lock.withLock { sink.name } }

  /// Hands one delivery to the sink; errors other than `NotifyError` become a temporary failure.
  func deliver(_ delivery: Delivery) throws(NotifyError) {
    do {
      try lock.withLock { try sink.deliver(delivery) }
    } catch let error as NotifyError {
      throw error
    } catch {
      throw NotifyError(
        .temporary, "the \(name) sink could not show the notification (\(error))",
        fix: "try again, or use the stdout sink")
    }
  }

  /// Runs `body` with the wrapped sink, serialized with deliveries.
  func withSink<T>(_ body: (any DeliverySink) throws -> T) rethrows -> T {
    try lock.withLock { try body(sink) }
  }
}
