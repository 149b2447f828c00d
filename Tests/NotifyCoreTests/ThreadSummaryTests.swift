import Foundation
import NotifyCore
import Testing

/// A thread as one bubble: the count line, and the thread's bubble after each
/// delivery, as pure decisions.
struct ThreadSummaryTests {
  static let bubble = ServerBubbleID(7, server: "bus/:1.5")

  @Test(
    "the count line in the app's words",
    arguments: [
      (1, nil, nil),
      (2, nil, "2 new"),
      (5, "%u messages from alice", "5 messages from alice"),
      (3, "100%% sure: %u", "100% sure: 3"),
      (12, "(%u)", "(12)"),
    ] as [(Int, String?, String?)])
  func line(count: Int, format: String?, expected: String?) {
    #expect(ThreadSummary.line(count: count, format: format) == expected)
  }

  @Test("the body is the latest text with the count line under it")
  func body() {
    #expect(ThreadSummary.body("hi", count: 1, format: nil) == "hi")
    #expect(ThreadSummary.body("hi", count: 3, format: nil) == "hi\n3 new")
    #expect(ThreadSummary.body("", count: 3, format: nil) == "3 new")
  }

  @Test("five deliveries of a thread: one bubble standing for 1, 2, 3, 4, 5")
  func fiveDeliveries() {
    // Given a thread with no bubble
    var thread: ThreadBubble?
    var counts: [Int] = []
    // When five notifications are shown, each replacing the bubble the server answered with
    for index in 1...5 {
      counts.append(ThreadSummary.count(replacing: thread, id: "m\(index)"))
      let next = ThreadSummary.after(thread, id: "m\(index)", shownAs: Self.bubble)
      if index > 1 { #expect(ThreadSummary.handedOver(from: thread, to: next!) == "m\(index - 1)") }
      thread = next
    }
    // Then the bubble stands for each one more, and shows the latest
    #expect(counts == [1, 2, 3, 4, 5])
    #expect(thread == ThreadBubble(bubble: Self.bubble, latestID: "m5", count: 5))
  }

  @Test("a new bubble (server restarted, bubble closed) starts again at 1")
  func newBubble() {
    let previous = ThreadBubble(bubble: Self.bubble, latestID: "m3", count: 3)
    let other = ServerBubbleID(9, server: "bus/:1.8")
    let next = ThreadSummary.after(previous, id: "m4", shownAs: other)
    #expect(next == ThreadBubble(bubble: other, latestID: "m4", count: 1))
    #expect(ThreadSummary.handedOver(from: previous, to: next!) == nil)
  }

  @Test("a notification shown again in its own bubble is not one more; nothing shown changes nothing")
  func sameNotification() {
    let previous = ThreadBubble(bubble: Self.bubble, latestID: "m3", count: 3)
    #expect(ThreadSummary.count(replacing: previous, id: "m3") == 3)
    #expect(ThreadSummary.after(previous, id: "m3", shownAs: Self.bubble)?.count == 3)
    #expect(ThreadSummary.after(previous, id: "m4", shownAs: nil) == nil)
  }

  @Test("formats are checked", arguments: ["%u new", "%%u", "%u of %u"])
  func validFormat(format: String) throws {
    try ThreadSummary.validate(format: format)
  }

  @Test(
    "bad formats are refused with 65",
    arguments: ["", "%d new", "50%", "a\nb", String(repeating: "x", count: 101)])
  func invalidFormat(format: String) {
    let error = #expect(throws: NotifyError.self) { try ThreadSummary.validate(format: format) }
    #expect(error?.kind == .invalidData)
  }
}

/// A thread's bubble shown by a process that stopped (`fire-due`, `notify now`): nobody
/// heard its close, so after the take-over window it counts from 1 again.
struct ThreadSummaryClosedTests {
  let shown = Date(timeIntervalSince1970: 1_800_000_000)

  @Test(
    "likely closed only when its process stopped and the take-over window passed",
    arguments: [
      (false, 11.0, true), (false, 10.0, false), (false, 2.0, false), (true, 3600.0, false),
    ] as [(Bool, TimeInterval, Bool)])
  func likelyClosed(running: Bool, after seconds: TimeInterval, expected: Bool) {
    #expect(
      ThreadSummary.likelyClosed(shownAt: shown, shownByRunning: running, now: shown + seconds) == expected)
  }

  @Test("a bubble recorded before who showed it was kept is taken as heard")
  func unknown() {
    #expect(!ThreadSummary.likelyClosed(shownAt: nil, shownByRunning: false, now: shown + 86_400))
  }

  @Test("a likely closed bubble is still replaced, and counts from 1 again")
  func countsAgain() {
    let bubble = ServerBubbleID(7, server: "bus/:1.5")
    let previous = ThreadBubble(bubble: bubble, latestID: "m5", count: 5, likelyClosed: true)
    #expect(ThreadSummary.count(replacing: previous, id: "m6") == 1)
    let next = ThreadSummary.after(previous, id: "m6", shownAs: bubble)
    #expect(next == ThreadBubble(bubble: bubble, latestID: "m6", count: 1))
    #expect(ThreadSummary.after(next, id: "m7", shownAs: bubble)?.count == 2)
  }
}
