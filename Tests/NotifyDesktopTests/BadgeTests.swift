import Foundation
import NotifyDesktop
import NotifyTestSupport
import Testing

extension DesktopIntegration {
  /// Badges as Unity LauncherEntry Update signals, observed by dbus-monitor.
  @Suite struct BadgeTests {
    static let rule = "type='signal',interface='com.canonical.Unity.LauncherEntry',member='Update'"

    @Test func aFiredBadgeIsSeenOnTheBus() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let monitor = try session.monitor(Self.rule)
      // When a notification with badge 3 is delivered
      try sink.deliver(makeDelivery(app: "chat", title: "T", badge: 3))
      // Then an Update signal for application://chat.desktop with count 3 is on the bus
      #expect(
        monitor.waitFor { $0.contains("string \"application://chat.desktop\"") && $0.contains("int64") })
      let text = monitor.seen
      #expect(text.contains("path=/com/canonical/unity/launcherentry/1003908537"))
      #expect(text.contains("interface=com.canonical.Unity.LauncherEntry; member=Update"))
      #expect(hint(named: "count", in: text) == "int64 3")
      #expect(hint(named: "count-visible", in: text) == "boolean true")
    }

    @Test func clearingTheBadgeHidesIt() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let monitor = try session.monitor(Self.rule)
      // When the badge is set to 0
      try sink.publishBadge(app: "chat", count: 0)
      // Then the signal says count 0, not visible
      #expect(monitor.waitFor { $0.contains("count-visible") })
      #expect(hint(named: "count", in: monitor.seen) == "int64 0")
      #expect(hint(named: "count-visible", in: monitor.seen) == "boolean false")
    }
  }
}
