import Foundation
import NotifyCore

extension Firer {
  /// Tuning for a firer.
  public struct Options: Sendable {
    /// Occurrences later than this are recorded `missed` instead of delivered; nil
    /// delivers every missed occurrence late.
    public var misfireGrace: TimeInterval?
    /// At most this many occurrences are claimed per claim transaction.
    public var batchLimit: Int
    /// How many times a delivery is tried before it is recorded `failed`.
    public var attempts: Int
    /// How long before its instant an occurrence is claimed, so that at the instant only
    /// the hand-off is left (the daemon: 10 ms; a run that exits: 0).
    public var claimAhead: TimeInterval
    /// How long before its instant a claimed occurrence is handed to the sink, which waits
    /// for the instant itself having built what it shows (`DeliveryGate`; the daemon: 1 ms;
    /// a run that exits: 0). At most half of `claimAhead`.
    public var handOverLead: TimeInterval
    /// Only this app's notifications (an app firing in process), or every app's (nil).
    public var app: String?
    /// How the app in the foreground wants each of its notifications presented (an app
    /// firing in process); nil presents everything fully.
    public var presentation: (@Sendable (LocalNotification) -> PresentationOptions)?
    /// Whether a click on a bubble can reach its app, asked once per app per claim batch
    /// (`Delivery.offersDefaultAction`); nil offers the default action everywhere.
    public var clickReach: (any ClickReachability)?
    /// Called with each delivery the sink took (or may have shown: recorded delivered all
    /// the same), as it is handed over, before it is recorded: the daemon's D-Bus service
    /// sends `Delivered` from it at once instead of reading it back from history.
    public var handedOver: (@Sendable (Delivery) -> Void)?

    /// Creates options.
    public init(
      misfireGrace: TimeInterval? = nil, batchLimit: Int = 64, attempts: Int = 3,
      claimAhead: TimeInterval = 0, handOverLead: TimeInterval = 0,
      app: String? = nil, presentation: (@Sendable (LocalNotification) -> PresentationOptions)? = nil,
      clickReach: (any ClickReachability)? = nil, handedOver: (@Sendable (Delivery) -> Void)? = nil
    ) {
      self.handedOver = handedOver
      self.presentation = presentation
      self.clickReach = clickReach
      self.misfireGrace = misfireGrace
      self.batchLimit = max(1, batchLimit)
      self.attempts = max(1, attempts)
      self.claimAhead = max(0, claimAhead)
      self.handOverLead = max(0, handOverLead)
      self.app = app
    }
  }

  /// What a wake-up or a run did.
  public typealias BatchReport = FiringReport

  /// What one wake-up did, and when the firer wants to be woken next (nil: only when
  /// something changes).
  public struct Wake: Hashable, Sendable {
    /// What was done.
    public var report: BatchReport
    /// The instant to arm the timer for.
    public var next: Date?
    /// The earliest waking notification as the store last said (`FiringOutlook.wake`): the
    /// loop's alarm timer follows it (`WakePlanner`).
    public var wake: WakePlanner.Due?
    /// Whether the firer has work in hand: claims not yet handed over or recorded (a
    /// suspend now would cut a hand-off in half; `SleepGuard`).
    public var holdsWork = false

    /// Creates a wake-up's result.
    public init(report: BatchReport, next: Date?, wake: WakePlanner.Due? = nil, holdsWork: Bool = false) {
      self.report = report
      self.next = next
      self.wake = wake
      self.holdsWork = holdsWork
    }
  }
}
