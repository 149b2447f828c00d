import Foundation
import NotifyCore
import NotifyDesktop
import Testing

@testable import NotifyService

/// The request keys turn into the notification `notify schedule` would store.
struct RequestDecoderTests {
  let now = Date(timeIntervalSince1970: 1_790_000_000)
  var decoder: RequestDecoder { RequestDecoder(app: "org.example.App", now: now, zones: .utc) }

  @Test func anInstantInMillisecondsAndContent() throws {
    // Given a request with an absolute instant and content
    let request: [(key: String, value: BusValue)] = [
      ("id", .string("a1")), ("title", .string("Flight")), ("at", .int64(1_790_000_060_250)),
      ("userInfo", .vardict([("room", .string("4B")), ("n", .int32(3))])),
      ("actions", .array(element: "a{sv}", [.vardict([("key", .string("ok")), ("title", .string("OK"))])])),
    ]
    // When it is decoded
    let n = try decoder.scheduled(request).notification
    // Then the schedule is that instant and the content is kept
    #expect(n.id == "a1")
    #expect(n.app == "org.example.App")
    #expect(n.schedule.fireDate == .instant(Date(timeIntervalSince1970: 1_790_000_060.25)))
    #expect(n.userInfo == ["room": .string("4B"), "n": .int(3)])
    #expect(n.actions.map(\.key) == ["ok"])
  }

  @Test func aWallClockWithAZoneAndARepeat() throws {
    let n = try decoder.scheduled([
      ("body", .string("Standup")), ("at", .string("2026-11-23T09:00")), ("timeZone", .string("UTC")),
      ("repeat", .string("day")), ("repeatCount", .uint32(3)),
    ]).notification
    #expect(n.schedule.repeatInterval == .day)
    #expect(n.schedule.repeatCount == 3)
  }

  @Test(arguments: [
    (
      "an unknown key", [("colour", BusValue.string("red")), ("body", .string("x")), ("in", .string("1m"))],
      "unknown key 'colour'"
    ),
    ("a wrong type", [("body", BusValue.int32(1)), ("in", .string("1m"))], "'body' is a 'i'"),
    ("no fire date", [("body", BusValue.string("x"))], "schedule needs a fire date"),
    (
      "both fire dates", [("body", BusValue.string("x")), ("in", .string("1m")), ("at", .int64(0))],
      "'at' and 'in' were both given"
    ),
  ])
  func refused(name: String, request: [(String, BusValue)], message: String) {
    // When a bad request is decoded, the error names what is wrong
    #expect {
      _ = try decoder.scheduled(request.map { (key: $0.0, value: $0.1) })
    } throws: { error in
      "\(error)".contains(message)
    }
  }

  @Test func triggerErrorsAreInvalidTrigger() {
    // When the repeat unit is unknown, the error is InvalidTrigger with the CLI's words
    do {
      _ = try decoder.scheduled([
        ("body", .string("x")), ("in", .string("1m")), ("repeat", .string("fortnight")),
      ])
      Issue.record("a bad repeat unit was taken")
    } catch {
      #expect(error.name == "io.github.notify.Scheduler1.Error.InvalidTrigger")
      #expect(error.description.contains("unknown repeat unit 'fortnight'"))
    }
  }
}
