import Foundation
import NotifyCore
import NotifyDesktop
import NotifyTestSupport
import Testing

extension DesktopIntegration {
  /// Servers and buses that restart, hang or are missing.
  @Suite struct ReconnectTests {
    @Test func dunstRestartedBetweenDeliveriesGetsBoth() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let log = EventLog(sink)
      // Given a first delivery shown by dunst (which parses markup)
      try sink.deliver(makeDelivery(id: "before", title: "Before", body: "<b>1</b>"))
      #expect(try session.closeAllAndReadHistory(expecting: 1).first?["body"] == "&lt;b&gt;1&lt;/b&gt;")
      // When dunst is killed and started again, now configured without markup
      try session.kill(session.dunstPID)
      let plain = "\(session.directory)/dunstrc-plain"
      try "[global]\n    markup = no\n    history_length = 1000\n[urgency_normal]\n    timeout = 0\n"
        .write(toFile: plain, atomically: true, encoding: .utf8)
      try session.start(dunstConfig: plain)
      try sink.deliver(makeDelivery(id: "after", title: "After", body: "<b>2</b>"))
      // Then the second arrives too, formatted for the new server's capabilities (read again)
      #expect(!sink.capabilities.contains("body-markup"))
      try session.dunstctl("close")
      let history = try session.closeAllAndReadHistory(expecting: 1)
      #expect(history.first?["summary"] == "After")
      #expect(history.first?["body"] == "<b>2</b>")
      // And the new server's signals are recognised
      let event = log.next(from: sink)
      #expect(event?.id == "after")
    }

    @Test func busRestartedBetweenDeliveriesGetsBoth() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      try sink.publishBadge(app: "chat", count: 5)
      // Given a first delivery shown
      try sink.deliver(makeDelivery(id: "before", title: "Before"))
      #expect(try session.closeAllAndReadHistory(expecting: 1).first?["summary"] == "Before")
      // When the bus daemon and dunst are killed and started again at the same address
      try session.kill(session.dunstPID)
      try session.kill(session.busPID)
      try session.start()
      let monitor = try session.monitor(BadgeTests.rule)
      try sink.deliver(makeDelivery(id: "after", title: "After"))
      // Then the second arrives on the new bus, and the badge is published there again
      #expect(try session.closeAllAndReadHistory(expecting: 1).first?["summary"] == "After")
      #expect(monitor.waitFor { hint(named: "count", in: $0) == "int64 5" })
    }

    @Test func aHungServerCannotBlockTheCaller() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink(timeout: .milliseconds(300))
      // Given dunst frozen (SIGSTOP): it holds its name but answers nothing
      kill(session.dunstPID, SIGSTOP)
      defer { kill(session.dunstPID, SIGCONT) }
      // When a delivery is attempted
      let clock = ContinuousClock()
      let start = clock.now
      let error = #expect(throws: NotifyError.self) {
        try sink.deliver(makeDelivery(title: "Stuck"))
      }
      // Then it fails as a temporary failure after one timeout, not after dunst wakes up
      #expect(error?.kind == .temporary)
      #expect(clock.now - start < .seconds(2))
      // And once dunst answers again, delivery works on the same sink
      kill(session.dunstPID, SIGCONT)
      try sink.deliver(makeDelivery(id: "n2", title: "Unstuck"))
      let history = try session.closeAllAndReadHistory(expecting: 1)
      #expect(history.contains { $0["summary"] == "Unstuck" })
    }

    @Test func noServerIsUnavailable() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      // Given no notification server on the bus
      try session.kill(session.dunstPID)
      let configuration = DesktopSink.Configuration(busAddress: session.busAddress)
      // Then a new sink refuses with exit 69 and says how to fix it
      let error = #expect(throws: NotifyError.self) { try DesktopSink(configuration: configuration) }
      #expect(error?.exitCode == 69)
      #expect(
        error?.description
          == "no notification server answers on the session bus: start a notification daemon (e.g. dunst) "
          + "in your desktop session, or use the stdout sink")
      #expect(!DesktopSink.serverAvailable(configuration: configuration))
      // And an existing sink fails its delivery the same way
      let failed = #expect(throws: NotifyError.self) { try sink.deliver(makeDelivery(title: "T")) }
      #expect(failed?.kind == .unavailable)
      // When a server comes back, both work again
      try session.start()
      #expect(DesktopSink.serverAvailable(configuration: configuration))
      try sink.deliver(makeDelivery(title: "Back"))
      #expect(try session.closeAllAndReadHistory(expecting: 1).first?["summary"] == "Back")
    }
  }
}

/// Without a bus at all: no desktop processes needed.
@Suite(.ownThreads)
struct NoBusTests {
  @Test func aMissingBusIsUnavailable() {
    let configuration = DesktopSink.Configuration(busAddress: "unix:path=/nonexistent/notify-test-bus")
    let error = #expect(throws: NotifyError.self) { try DesktopSink(configuration: configuration) }
    #expect(error?.exitCode == 69)
    #expect(error?.problem.hasPrefix("cannot connect to the session bus") == true)
    #expect(!DesktopSink.serverAvailable(configuration: configuration))
  }
}
