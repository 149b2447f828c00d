import Foundation
import Glibc
import Notify
import NotifyCore
import NotifyTestSupport
import NotifyZones
import Testing

/// The stdout sink shows a burst with one `write(2)` (`BurstSink`): what its reader takes
/// is shown, a line cut short is finished before anything else, the rest is refused at the
/// fault, and nothing is written before the burst's gate opens.
@Suite("Stdout sink: a burst in one write")
struct StdoutBurstTests {
  func delivery(_ id: String, body: String = "b") -> Delivery {
    let now = Date()
    return Delivery(
      notification: LocalNotification(
        id: id, app: "burst", schedule: Schedule(fireDate: .instant(now)), body: body, createdAt: now),
      occurrence: 1, fireDate: now, deliveredAt: now, late: false)
  }

  /// A pipe of one page (4096 bytes), non-blocking at its read end.
  func pipe() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [0, 0]
    try #require(Glibc.pipe(&ends) == 0)
    _ = fcntl(ends[1], 1031, 4096)  // F_SETPIPE_SZ
    _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
    return (ends[0], ends[1])
  }

  func readAll(_ fd: Int32) -> String {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(fd, &buffer, buffer.count)
      guard n > 0 else { break }
      bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The id of a delivery line.
  static func id(_ line: Substring) -> String? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String
  }

  @Test("a reader with room takes the whole burst, not before the gate's instant")
  func wholeBurst() throws {
    let (r, w) = try pipe()
    defer { close(r); close(w) }
    let sink = StdoutSink(fd: w, readable: false, writeTimeout: 0.2, environment: [:])
    let instant = Date() + 0.05
    let answers = sink.deliver(
      burst: ["a", "b", "c"].map { delivery($0) }, after: DeliveryGate(instant, clock: SystemClock()))
    #expect(Date() >= instant)
    #expect(answers.count == 3)
    #expect(answers.allSatisfy { (try? $0.get()) != nil })
    let lines = readAll(r).split(separator: "\n").compactMap(Self.id)
    #expect(lines == ["a", "b", "c"])
  }

  @Test(
    "a pipe that fills mid-burst: the lines it took are shown, the cut one is finished first, the rest refused as stalled"
  )
  func fillsMidBurst() throws {
    // Given a one-page pipe and five lines of about 1.7 KB
    let (r, w) = try pipe()
    defer { close(r); close(w) }
    let sink = StdoutSink(fd: w, readable: false, writeTimeout: 0.2, environment: [:])
    let body = String(repeating: "x", count: 1700)
    let burst = (1...5).map { delivery("n\($0)", body: body) }
    // When the burst is written and nobody reads
    let answers = sink.deliver(burst: burst, after: .open)
    // Then what the pipe took is shown (a line it took the start of included: the rest is
    // owed), the first line it had no room for is refused as stalled, the rest not tried
    let shown = answers.prefix { (try? $0.get()) != nil }.count
    #expect((1..<5).contains(shown))
    #expect(answers.count == shown + 1)
    let fault = try #require(
      answers.last.flatMap { result -> SinkFault? in
        if case .failure(let error as SinkFault) = result { error } else { nil }
      })
    #expect(fault.kind == .stalled)
    // And once the reader reads, every line shown is whole, before the next delivery's
    var text = readAll(r)
    _ = try sink.deliver(delivery("next"))
    text += readAll(r)
    let lines = text.split(separator: "\n").compactMap(Self.id)
    #expect(lines == burst.prefix(shown).map(\.notification.id) + ["next"], "\(text.count) bytes")
  }

  @Test("a reader gone: the burst's first answer is the fault, nothing more is tried")
  func readerGone() throws {
    let (r, w) = try pipe()
    close(r)
    defer { close(w) }
    let sink = StdoutSink(fd: w, readable: false, writeTimeout: 0.2, environment: [:])
    let answers = sink.deliver(burst: ["a", "b"].map { delivery($0) }, after: .open)
    #expect(answers.count == 1)
    guard case .failure(let error as SinkFault)? = answers.first else {
      Issue.record("expected a sink fault, got \(answers)")
      return
    }
    #expect(error.kind == .gone)
  }
}
