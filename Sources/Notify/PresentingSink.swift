import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Gives the sink only what a delivery's `presentation` leaves in (`Delivery.presented`):
/// an app in the foreground that shows a notification itself gets no bubble, no sound and
/// no launcher badge from the desktop, and nothing is printed on stdout.
final class PresentingSink: DeliverySink {
  let base: any DeliverySink

  init(base: any DeliverySink) { self.base = base }

  var name: String { base.name }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    guard let shown = delivery.presented else { return DeliveryReceipt() }
    return try base.deliver(shown)
  }
}
