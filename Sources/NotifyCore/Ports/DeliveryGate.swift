import Foundation

/// The instant a delivery handed over early may be shown, and the clock that waits for it.
///
/// A firing loop hands an occurrence to its sink up to `FiringStateMachine.handOverLead`
/// before its instant, so that the work before the showing call (the claim confirmed, the
/// delivery built, its line or message made) is done by then, and what is left at the
/// instant is that one call. A sink passes the gate right before it: never early.
public struct DeliveryGate: Sendable {
  /// Not before then.
  public let instant: Date
  private let clock: (any NotifyClock)?

  /// A gate that opens at `instant` on `clock`.
  public init(_ instant: Date, clock: any NotifyClock) {
    self.instant = instant
    self.clock = clock
  }

  private init() {
    instant = .distantPast
    clock = nil
  }

  /// A gate that is open (a delivery due now or overdue, a notification shown at once).
  public static let open = DeliveryGate()

  /// Returns at `instant`, or at once when it has passed.
  public func pass() {
    clock?.sleep(until: instant)
  }
}
