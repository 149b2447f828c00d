import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// A sink that keeps what it is given, and can be told to refuse, for center tests.
final class RecordingSink: DeliverySink, @unchecked Sendable {
  let name = "recording"
  private let lock = NSLock()
  private var kept: [Delivery] = []
  private var refusing = false

  /// What was delivered, in order.
  var deliveries: [Delivery] { lock.withLock { kept } }

  /// Makes the next deliveries fail (a notification server that went away).
  func refuse(_ value: Bool) { lock.withLock { refusing = value } }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    try lock.withLock {
      if refusing { throw NotifyError(.unavailable, "the test sink refuses") }
      kept.append(delivery)
    }
    return DeliveryReceipt()
  }
}
