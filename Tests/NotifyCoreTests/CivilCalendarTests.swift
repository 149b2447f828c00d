import Foundation
import Testing

@testable import NotifyCore

@Suite("CivilCalendar: day numbers and month arithmetic")
struct CivilCalendarTests {
  @Test("day numbers agree with Foundation's Gregorian calendar from 1600 to 2400")
  func dayNumbersMatchFoundation() {
    // Given Foundation's Gregorian calendar in UTC as the reference
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    for day in stride(from: Int64(-134_774), through: 157_000, by: 97) {
      // When a day number is turned into a date and back
      let date = CivilCalendar.date(dayNumber: day)
      let reference = calendar.dateComponents(
        [.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(day * 86_400)))
      // Then both agree and the round trip is exact
      #expect(date.year == reference.year && date.month == reference.month && date.day == reference.day)
      #expect(CivilCalendar.dayNumber(year: date.year, month: date.month, day: date.day) == day)
    }
  }

  @Test(
    "leap years",
    arguments: [(1900, false), (2000, true), (2024, true), (2026, false), (2100, false), (2400, true)])
  func leapYears(year: Int, isLeap: Bool) {
    #expect(CivilCalendar.isLeapYear(year) == isLeap)
    #expect(CivilCalendar.daysInMonth(2, of: year) == (isLeap ? 29 : 28))
  }

  @Test(
    "adding months clamps to the month's last day, from the original day",
    arguments: [
      ("2026-01-31T09:00", 1, "2026-02-28T09:00:00"),
      ("2028-01-31T09:00", 1, "2028-02-29T09:00:00"),
      ("2026-01-31T09:00", 2, "2026-03-31T09:00:00"),
      ("2026-01-31T09:00", -2, "2025-11-30T09:00:00"),
      ("2026-12-15T23:59", 1, "2027-01-15T23:59:00"),
      ("2024-02-29T00:00", 12, "2025-02-28T00:00:00"),
      ("2024-02-29T00:00", 48, "2028-02-29T00:00:00"),
      ("0001-01-31T00:00", -1, "0000-12-31T00:00:00"),
    ])
  func addingMonths(start: String, months: Int, expected: String) {
    #expect(wall(start).addingMonths(months).iso8601 == expected)
  }
}
