import ArgumentParser
import Foundation
import Glibc
import Logging
import Notify
import NotifyCore
import NotifyFiring

/// `notify fire-due`: delivers what is due, within a budget, then exits (SPEC.md §6).
struct FireDueCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fire-due", _superCommandName: "notify", abstract: "Deliver what is due, then exit.",
    discussion: """
      For a systemd timer (units/notify-fire.timer) or cron. Missed occurrences are \
      delivered once with late: true (a repeating notification once, then it moves on). \
      During quiet hours what falls due is held; each run shows what quiet hours no longer \
      hold, so a held notification comes out at the first run after they end (a run arms \
      nothing; notify daemon shows it when they end). \
      Shortly before --budget is spent no new delivery starts; what is left stays due for \
      the next run, and the count is printed on stderr. Exit 0 then, 75 if one delivery \
      alone outlasted the whole budget. SIGTERM, SIGINT or SIGHUP stop it the same way \
      (a delivery in progress ends within the sink's own timeout), then it ends by that \
      signal. A stdout whose reader stopped reading ends the run with 75, one whose reader \
      went away with 69; nothing is recorded failed for either.
      """)

  @OptionGroup var store: StoreOptions

  @Option(name: .long, help: "auto (desktop when a server answers, else stdout), desktop or stdout.")
  var sink: SinkChoice = .auto

  @Option(name: .long, parsing: .unconditional, help: "Time allowed for the whole run (e.g. 25s, 1m).")
  var budget: String = "25s"

  func run() throws {
    // Before any thread exists: a stop signal waits for the run to look between hand-offs
    // (it would otherwise kill the run mid-burst, with claims left for the next run).
    StopSignals.block()
    LoggingSystem.bootstrap { JournalLogHandler(label: $0) }
    NotifyLogging.level = .info
    let budget = try DurationArgument.parse(budget, option: "--budget")
    let run = try FiringEngine.fireDue(
      store: try store.open(), options: .init(sink: sink), budget: budget,
      onOverrun: {
        Output.error(
          "error: a delivery was still running \(Int(FireDue.overrunGrace)) s after the budget of \(TimeText.seconds(budget)) ran out: the sink is stuck; the next run delivers what is left"
        )
        _exit(NotifyError.Kind.temporary.rawValue)
      })
    // Clicks on what this run shows would reach nobody once it ends: a running firer takes over.
    defer { run.leaveShownBubbles() }
    let summary = run.summary
    if let fault = summary.sinkFault {
      run.leaveShownBubbles()
      Output.error(
        "error: \(fault): delivered \(summary.report.delivered), left \(summary.left) for the next run\(fault.kind == .gone ? "; give it a reader, or use --sink desktop" : "")"
      )
      Foundation.exit(
        fault.kind == .gone ? NotifyError.Kind.unavailable.rawValue : NotifyError.Kind.temporary.rawValue)
    }
    if summary.interrupted, let signal = StopSignals.pending() {
      Output.error(
        "stopped by \(StopSignals.name(signal)): delivered \(summary.report.delivered), left \(summary.left) for the next run"
      )
      run.leaveShownBubbles()
      Self.end(by: signal)
    }
    if summary.budgetSpent {
      Output.error(
        "budget of \(TimeText.seconds(budget)) spent: delivered \(summary.report.delivered), left \(summary.left) for the next run"
      )
    }
  }

  /// Ends the process by `signal`, as it would have ended had it not waited to give its
  /// claims back: a shell running it in a loop, or systemd stopping the timer's run, sees
  /// that it was stopped.
  static func end(by signal: Int32) -> Never {
    Glibc.signal(signal, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(signal)
    Foundation.exit(128 + signal)
  }
}

/// Durations for `--budget` and `--misfire-grace`: the `--in` syntax (`25s`, `1m30s`)
/// plus whole milliseconds (`300ms`), since budgets are often shorter than a second.
enum DurationArgument {
  static func parse(_ text: String, option: String) throws(NotifyError) -> TimeInterval {
    if text.hasSuffix("ms"), let millis = Int(text.dropLast(2)), millis > 0 {
      return TimeInterval(millis) / 1000
    }
    do {
      return try TimeParser.duration(text)
    } catch {
      // The parser speaks of a delay (--in); say which option was wrong.
      let name = { (term: Term) in term == .delay ? option : term.flag }
      throw error.reworded(
        ErrorText(error.problemText.rendered(name)),
        fix: error.fixText.map { ErrorText($0.rendered(name) + " (or milliseconds such as 500ms)") })
    }
  }
}

/// Short spellings of durations for messages.
enum TimeText {
  /// `25 s`, `0.2 s`.
  static func seconds(_ value: TimeInterval) -> String {
    value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
  }
}
