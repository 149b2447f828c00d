import Foundation
import NotifyCore

/// Helpers for the desktop delivery-rate benchmark (`Benchmarks/`): the same number of
/// notifications through a `DesktopSink` and through `notify-send` processes.
public enum DesktopBenchmark {
  /// Delivers `count` distinct notifications of `app` through `sink` and returns the time
  /// it took.
  public static func deliverThroughSink(
    count: Int, sink: DesktopSink, app: String = "notify-bench"
  ) throws -> Duration {
    let clock = ContinuousClock()
    let now = Date()
    let deliveries = (0..<count).map { index in
      Delivery(
        notification: LocalNotification(
          id: "bench-\(index)", app: app, schedule: Schedule(fireDate: .instant(now)),
          title: "Benchmark \(index)",
          body: "Notification \(index) of \(count)", createdAt: now),
        occurrence: 1, fireDate: now, deliveredAt: now, late: false)
    }
    return try clock.measure {
      for delivery in deliveries { try sink.deliver(delivery) }
    }
  }

  /// Runs `count` `notify-send` processes one after the other (as a shell loop would)
  /// with `environment` and returns the time it took.
  public static func deliverThroughNotifySend(
    count: Int, executable: String = "/usr/bin/notify-send", app: String = "notify-bench",
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> Duration {
    let clock = ContinuousClock()
    return try clock.measure {
      for index in 0..<count {
        let child = try ChildProcess.spawn(
          [executable, "-a", app, "Benchmark \(index)", "Notification \(index) of \(count)"],
          environment: environment)
        let status = child.wait()
        guard status == 0 else {
          throw NotifyError(
            .unavailable, "notify-send exited with status \(status)",
            fix: "check that a notification server runs on the session bus")
        }
      }
    }
  }
}
