import Foundation
import NotifyCore

extension DesktopSink {
  /// Hands over the bubbles this sink showed that are still on screen, as far as the
  /// server's signals tell: what a stopping process leaves for another to take over. They
  /// are no longer this sink's: their signals will go to whoever takes them over.
  public func handOverShownBubbles() -> [ShownBubble] { session.handOverShownBubbles() }

  /// Takes over `bubble`, which a process that stopped showed, by adopting its server id:
  /// from now on this sink ties the server's signals for that id to the notification (and
  /// hands the bubble over again when it stops), and `replaces_id` goes on naming it. Sends
  /// nothing: the user may have closed the bubble while no process listened, and a `Notify`
  /// with its id would bring it back (dunst shows a `replaces_id` it no longer has as a new
  /// bubble). So a click on it reaches this sink where the server tells every connection of
  /// its clicks, not where it tells only the connection that showed the bubble (dunst).
  /// Returns false when the server answering now is not the one that showed it (restarted,
  /// or another): its id would name someone else's bubble there. `stored` is the bubble the
  /// store remembers for the notification (`SQLiteStore.desktopServerID`), checked when a
  /// store keeps the ids (`storeKeepsServerIDs`).
  @discardableResult
  public func takeOver(_ bubble: ShownBubble, at date: Date, stored: ServerBubbleID? = nil)
    throws(NotifyError)
    -> Bool
  {
    let delivery = Delivery(
      notification: bubble.notification, occurrence: bubble.occurrence, fireDate: date, deliveredAt: date,
      late: false)
    // A connection that knows the server answering now (its capabilities read), so that
    // its signals are accepted and the stored id's server can be checked.
    return try withConnection(needsServer: true) { connection throws(BusFailure) -> Bool in
      if storeKeepsServerIDs, stored?.replacesID(on: serverInstance(on: connection)) != bubble.serverID {
        return false
      }
      session.showed(delivery, as: bubble.serverID)
      return true
    }
  }
}
