import Foundation
import NotifyCore

extension DesktopSink {
  /// Hands over the bubbles this sink showed that are still on screen, as far as the
  /// server's signals tell: what a stopping process leaves for another to take over. They
  /// are no longer this sink's: their signals will go to whoever takes them over.
  public func handOverShownBubbles() -> [ShownBubble] { session.handOverShownBubbles() }

  /// Takes over `bubble`, which a process that stopped showed: sends it again under its
  /// server id, with no sound and no badge, so that the server replaces it in place and
  /// tells this sink of its click or close from now on. Returns false, showing nothing,
  /// when the server answering now is not the one that showed it (restarted, or another):
  /// its id would name someone else's bubble there.
  @discardableResult
  public func takeOver(_ bubble: ShownBubble, at date: Date) throws(NotifyError) -> Bool {
    var notification = bubble.notification
    notification.sound = .none
    notification.badge = nil
    let delivery = Delivery(
      notification: notification, occurrence: bubble.occurrence, fireDate: date, deliveredAt: date,
      late: false)
    let key = DesktopNotificationKey(app: notification.app, id: notification.id)
    return try withConnection(needsServer: true) { connection throws(BusFailure) -> Bool in
      if storedServerID == nil {
        session.restore([key: bubble.serverID])
      } else if replacesID(for: key, on: connection) != bubble.serverID {
        return false
      }
      try notify(delivery, on: connection)
      return true
    }
  }
}
