import Foundation
import NotifyTestSupport
import Testing

/// `examples/scheduler.py`, the Python client docs/dbus.md points to, run as a user runs it on the
/// harness's bus with the daemon and the scripted notification server: it takes a button
/// picked while it was closed, schedules with buttons, hears the click on "Done" and ends.
@Suite(
  .ownThreads,
  .needsSchedulerBus)
struct SchedulerExampleTests {
  static let example = URL(fileURLWithPath: ScriptedDesktop.fixtures).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples/scheduler.py").path
  static let app = "org.example.Reminder"

  @Test func theExampleTakesWhatWaitedSchedulesHearsTheClickAndWithdraws() throws {
    // Given the daemon on the scripted server, and a button of the app's picked while no
    // process of it ran (it does not open the app: the answer waits)
    let bus = try SchedulerBus(withServer: true)
    try bus.startDaemon(sink: "desktop")
    _ = try bus.gdbus(
      "Present", Self.app,
      "{'id': <'earlier'>, 'title': <'Earlier'>, 'actions': <[{'key': <'later'>, 'title': <'Later'>}]>}")
    try bus.desktop.drive("Click", "\(try bus.shown(title: "Earlier"))", "later", "")
    let waits = waitUntil(timeout: 30) {
      ((try? bus.notify("history", "--json", "--app", Self.app).stdout) ?? "").contains("\"activated\"")
    }
    #expect(waits, "\(text(bus.folder.file("daemon.err")))")
    // When the example runs
    let out = bus.folder.file("example.out")
    let pid = try CommandRunner.spawn(
      ["/usr/bin/python3", Self.example, "--app", Self.app, "--in", "1s"],
      environment: ProcessInfo.processInfo.environment.merging(bus.environment) { $1 }, stdout: out,
      stderr: bus.folder.file("example.err"))
    defer { kill(pid, SIGKILL) }
    // Then it says what waited, and schedules
    let scheduled = waitUntil(timeout: 30) { text(out).contains("scheduled") }
    #expect(scheduled, "\(text(out)) \(text(bus.folder.file("example.err")))")
    #expect(text(out).contains("while closed: earlier action later"), "\(text(out))")
    // When its reminder is shown and the user picks "Done"
    let bubble = try bus.shown(title: "Stretch")
    try bus.desktop.drive("Click", "\(bubble)", "done", "")
    // Then it heard the click on "Done" and ended with 0 (its withdraw finds the bubble gone
    // already or closes it: a server closes a bubble when one of its buttons is picked)
    var status: Int32 = 0
    let ended = waitUntil(timeout: 30) { waitpid(pid, &status, WNOHANG) == pid }
    #expect(ended, "\(text(out)) \(text(bus.folder.file("example.err")))")
    #expect(CommandRunner.exitCode(ofWaitStatus: status) == 0, "\(text(bus.folder.file("example.err")))")
    #expect(text(out).contains("Activated"), "\(text(out))")
    #expect(text(out).contains("'done'"), "\(text(out))")
  }
}
