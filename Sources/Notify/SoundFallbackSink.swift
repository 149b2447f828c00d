import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifySound
import NotifyStore
import NotifyZones

/// Wraps the desktop sink: where the notification server lacks the `sound` capability,
/// plays the delivery's sound here, when an audio output exists (SPEC.md §4). A sound
/// that cannot play never fails the delivery.
package final class SoundFallbackSink: DesktopShowing {
  /// The desktop sink doing the delivering.
  public let desktop: DesktopSink
  /// `desktop`.
  public var desktopSink: DesktopSink { desktop }
  private let logger: Logger

  /// Wraps `desktop`; logs to `logger`, by default at `NotifyLogging.level`.
  public init(_ desktop: DesktopSink, logger: Logger? = nil) {
    self.desktop = desktop
    self.logger = logger ?? NotifyLogging.logger("notify.sound")
  }

  /// `desktop`.
  public var name: String { desktop.name }

  /// Delivers through the desktop sink, then plays the sound if the server does not.
  public func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    let receipt = try desktop.deliver(delivery)
    guard !desktop.handlesSound(for: delivery) else { return receipt }
    let resolution = SoundResolution(
      effective: delivery.sound, file: delivery.soundFile, requested: delivery.soundRequested,
      note: delivery.soundNote)
    if let note = SoundPlayer.play(resolution) {
      logger.info(
        "sound not played: \(note)",
        metadata: [LogKey.id: "\(delivery.notification.id)", LogKey.app: "\(delivery.notification.app)"])
    }
    return receipt
  }
}
