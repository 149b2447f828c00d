import Foundation
import NotifyCore

extension DesktopSink {
  /// Hands over the bubbles this sink showed that are still on screen, as far as the
  /// server's signals tell: what a stopping process leaves for another to take over. They
  /// are no longer this sink's: their signals will go to whoever takes them over.
  public func handOverShownBubbles() -> [ShownBubble] { session.handOverShownBubbles() }

  /// Takes over `bubble`, which a process that stopped showed: sends it again under its
  /// server id, with no sound and no badge, so that the server replaces it in place and
  /// tells this sink of its click or close from now on.
  public func takeOver(_ bubble: ShownBubble, at date: Date) throws(NotifyError) {
    var notification = bubble.notification
    notification.sound = .none
    notification.badge = nil
    let delivery = Delivery(
      notification: notification, occurrence: bubble.occurrence, fireDate: date, deliveredAt: date,
      late: false)
    session.restore([DesktopNotificationKey(app: notification.app, id: notification.id): bubble.serverID])
    try withConnection(needsServer: true) { connection throws(BusFailure) in
      try notify(delivery, on: connection)
    }
  }
}
