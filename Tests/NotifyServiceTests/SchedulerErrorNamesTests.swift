import Foundation
import NotifyDesktop
import NotifyTestSupport
import Testing

@testable import Notify
@testable import NotifyService

/// The error names of version 4 go to a connection that said it knows them, and a client
/// written for version 3 keeps hearing what version 3 sent: on a real bus, from the daemon.
@Suite(
  .ownThreads,
  .needsSchedulerBus
)
struct SchedulerErrorNamesTests {
  /// A request whose sound is not a plain file name: the service refuses the sound.
  static let badSound: [BusValue] = [
    .string("org.example.Sound"),
    .array(
      element: "a{sv}",
      [
        .vardict([
          ("id", .string("s1")), ("body", .string("hi")), ("in", .string("1h")), ("sound", .string("../x")),
        ])
      ]),
  ]

  @Test func aSoundIsRejectedByNameForANewClientAndAsBeforeForAnOldOne() async throws {
    // Given the daemon on a bus, and one connection to it
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let connection = try SchedulerConnection(
      address: try #require(bus.environment["DBUS_SESSION_BUS_ADDRESS"]))
    // When a connection that never said its version schedules a refused sound
    let old = #expect(throws: SchedulerCallFailure.self) { try connection.call("Schedule", Self.badSound) }
    // Then it hears version 3's name for it, with the words
    #expect(old?.errorName == "io.github.notify.Scheduler1.Error.InvalidArgs", "\(String(describing: old))")
    #expect(old?.message.contains("sound name '../x' is not a plain file name") == true)
    // When the same connection says it was written for version 4
    #expect(try connection.call("SetClientVersion", [.uint32(4)]) == [.uint32(SchedulerInterface.version)])
    let new = #expect(throws: SchedulerCallFailure.self) { try connection.call("Schedule", Self.badSound) }
    // Then the same failure is SoundRejected, with the same words
    #expect(new?.errorName == "io.github.notify.Scheduler1.Error.SoundRejected", "\(String(describing: new))")
    #expect(new?.message == old?.message)
    // And the library's client, which says so when it connects, reads it as a sound rejected
    let client = try SchedulerClient(
      app: "org.example.Sound", address: bus.environment["DBUS_SESSION_BUS_ADDRESS"])
    let received = await #expect(throws: NotificationError.self) {
      _ = try await client.call("Schedule", Self.badSound)
    }
    guard case .soundRejected? = received else {
      Issue.record("not soundRejected: \(String(describing: received))")
      return
    }
    // And nothing was stored
    #expect(try bus.pendingIDs(app: "org.example.Sound") == [])
  }
}
