import NotifyCore
import Testing

@testable import NotifyDesktop

/// The pure Notify mapping of SPEC.md §7, without a bus.
struct NotifyRequestTests {
  struct TextCase: Sendable, CustomTestStringConvertible {
    var name: String
    var title: String?
    var body: String?
    var capabilities: Set<String>
    var summary: String
    var sentBody: String
    var testDescription: String { name }
  }

  @Test(arguments: [
    TextCase(
      name: "title and body", title: "T", body: "B", capabilities: ["body"], summary: "T", sentBody: "B"),
    TextCase(
      name: "no title: body is the summary", title: nil, body: "B", capabilities: ["body-markup"],
      summary: "B", sentBody: ""),
    TextCase(
      name: "empty title counts as none", title: "", body: "B", capabilities: [], summary: "B", sentBody: ""),
    TextCase(
      name: "markup server: body escaped", title: "T", body: "<b>bold</b> & <i>x</i>",
      capabilities: ["body", "body-markup"], summary: "T",
      sentBody: "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;i&gt;x&lt;/i&gt;"),
    TextCase(
      name: "plain server: body as is", title: "T", body: "<b>bold</b> & 'x'", capabilities: ["body"],
      summary: "T", sentBody: "<b>bold</b> & 'x'"),
    TextCase(
      name: "summary never escaped", title: "<b>T</b> & 'u'", body: "B", capabilities: ["body-markup"],
      summary: "<b>T</b> & 'u'", sentBody: "B"),
    TextCase(
      name: "body as summary never escaped", title: nil, body: "a < b", capabilities: ["body-markup"],
      summary: "a < b", sentBody: ""),
  ])
  func text(_ c: TextCase) {
    // Given a delivery with this title and body
    let delivery = makeDelivery(title: c.title, body: c.body)
    // When it is mapped for a server with these capabilities
    let request = NotifyRequest(delivery: delivery, capabilities: c.capabilities)
    // Then summary and body are as SPEC.md §7 says
    #expect(request.summary == c.summary)
    #expect(request.body == c.sentBody)
  }

  @Test func fixedFields() {
    // Given a critical notification of app "chat" with a custom action, replacing bubble 7
    let delivery = makeDelivery(app: "chat", title: "T", action: "Reply", urgency: .critical)
    // When it is mapped
    let request = NotifyRequest(delivery: delivery, capabilities: [], replacesID: 7)
    // Then the fixed fields follow the notification
    #expect(request.appName == "chat")
    #expect(request.replacesID == 7)
    #expect(request.actions == ["default", "Reply"])
    #expect(request.hints["urgency"] == .byte(2))
    #expect(request.hints["desktop-entry"] == .string("chat"))
    #expect(request.expireTimeout == -1)
  }

  @Test func defaultActionLabelIsView() {
    let request = NotifyRequest(delivery: makeDelivery(title: "T"), capabilities: [])
    #expect(request.actions == ["default", "View"])
  }

  @Test(arguments: [(Urgency.low, UInt8(0)), (.normal, 1), (.critical, 2)])
  func urgencyByte(_ urgency: Urgency, _ byte: UInt8) {
    let request = NotifyRequest(delivery: makeDelivery(title: "T", urgency: urgency), capabilities: [])
    #expect(request.hints["urgency"] == .byte(byte))
  }

  struct SoundCase: Sendable, CustomTestStringConvertible {
    var name: String
    var sound: SoundName
    var soundFile: String?
    var capabilities: Set<String>
    var hints: [String: BusVariant]
    var testDescription: String { name }
  }

  @Test(arguments: [
    SoundCase(name: "no sound capability: none", sound: .none, capabilities: ["body"], hints: [:]),
    SoundCase(name: "no sound capability: default", sound: .default, capabilities: [], hints: [:]),
    SoundCase(
      name: "no sound capability: file", sound: .file("a.wav"), soundFile: "/s/a.wav", capabilities: [],
      hints: [:]),
    SoundCase(
      name: "none suppresses", sound: .none, capabilities: ["sound"], hints: ["suppress-sound": .bool(true)]),
    SoundCase(
      name: "default is message-new-instant", sound: .default, capabilities: ["sound"],
      hints: ["sound-name": .string("message-new-instant")]),
    SoundCase(
      name: "file plays its path", sound: .file("a.wav"), soundFile: "/s/a.wav", capabilities: ["sound"],
      hints: ["sound-file": .string("/s/a.wav")]),
    SoundCase(
      name: "unresolved file falls back to default", sound: .file("a.wav"), capabilities: ["sound"],
      hints: ["sound-name": .string("message-new-instant")]),
  ])
  func soundHints(_ c: SoundCase) {
    // Given a delivery with this sound
    let delivery = makeDelivery(title: "T", sound: c.sound, soundFile: c.soundFile)
    // When it is mapped
    let request = NotifyRequest(delivery: delivery, capabilities: c.capabilities)
    // Then only the expected sound hints are present
    let soundHints = request.hints.filter { !["urgency", "desktop-entry"].contains($0.key) }
    #expect(soundHints == c.hints)
  }

  @Test(arguments: [
    ("title only", "T" as String?, nil as String?, true),
    ("body only", nil, "B", true),
    ("neither (badge or sound only)", nil, nil, false),
    ("empty strings", "", "", false),
  ])
  func hasAlert(_ name: String, _ title: String?, _ body: String?, _ expected: Bool) {
    #expect(NotifyRequest.hasAlert(makeDelivery(title: title, body: body).notification) == expected)
  }
}
