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
  /// The history reason of a delivery whose alert the user switched off for the app.
  public static let alertsOffReason = "alerts-off"

  /// The kinds it has, with the sound that will play (after substitution).
  public var contentKinds: PresentationOptions {
    var kinds = notification.contentKinds
    if sound == .none { kinds.remove(.sound) } else { kinds.insert(.sound) }
    return kinds
  }

  /// Applies the user's settings for the app: what they do not allow is taken out of
  /// `presentation`, and what that takes from the notification is noted in `suppressed`.
  public mutating func apply(_ settings: NotificationSettings) {
    suppressed = presentation.intersection(contentKinds).subtracting(settings.allowed)
    presentation.formIntersection(settings.allowed)
  }

  /// The reason history gives a delivery: the app showed it itself, or the user switched
  /// its alert off; nil when it was shown.
  public var historyReason: String? {
    if suppressed.contains(.banner) { return Delivery.alertsOffReason }
    return presentation.isEmpty ? Delivery.inAppReason : nil
  }

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

extension LocalNotification {
  /// The kinds it has: an alert when it has a title or body, a sound, a badge.
  public var contentKinds: PresentationOptions {
    var kinds: PresentationOptions = []
    if title != nil || body != nil { kinds.insert(.banner) }
    if sound != .none { kinds.insert(.sound) }
    if badge != nil { kinds.insert(.badge) }
    return kinds
  }
}
