import Foundation
import Notify
import NotifyCore
import NotifyStore
import NotifyTestSupport
import Testing

/// `pendingNotificationRequests()` hands back the requests `add(_:)` took: for each kind of
/// trigger, the request read back equals the one added (identifier, content, trigger).
@Suite
struct PendingRequestRoundTripTests {
  let folder = TemporaryFolder(prefix: "notify-roundtrip")
  let clock = ManualClock(
    now: Date(timeIntervalSince1970: 1_795_000_000), localZone: testZone("Europe/Lisbon"),
    database: testZoneDatabase)

  func makeCenter() throws -> LocalNotificationCenter {
    try LocalNotificationCenter(
      app: "chat", store: try SQLiteStore(path: folder.file("notify.db")), sink: RecordingSink(), clock: clock
    )
  }

  /// The kinds of trigger an app adds, each in the future of the test's clock.
  enum Kind: String, CaseIterable, Sendable {
    case instant, instantRepeatingHourlyFiveTimes, instantRepeatingWeeklyUntil
    case wallClockLocal, wallClockInZone, wallClockDaily, wallClockMonthlyInZone
    case calendarRule, calendarRuleInZone, calendarRuleUntil

    static let nineAM = WallClock(year: 2026, month: 11, day: 23, hour: 9)
    static let instantDate = Date(timeIntervalSince1970: 1_795_003_600)

    var trigger: NotificationTrigger {
      get throws {
        let weekly = try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")
        switch self {
        case .instant: return .at(Self.instantDate)
        case .instantRepeatingHourlyFiveTimes: return .at(Self.instantDate).repeating(every: .hour, count: 5)
        case .instantRepeatingWeeklyUntil:
          return .at(Self.instantDate).repeating(
            every: .week, until: Date(timeIntervalSince1970: 1_800_000_000))
        case .wallClockLocal: return .wallClock(Self.nineAM)
        case .wallClockInZone: return .wallClock(Self.nineAM, in: .named("Europe/Berlin"))
        case .wallClockDaily: return .wallClock(Self.nineAM).repeating(every: .day)
        case .wallClockMonthlyInZone:
          return .wallClock(Self.nineAM, in: .named("Asia/Tokyo")).repeating(every: .month, count: 3)
        case .calendarRule: return .calendar(weekly, from: Self.nineAM)
        case .calendarRuleInZone: return .calendar(weekly, from: Self.nineAM, in: .named("America/New_York"))
        case .calendarRuleUntil:
          return .calendar(
            try RecurrenceRule(parsing: "FREQ=DAILY;UNTIL=20270101T000000Z"), from: Self.nineAM,
            in: .named("Europe/Berlin"))
        }
      }
    }
  }

  @Test(arguments: Kind.allCases)
  func theRequestReadBackEqualsTheOneAdded(kind: Kind) async throws {
    // Given a request with rich content and a trigger of this kind
    let center = try makeCenter()
    let request = NotificationRequest(
      identifier: "standup-\(kind.rawValue)",
      content: NotificationContent(
        title: "Standup", body: "Daily standup in room 4B", sound: .default, badge: 3,
        userInfo: ["room": "4B", "floor": 4], actions: [.button(key: "join", title: "Join")],
        subtitle: "Team", interruptionLevel: .timeSensitive, threadIdentifier: "standups",
        categoryIdentifier: "meeting"),
      trigger: try kind.trigger)
    // When it is added and the pending requests are read
    try await center.add(request)
    let pending = try await center.pendingNotificationRequests()
    // Then the one read back is the one added
    #expect(pending == [request])
    // And the thread's view has it too
    #expect(try await center.pendingNotificationRequests(threadIdentifier: "standups") == [request])
  }

  @Test func aRelativeTriggerComesBackAsTheInstantItFellOn() async throws {
    // Given a request ten minutes from now, repeating hourly
    let center = try makeCenter()
    let request = NotificationRequest(
      identifier: "later", content: NotificationContent(body: "later"),
      trigger: .after(.seconds(600)).repeating(every: .hour))
    // When it is added and read back
    try await center.add(request)
    let pending = try await center.pendingNotificationRequests()
    // Then its trigger is the instant it resolved to when added, with the same repeat
    var expected = request
    expected.trigger = .at(clock.now() + 600).repeating(every: .hour)
    #expect(pending == [expected])
    // And the stored facts (next fire date) are one call away
    #expect(try await center.pendingNotificationSchedules().map(\.nextFireDate) == [clock.now() + 600])
  }
}
