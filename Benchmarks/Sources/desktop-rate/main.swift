// Desktop delivery rate: COUNT notifications to a paused dunst through notify's desktop
// sink (one sd-bus connection, as the daemon delivers) and through COUNT `notify-send`
// processes, in the same run; notifications per second and the ratio. Needs a session
// bus with dunst (`eval "$(.ci/desktop-session.sh)"`). See BENCHMARKS.md.
//   usage: desktop-rate [--count N] [--repeats N] [--smoke]
import BenchSupport
import Foundation
import Notify
import NotifyCore
import NotifyDesktop

runHarness("desktop-rate") {
  let arguments = Arguments()
  let count = arguments.int("--count", arguments.smoke ? 20 : 500)
  let repeats = arguments.int("--repeats", arguments.smoke ? 1 : 3)
  guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
    throw BenchError("no session bus: run eval \"$(bash .ci/desktop-session.sh)\" first")
  }
  // Paused, dunst queues notifications without drawing them: the cost measured is the
  // hand-off, not the X server.
  guard try Child.run(["dunstctl", "set-paused", "true"]) == 0 else {
    throw BenchError("dunstctl set-paused true failed: is dunst running on this bus?")
  }
  defer {
    _ = try? Child.run(["dunstctl", "close-all"])
    _ = try? Child.run(["dunstctl", "history-clear"])
    _ = try? Child.run(["dunstctl", "set-paused", "false"])
  }
  let sink = try DesktopSink()
  var ours: [Double] = []
  var theirs: [Double] = []
  for _ in 0..<repeats {
    let sinkTime = try DesktopBenchmark.deliverThroughSink(count: count, sink: sink)
    let sendTime = try DesktopBenchmark.deliverThroughNotifySend(count: count)
    ours.append(Double(count) / seconds(sinkTime))
    theirs.append(Double(count) / seconds(sendTime))
    _ = try? Child.run(["dunstctl", "close-all"])
    _ = try? Child.run(["dunstctl", "history-clear"])
  }
  let (rate, peer) = (Stats.median(ours), Stats.median(theirs))
  print("### Desktop delivery rate: \(count) notifications to a paused dunst, median of \(repeats)")
  print()
  print(Format.header(["", "notifications per second", "repeats"]))
  print(
    Format.row([
      "notify desktop sink (sd-bus)", String(format: "%.0f", rate),
      ours.map { String(format: "%.0f", $0) }.joined(separator: ", "),
    ]))
  print(
    Format.row([
      "notify-send (one process each)", String(format: "%.0f", peer),
      theirs.map { String(format: "%.0f", $0) }.joined(separator: ", "),
    ]))
  print()
  print(
    "ratio notify/notify-send: \(Format.ratio(rate / peer)); target >= 5x (\(Format.verdict(rate >= 5 * peer)))"
  )
}

/// A `Duration` in seconds.
func seconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
