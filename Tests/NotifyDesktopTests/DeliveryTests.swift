import Foundation
import NotifyCore
import NotifyDesktop
import NotifyTestSupport
import Testing

extension DesktopIntegration {
  /// What dunst receives for a delivery (SPEC.md §7).
  @Suite struct DeliveryTests {
    @Test func titleAndBodyReachDunst() throws {
      // Given dunst and a sink
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      // When a notification with title and body is delivered
      try sink.deliver(makeDelivery(app: "chat", title: "Lunch", body: "At noon"))
      // Then dunst shows that summary, body and app name
      let history = try session.closeAllAndReadHistory(expecting: 1)
      #expect(history.count == 1)
      #expect(history.first?["summary"] == "Lunch")
      #expect(history.first?["body"] == "At noon")
      #expect(history.first?["appname"] == "chat")
      #expect(history.first?["default_action_name"] == "default")
    }

    @Test func bodyBecomesSummaryWithoutTitle() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      // When a notification without title is delivered
      try sink.deliver(makeDelivery(app: "chat", body: "Only a body"))
      // Then the body is the summary and the body is empty
      let history = try session.closeAllAndReadHistory(expecting: 1)
      #expect(history.first?["summary"] == "Only a body")
      #expect(history.first?["body"] == "")
    }

    @Test func markupInTheBodyShowsLiterally() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      // Given a server that parses body markup (dunst with markup = full)
      #expect(sink.capabilities.contains("body-markup"))
      let text = "<b>bold</b> & <i>x</i>"
      // When a body with markup is delivered
      try sink.deliver(makeDelivery(title: "T", body: text))
      // Then dunst received it escaped: its markup parser turns it back into exactly the text
      // (the body dunst stored is what it hands to Pango, and "message" is the rendered source)
      let escaped = "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;i&gt;x&lt;/i&gt;"
      let history = try session.closeAllAndReadHistory(expecting: 1)
      #expect(history.first?["body"] == escaped)
      #expect(history.first?["message"]?.hasSuffix("\n" + escaped) == true)
      #expect(unescapeMarkup(escaped) == text)
    }

    @Test func markupInTheSummaryShowsLiterally() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let text = "<b>bold</b> & <i>x</i>"
      // When markup arrives as the summary (no title: the body is the summary)
      try sink.deliver(makeDelivery(body: text))
      // Then the summary went out as plain text, and dunst escaped it for display itself
      let history = try session.closeAllAndReadHistory(expecting: 1)
      #expect(history.first?["summary"] == text)
      #expect(
        history.first?["message"]?.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &lt;i&gt;x&lt;/i&gt;") == true)
    }

    @Test(arguments: [(Urgency.low, 0), (.normal, 1), (.critical, 2)])
    func urgencyReachesTheServer(_ urgency: Urgency, _ level: Int) throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let monitor = try session.monitor(
        "type='method_call',interface='org.freedesktop.Notifications',member='Notify'")
      // When a notification with this urgency is delivered
      try sink.deliver(makeDelivery(title: "T", urgency: urgency))
      // Then the Notify call carries the urgency hint as that byte
      let seen = monitor.waitFor { hint(named: "urgency", in: $0) != nil }
      #expect(seen)
      #expect(hint(named: "urgency", in: monitor.seen) == "byte \(level)")
      #expect(hint(named: "desktop-entry", in: monitor.seen) == "string \"chat\"")
    }

    @Test func noSoundHintsForAServerWithoutSound() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let monitor = try session.monitor(
        "type='method_call',interface='org.freedesktop.Notifications',member='Notify'")
      // Given dunst, which does not advertise "sound"
      #expect(!sink.supportsSound)
      // When a notification with the default sound is delivered
      let delivery = makeDelivery(title: "T", sound: .default)
      try sink.deliver(delivery)
      // Then no sound hint is sent and the caller is told to play the sound itself
      #expect(monitor.waitFor { hint(named: "urgency", in: $0) != nil })
      #expect(!monitor.seen.contains("sound"))
      #expect(!sink.handlesSound(for: delivery))
    }

    @Test func aReplacedNotificationReplacesItsBubble() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      let key = DesktopNotificationKey(app: "chat", id: "same")
      // When the same notification id is delivered twice
      let first = try sink.deliver(makeDelivery(id: "same", title: "First"))
      let second = try sink.deliver(makeDelivery(id: "same", title: "Second", occurrence: 2))
      // Then the second replaced the first bubble: same server id, one bubble, new text;
      // each receipt names the bubble and the server instance that gave it
      #expect(first.bubble != nil)
      #expect(first.bubble?.server == sink.serverInstance)
      #expect(second.bubble == first.bubble)
      #expect(sink.serverID(for: key) == first.bubble?.id)
      #expect(
        try session.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
      let history = try session.closeAllAndReadHistory(expecting: 1)
      #expect(history.map { $0["summary"] } == ["Second"])
    }

    @Test func badgeOrSoundOnlyShowsNoBubble() throws {
      let session = try HeadlessDesktop()
      let sink = try session.makeSink()
      // When a notification with only a badge is delivered
      try sink.deliver(makeDelivery(badge: 2))
      // Then dunst was not asked to show anything
      #expect(try session.dunstctl("count", "waiting").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
      #expect(
        try session.dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }
  }
}

/// The variant that follows `string "NAME"` in dbus-monitor's dump of a hints dictionary.
func hint(named name: String, in monitorText: String) -> String? {
  let lines = monitorText.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
  guard let index = lines.firstIndex(of: "string \"\(name)\""), index + 1 < lines.count else { return nil }
  let variant = lines[index + 1]
  guard variant.hasPrefix("variant") else { return nil }
  return variant.dropFirst("variant".count).trimmingCharacters(in: .whitespaces)
}

/// Undoes one level of XML entity escaping, as a markup parser does.
func unescapeMarkup(_ text: String) -> String {
  text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
    .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
    .replacingOccurrences(of: "&amp;", with: "&")
}
