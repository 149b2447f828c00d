import Foundation
import NotifyCore
import NotifyFiring
import Testing

/// The bell the daemon's loop rings for its D-Bus service: what it keeps for the service
/// between two takes.
@Suite struct HistoryBellTests {
  static func delivery(_ number: Int) -> Delivery {
    let instant = Date(timeIntervalSince1970: 0)
    return Delivery(
      notification: LocalNotification(
        id: "n\(number)", app: "bell", schedule: Schedule(fireDate: .instant(instant)), title: "t", body: "b",
        createdAt: instant),
      occurrence: 1, fireDate: instant, deliveredAt: instant, late: false)
  }

  @Test("deliveries rung reach the service in order, once")
  func inOrder() throws {
    // Given a bell
    let bell = try HistoryBell()
    // When three deliveries are handed over
    for number in 0..<3 { bell.handedOver(Self.delivery(number)) }
    // Then one take has them in order, history not marked grown, and the next take nothing
    let first = bell.take()
    #expect(first.deliveries.map(\.notification.id) == ["n0", "n1", "n2"])
    #expect(!first.historyGrew)
    let second = bell.take()
    #expect(second.deliveries.isEmpty && !second.historyGrew)
  }

  @Test("a bell nobody takes from keeps at most its limit, and says history grew instead")
  func bounded() throws {
    // Given a bell whose service never takes (one that did not start)
    let bell = try HistoryBell()
    // When more deliveries than its limit are handed over
    for number in 0..<(HistoryBell.limit + 10) { bell.handedOver(Self.delivery(number)) }
    // Then it keeps the first `limit` and marks history grown: the rest are read from history
    let taken = bell.take()
    #expect(taken.deliveries.count == HistoryBell.limit)
    #expect(taken.deliveries.last?.notification.id == "n\(HistoryBell.limit - 1)")
    #expect(taken.historyGrew)
  }
}
