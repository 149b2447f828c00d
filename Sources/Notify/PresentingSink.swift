import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Gives the sink only what a delivery's `presentation` leaves in (`Delivery.presented`):
/// an app in the foreground that shows a notification itself gets no bubble, no sound and
/// no launcher badge from the desktop, and nothing is printed on stdout. Errors other than
/// `NotifyError` and `SinkFault` become a temporary failure.
final class PresentingSink: BurstSink {
  let base: any DeliverySink

  init(base: any DeliverySink) { self.base = base }

  var name: String { base.name }

  /// What the sink inside does (the stdout sink: yes).
  var showsBursts: Bool { (base as? any BurstSink)?.showsBursts == true }

  /// The burst to the sink inside, less what the presentation leaves out (taken, not shown).
  func deliver(burst deliveries: [Delivery], after gate: DeliveryGate) -> [Result<DeliveryReceipt, any Error>]
  {
    guard let base = base as? any BurstSink else {
      var answers: [Result<DeliveryReceipt, any Error>] = []
      for delivery in deliveries {
        let answer = Result { try deliver(delivery, after: gate) }
        answers.append(answer)
        if case .failure(let error) = answer, error is SinkFault { break }
      }
      return answers
    }
    let shown = deliveries.indices.compactMap { index in deliveries[index].presented.map { (index, $0) } }
    let answers = base.deliver(burst: shown.map(\.1), after: gate)
    var merged: [Result<DeliveryReceipt, any Error>] = deliveries.map { _ in .success(DeliveryReceipt()) }
    for (answer, (index, _)) in zip(answers, shown) { merged[index] = answer }
    // Stopped at a fault: nothing after it was tried.
    if answers.count < shown.count { return Array(merged.prefix(shown[answers.count - 1].0 + 1)) }
    return merged
  }

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
