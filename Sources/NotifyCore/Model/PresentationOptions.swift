/// How a delivery is presented (`UNNotificationPresentationOptions`): an app in the
/// foreground decides per notification of its own; everything else is presented fully.
public struct PresentationOptions: OptionSet, Hashable, Sendable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// A bubble (or a stdout line) with the title and body.
  public static let banner = PresentationOptions(rawValue: 1 << 0)
  /// The notification's sound.
  public static let sound = PresentationOptions(rawValue: 1 << 1)
  /// The badge on the app's launcher.
  public static let badge = PresentationOptions(rawValue: 1 << 2)
  /// Everything: how notify presents a notification when no app decides.
  public static let all: PresentationOptions = [.banner, .sound, .badge]
  /// Nothing on the desktop: the app shows the notification itself (history records it
  /// as delivered `in-app`).
  public static let none: PresentationOptions = []
}

extension Delivery {
  /// The history reason of a delivery the desktop did not show because the app showed it.
  public static let inAppReason = "in-app"

  /// What the sink is given: the delivery with what `presentation` leaves out removed (no
  /// title and body without `.banner`, silent without `.sound`, no badge without
  /// `.badge`); nil when nothing is left to present.
  public var presented: Delivery? {
    if presentation == .all { return self }
    if presentation.isEmpty { return nil }
    var shown = self
    if !presentation.contains(.banner) {
      shown.notification.title = nil
      shown.notification.body = nil
    }
    if !presentation.contains(.sound) {
      shown.sound = .none
      shown.soundFile = nil
    }
    if !presentation.contains(.badge) { shown.notification.badge = nil }
    return shown
  }
}
