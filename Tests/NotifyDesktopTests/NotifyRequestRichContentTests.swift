import Foundation
import NotifyCore
import Testing

@testable import NotifyDesktop

/// Subtitle, level and attachments on the freedesktop call, without a bus.
struct NotifyRequestRichContentTests {
  func request(
    title: String? = "alice", subtitle: String?, body: String? = "hi <there>", capabilities: Set<String>,
    level: InterruptionLevel = .active, attachments: [NotificationAttachment] = []
  ) -> NotifyRequest {
    let notification = LocalNotification(
      id: "m", app: "chat", schedule: Schedule(fireDate: .instant(Date(timeIntervalSince1970: 0))),
      title: title,
      body: body, subtitle: subtitle, interruptionLevel: level, attachments: attachments,
      createdAt: Date(timeIntervalSince1970: 0))
    let delivery = Delivery(
      notification: notification, occurrence: 1, fireDate: notification.createdAt,
      deliveredAt: notification.createdAt, late: false)
    return NotifyRequest(delivery: delivery, capabilities: capabilities)
  }

  @Test("a subtitle is the body's first line, bold and escaped where the server parses markup")
  func subtitleLine() {
    let plain = request(subtitle: "#linux", capabilities: ["body"])
    #expect(plain.summary == "alice")
    #expect(plain.body == "#linux\nhi <there>")
    let markup = request(subtitle: "a & b", capabilities: ["body", "body-markup"])
    #expect(markup.body == "<b>a &amp; b</b>\nhi &lt;there&gt;")
    let alone = request(subtitle: "#linux", body: nil, capabilities: ["body-markup"])
    #expect(alone.body == "<b>#linux</b>")
  }

  @Test("without a title the subtitle is the summary")
  func subtitleAsSummary() {
    let request = request(title: nil, subtitle: "#linux", capabilities: ["body"])
    #expect(request.summary == "#linux")
    #expect(request.body == "hi <there>")
  }

  @Test("the level decides the urgency byte: passive 0, active and time-sensitive 1, critical 2")
  func levels() {
    for (level, byte) in [(InterruptionLevel.passive, 0), (.active, 1), (.timeSensitive, 1), (.critical, 2)] {
      #expect(request(subtitle: nil, capabilities: [], level: level).hints["urgency"] == .byte(UInt8(byte)))
    }
  }

  @Test("the first attachment's kept copy is the image-path, as a file URI")
  func imagePath() {
    let kept = NotificationAttachment(
      identifier: "cat.png", kind: .png,
      file: "/home/u/.local/state/notify/notify.db.attachments/chat/m.t.0.png",
      size: 10)
    let shown = request(subtitle: nil, capabilities: [], attachments: [kept])
    #expect(shown.hints["image-path"] == .string("file://" + kept.file))
    #expect(request(subtitle: nil, capabilities: []).hints["image-path"] == nil)
  }

  @Test("a server advertising x-kde-urls gets every attachment as a file URI; others do not")
  func kdeURLs() {
    let kept = ["a.png", "b.jpg"].map { name in
      NotificationAttachment(
        identifier: name, kind: .png, file: "/s/notify.db.attachments/chat/\(name)", size: 10)
    }
    let kde = request(subtitle: nil, capabilities: ["x-kde-urls"], attachments: kept)
    #expect(kde.hints["x-kde-urls"] == .strings(kept.map { "file://" + $0.file }))
    #expect(request(subtitle: nil, capabilities: ["body"], attachments: kept).hints["x-kde-urls"] == nil)
  }
}
