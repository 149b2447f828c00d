import Foundation

/// One occurrence of a notification being handed to the user.
public struct Delivery: Hashable, Sendable {
  /// The notification as stored.
  public var notification: LocalNotification
  /// 1-based occurrence number.
  public var occurrence: Int
  /// The instant this occurrence was due.
  public var fireDate: Date
  /// When it was handed to the sink.
  public var deliveredAt: Date
  /// True when it was delivered more than `Delivery.lateTolerance` after it was due.
  public var late: Bool
  /// The sound that will actually be used (after substitution).
  public var sound: SoundName
  /// The sound the notification asked for, when it was substituted.
  public var soundRequested: String?
  /// Why the requested sound was substituted.
  public var soundNote: String?
  /// A resolved sound file path for the sink to play, when `sound` is a file.
  public var soundFile: String?
  /// What of it is presented (an app in the foreground may show it itself).
  public var presentation: PresentationOptions = .all
  /// What the user's settings took out of it (`apply(_:)`), of what it has.
  public var suppressed: PresentationOptions = []
  /// Held for quiet hours: not given to the sink, kept in the store until quiet ends.
  public var held = false
  /// What the sink left out (`DeliveryReceipt.note`), kept in the delivery record.
  public var note: String?
  /// The bubble the desktop shows for this notification as the store knew it when the
  /// occurrence was claimed (`Claim.bubble`): a desktop sink replaces it (`replaces_id`)
  /// when the server answering now gave it. Nil: none known.
  public var replacing: ServerBubbleID?
  /// The bubble of the notification's thread that this delivery replaces (`replacing` is its
  /// server id), nil for a new bubble: the count line of its body and the thread's bubble
  /// after it follow from it (`ThreadSummary`).
  public var thread: ThreadBubble?
  /// Whether a click on the bubble itself can reach the app (`ClickRoute
  /// .defaultActionReaches`), decided before the hand-off: a desktop sink offers the
  /// default action only then.
  public var offersDefaultAction = true
  /// The app's icon for the bubble (`app_icon`): its desktop entry's `Icon=`, decided before
  /// the hand-off (`AppLook`); nil: none.
  public var appIcon: String?
  /// The app's desktop entry id (the `desktop-entry` hint); nil: the app id.
  public var desktopEntry: String?
  /// Why the notification is shown without the buttons of the category it names
  /// (`CategoryResolution.missing`), kept in the delivery record as `detail.categoryNote`.
  public var categoryNote: String?
  /// For a notification that wakes the machine: what its firer could do to wake it
  /// (`WakeAbility.historyName`: `alarm-timer`, `user-timer` or `none`), kept in the delivery
  /// record as `detail.wake`; nil for one that does not wake.
  public var wake: String?

  /// How far past its due instant an occurrence may be handed over and still not be late.
  public static let lateTolerance: TimeInterval = 1

  public init(
    notification: LocalNotification, occurrence: Int, fireDate: Date, deliveredAt: Date,
    late: Bool, sound: SoundName? = nil, soundRequested: String? = nil, soundNote: String? = nil,
    soundFile: String? = nil
  ) {
    self.notification = notification
    self.occurrence = occurrence
    self.fireDate = fireDate
    self.deliveredAt = deliveredAt
    self.late = late
    self.sound = sound ?? notification.sound
    self.soundRequested = soundRequested
    self.soundNote = soundNote
    self.soundFile = soundFile
  }
}

/// Where deliveries go: the desktop, stdout, an app's own UI. Like a log handler: small,
/// interchangeable, synchronous. Implementations must not block for long; the desktop
/// sink bounds its D-Bus calls with a timeout. A sink answers with a value (a
/// `DeliveryReceipt`) and holds nothing into the store: what it needs from the store comes
/// in the `Delivery` (`replacing`, `offersDefaultAction`), and what the store must keep
/// goes back in the receipt, recorded with the delivery.
public protocol DeliverySink: AnyObject {
  /// A short name for logs and `--sink` (`desktop`, `stdout`, ...).
  var name: String { get }
  /// Hands one occurrence to the user and says what became of it (the server's bubble,
  /// what was left out). Throwing means it was not shown and may be retried.
  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt
  /// The same, handed over ahead of its instant: the sink does what it can beforehand (a
  /// line built, a message encoded), passes `gate` (which returns at the instant), then
  /// makes the one call that shows it. By default it passes the gate first.
  func deliver(_ delivery: Delivery, after gate: DeliveryGate) throws -> DeliveryReceipt
}

extension DeliverySink {
  /// Passes `gate`, then `deliver(delivery)`.
  public func deliver(_ delivery: Delivery, after gate: DeliveryGate) throws -> DeliveryReceipt {
    gate.pass()
    return try deliver(delivery)
  }
}
