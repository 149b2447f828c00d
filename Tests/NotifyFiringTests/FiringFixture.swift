import Foundation
import NotifyCore
import NotifyStore
import NotifyTestSupport

/// A fresh store in a temporary folder, with helpers to schedule test notifications.
final class FiringFixture: @unchecked Sendable {
  let folder = TemporaryFolder(prefix: "notify-firing")
  let path: String
  let store: SQLiteStore
  let utc = testZone("UTC")

  init() throws {
    path = folder.file("notify.db")
    store = try SQLiteStore(path: path)
  }

  /// Another connection to the same file, as another process would have.
  func openAgain() throws -> SQLiteStore { try SQLiteStore(path: path) }

  /// Schedules `id` at `date`, optionally repeating.
  @discardableResult
  func schedule(
    _ id: String, at date: Date, app: String = "test", repeat unit: RepeatInterval? = nil,
    count: Int? = nil, badge: Int? = nil, sound: SoundName = .none, actions: [NotificationAction] = [],
    createdAt: Date? = nil, body: String = "private body", action: String? = nil
  ) throws -> StoredNotification {
    let notification = LocalNotification(
      id: id, app: app,
      schedule: Schedule(fireDate: .instant(date), repeatInterval: unit, repeatCount: count),
      title: "title \(id)", body: body, action: action, sound: sound, badge: badge,
      userInfo: ["k": .string("v")],
      actions: actions, createdAt: createdAt ?? date)
    return try store.schedule(notification, zones: testZones(utc)).stored
  }

  /// History events of one kind, oldest first.
  func events(_ kind: HistoryEvent.Kind) throws -> [HistoryEvent] {
    try store.history(app: nil, limit: 100_000).filter { $0.kind == kind }.reversed()
  }

  /// True when the store has settled: nothing is due now and nobody holds a claim. A firer
  /// acts only on what is due or claimed, so once this holds and the firer has stopped,
  /// what it delivered is all it ever will: a check that nothing more came is then a fact,
  /// not a guess that a fixed sleep was long enough.
  var isSettled: Bool {
    guard let due = try? store.dueCount(now: Date()), let claims = try? store.claimsHeld() else {
      return false
    }
    return due == 0 && claims.alive == 0 && claims.dead == 0
  }

  /// Waits until `isSettled`, up to `timeout` seconds; true when it settled.
  func waitSettled(timeout: TimeInterval = 20) -> Bool {
    waitUntil(timeout: timeout) { isSettled }
  }
}

/// An identity of a process that is certainly not running.
let deadFirer = FirerIdentity(pid: 999_999_999, startTime: 1, bootID: FirerIdentity.currentBootID)
/// A live firer other than this process: pid 1 as it is now.
let otherLiveFirer: FirerIdentity = {
  let stat = try! String(contentsOfFile: "/proc/1/stat", encoding: .utf8)
  let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
  return FirerIdentity(pid: 1, startTime: UInt64(fields[19])!, bootID: FirerIdentity.currentBootID)
}()

/// A sink that records what it was given; can be told to fail or to move a clock.
final class RecordingSink: DeliverySink, @unchecked Sendable {
  let name = "recording"
  private let lock = NSLock()
  private var recorded: [Delivery] = []
  var failuresLeft = 0
  var onDeliver: (Delivery) -> Void = { _ in }

  var deliveries: [Delivery] { lock.withLock { recorded } }

  func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    try lock.withLock {
      if failuresLeft > 0 {
        failuresLeft -= 1
        throw NotifyError(.unavailable, "the server did not answer within 5 s")
      }
      recorded.append(delivery)
    }
    onDeliver(delivery)
    return DeliveryReceipt()
  }
}

extension Delivery {
  /// The delivery of `claim` at `date`, as a firer builds it (store tests that record by hand).
  init(_ claim: Claim, at date: Date) {
    self.init(
      notification: claim.notification, occurrence: claim.occurrence + 1, fireDate: claim.fireDate,
      deliveredAt: date, late: claim.late)
  }
}
