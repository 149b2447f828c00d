/// What `notify quiet` says of the notifications quiet hours hold: how many, and who shows
/// them when. While it is quiet they wait for its end. Once it is not (`notify quiet off`,
/// or a period that ended), a running firer shows them at once: the daemon for every app,
/// an app's own process for that app (a store change wakes either). With neither running
/// they stay held until `notify fire-due` runs or the daemon starts.
struct HeldReport {
  /// Held occurrences per app.
  var held: [String: Int]
  /// Whether it is quiet now.
  var isQuiet: Bool
  /// The process of `notify daemon`, when one runs.
  var daemonPID: Int32?
  /// Per app, a process of its own that fires its notifications.
  var appFirers: [String: Int32]
  /// Whether `notify-fire.timer` is enabled for the user.
  var timerEnabled: Bool

  /// The lines to print: none when nothing is held.
  var lines: [String] {
    let total = held.values.reduce(0, +)
    guard total > 0 else { return [] }
    if isQuiet { return ["held: \(total), shown when quiet ends"] }
    if let daemonPID {
      return ["released: \(total), quiet hours are over: the daemon (pid \(daemonPID)) shows them now"]
    }
    let apps = held.keys.sorted()
    let byOwnProcess = apps.filter { appFirers[$0] != nil }
    let waiting = apps.filter { appFirers[$0] == nil }
    var lines: [String] = []
    if !byOwnProcess.isEmpty {
      let count = byOwnProcess.reduce(0) { $0 + held[$1, default: 0] }
      let processes = byOwnProcess.compactMap { app in
        appFirers[app].map { "\(Output.safe(app))'s own process (pid \($0))" }
      }
      lines.append(
        "released: \(count), quiet hours are over: \(processes.joined(separator: ", ")) \(byOwnProcess.count == 1 ? "shows" : "show") them now"
      )
    }
    if !waiting.isEmpty {
      let count = waiting.reduce(0) { $0 + held[$1, default: 0] }
      let when =
        timerEnabled
        ? "the next notify fire-due run (notify-fire.timer, within a minute) shows them"
        : "they are shown when notify daemon starts or notify fire-due runs"
      lines.append("held: \(count), quiet hours are over but no daemon is running: \(when)")
    }
    return lines
  }
}
