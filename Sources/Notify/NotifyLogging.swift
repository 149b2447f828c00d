import Logging
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// How much the Notify library logs in this process: its firing loop, its sinks, the way
/// clicks go back to the app, the take-over of bubbles.
///
/// Inside an app, deliveries are the app's business: by default the library writes
/// warnings and errors only, through whatever handler the app bootstrapped with
/// `LoggingSystem.bootstrap` (swift-log's stderr handler when it did not). An app that
/// wants what `notify daemon` logs (every delivery, each click opening the app, the sink
/// following the notification server) raises the level before it makes its center:
///
/// ```swift
/// NotifyLogging.level = .info
/// let center = try LocalNotificationCenter(app: "chat")
/// ```
///
/// The level is read as a center (and its sinks and firing service) is made: a change
/// applies to centers made afterwards.
public enum NotifyLogging {
  /// The lowest level the library writes; `.warning` unless raised.
  public static var level: Logger.Level {
    get { current.value }
    set { current.value = newValue }
  }

  private static let current = Locked<Logger.Level>(.warning)

  /// A logger for the library's part `label`, at `level`.
  static func logger(_ label: String) -> Logger {
    var logger = Logger(label: label)
    logger.logLevel = level
    return logger
  }
}
