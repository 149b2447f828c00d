import BenchSupport
import Foundation
import Notify
import NotifyCore
import NotifyDesktop

/// The two ways of handing `count` notifications to the desktop that the harness compares.
enum DesktopBenchmark {
  /// Delivers `count` distinct notifications of `app` through `sink` and returns the time
  /// it took.
  static func deliverThroughSink(count: Int, sink: DesktopSink, app: String = "notify-bench") throws
    -> Duration
  {
    let now = Date()
    let deliveries = (0..<count).map { index in
      Delivery(
        notification: LocalNotification(
          id: "bench-\(index)", app: app, schedule: Schedule(fireDate: .instant(now)),
          title: "Benchmark \(index)", body: "Notification \(index) of \(count)", createdAt: now),
        occurrence: 1, fireDate: now, deliveredAt: now, late: false)
    }
    return try ContinuousClock().measure {
      for delivery in deliveries { try sink.deliver(delivery) }
    }
  }

  /// Runs `count` `notify-send` processes one after the other, as a shell loop would, and
  /// returns the time it took.
  static func deliverThroughNotifySend(count: Int, app: String = "notify-bench") throws -> Duration {
    try ContinuousClock().measure {
      for index in 0..<count {
        let status = try Child.run(
          ["notify-send", "-a", app, "Benchmark \(index)", "Notification \(index) of \(count)"])
        guard status == 0 else {
          throw BenchError("notify-send exited with status \(status): is a notification server on the bus?")
        }
      }
    }
  }
}
