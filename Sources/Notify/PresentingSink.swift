import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Gives the sink only what a delivery's `presentation` leaves in (`Delivery.presented`):
/// an app in the foreground that shows a notification itself gets no bubble, no sound and
/// no launcher badge from the desktop, and nothing is printed on stdout. Errors other than
/// `NotifyError` and `SinkFault` become a temporary failure.
final class PresentingSink: DeliverySink {
  let base: any DeliverySink

  init(base: any DeliverySink) { self.base = base }

  var name: String { base.name }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    try deliver(delivery, after: .open)
  }

  func deliver(_ delivery: Delivery, after gate: DeliveryGate) throws -> DeliveryReceipt {
    guard let shown = delivery.presented else {
      gate.pass()
      return DeliveryReceipt()
    }
    do {
      return try base.deliver(shown, after: gate)
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
}
