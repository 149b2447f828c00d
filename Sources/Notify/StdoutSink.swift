import Foundation
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifySound
import NotifyStore
import NotifyZones

/// Writes deliveries to a file descriptor (stdout by default): one JSON object per line
/// when it is not a terminal, a readable, escaped line when it is (SPEC.md §5).
///
/// A reader that stops reading or goes away is a fault of the sink, not of the
/// notification (`SinkFault`): a line its reader did not start reading within
/// `writeTimeout` is refused as `stalled` (the firer gives it back and tries again), and a
/// reader that left (`EPIPE`) makes the sink `gone`. Writing never blocks longer than
/// `writeTimeout` (`LineWriter`), so a stalled reader cannot hold the firer or its stop.
///
/// A stdout that is the journal (a systemd unit's, named by `JOURNAL_STREAM`) gets nothing:
/// the firer's log line ("delivered", with the id and app) is the record there, and the
/// content stays in the store's history, never in the journal (docs/decisions/0011).
package final class StdoutSink: BurstSink {
  public let name = "stdout"
  /// A burst's lines go out with one `write(2)`.
  public var showsBursts: Bool { true }
  /// How long one line may wait for its reader before the delivery is refused as stalled.
  public static let writeTimeout: TimeInterval = 1
  private let fd: Int32
  private let readable: Bool
  private let writer: LineWriter
  /// The zone of readable lines: read once, when the first one is written.
  private lazy var zone: Zone = requestedZone ?? SystemClock.readSystemZone()
  private let requestedZone: Zone?
  /// True when `fd` is the journal's stream: content is not written there.
  public let isJournal: Bool

  /// Creates a sink writing to `fd`; `readable` defaults to whether `fd` is a terminal, and
  /// readable lines show times in `zone` (default: the system zone when the first is written).
  public init(
    fd: Int32 = STDOUT_FILENO, readable: Bool? = nil, zone: Zone? = nil,
    writeTimeout: TimeInterval = StdoutSink.writeTimeout,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.fd = fd
    self.isJournal = JournalLogHandler.isJournalStream(fd, environment: environment)
    self.readable = readable ?? (isatty(fd) == 1)
    self.requestedZone = zone
    self.writer = LineWriter(fd: fd, timeout: writeTimeout)
  }

  /// Writes the delivery's line; the receipt says when the journal got only the log line.
  @discardableResult
  public func deliver(_ delivery: Delivery) throws -> DeliveryReceipt {
    try deliver(delivery, after: .open)
  }

  /// Builds the line, passes `gate`, then writes it: at the instant only the `write(2)` is left.
  @discardableResult
  public func deliver(_ delivery: Delivery, after gate: DeliveryGate) throws -> DeliveryReceipt {
    // A line is the alert: with alerts off (or shown by the app itself) nothing is printed.
    guard delivery.presentation.contains(.banner), !isJournal else {
      gate.pass()
      return delivery.presentation.contains(.banner) ? journalReceipt : DeliveryReceipt()
    }
    let bytes = line(delivery)
    gate.pass()
    do {
      try writer.write(bytes)
    } catch {
      throw fault(error)
    }
    return DeliveryReceipt()
  }

  /// Builds the burst's lines, passes `gate`, then writes them in whole-line `write(2)`s
  /// of at most `PIPE_BUF` (`LineWriter.write(lines:)`; one for a burst of a few): the
  /// reader wakes once or a few times for the burst, not once a line. Those it did not
  /// take are refused as stalled at the first of them; a reader gone makes that one `gone`.
  public func deliver(burst deliveries: [Delivery], after gate: DeliveryGate) -> [Result<
    DeliveryReceipt, any Error
  >] {
    let lines = deliveries.filter { $0.presentation.contains(.banner) && !isJournal }.map(line)
    gate.pass()
    var taken = 0
    var problem: SinkFault?
    do {
      taken = lines.isEmpty ? 0 : try writer.write(lines: lines)
      if taken < lines.count {
        problem = fault(
          .stalled("its reader has not read for \(LineWriter.TimeText.seconds(writer.timeout))"))
      }
    } catch {
      problem = fault(error)
    }
    var answers: [Result<DeliveryReceipt, any Error>] = []
    var written = 0
    for delivery in deliveries {
      guard delivery.presentation.contains(.banner), !isJournal else {
        answers.append(.success(delivery.presentation.contains(.banner) ? journalReceipt : DeliveryReceipt()))
        continue
      }
      guard written < taken else {
        // Stops at the fault: the rest were not shown.
        if let problem { answers.append(.failure(problem)) }
        break
      }
      answers.append(.success(DeliveryReceipt()))
      written += 1
    }
    return answers
  }

  /// What a writer's problem is to the firer: a stalled reader may read again, a gone one not.
  private func fault(_ problem: LineWriter.Problem) -> SinkFault {
    switch problem {
    case .stalled(let reason): SinkFault(.stalled, sink: name, reason: reason)
    case .gone(let reason): SinkFault(.gone, sink: name, reason: reason)
    }
  }

  /// The delivery's line as written: JSON, or readable on a terminal; newline included.
  private func line(_ delivery: Delivery) -> [UInt8] {
    guard !readable else { return Array((readableLine(delivery) + "\n").utf8) }
    var bytes = delivery.jsonRecord.compactUTF8
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }

  private var journalReceipt: DeliveryReceipt {
    DeliveryReceipt(
      note: "stdout is the journal: only the log line (id and app) was written there, not the content")
  }

  private func readableLine(_ d: Delivery) -> String {
    let n = d.notification
    var parts = [
      "[\(zone.timeOfDayText(for: d.deliveredAt))]", "\(Escaper.visible(n.app))/\(Escaper.visible(n.id))",
    ]
    if let title = n.title { parts.append(Escaper.visible(title)) }
    if let body = n.body {
      parts.append(n.title == nil ? Escaper.visible(body) : "— " + Escaper.visible(body))
    }
    if d.sound != .none { parts.append("♪ \(Escaper.visible(d.sound.name))") }
    if let badge = n.badge { parts.append("[badge \(badge)]") }
    if d.late { parts.append("(late)") }
    if let note = d.soundNote { parts.append("(sound: \(Escaper.visible(note)))") }
    return parts.joined(separator: " ")
  }
}
