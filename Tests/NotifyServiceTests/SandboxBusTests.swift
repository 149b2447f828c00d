import Foundation
import NotifyTestSupport
import Testing

/// Sandboxed callers on a real bus: the daemon on the harness's private bus, the Python
/// client inside `bwrap` with a `/.flatpak-info`, reaching the bus through `xdg-dbus-proxy`
/// run as Flatpak runs it, and the `notify` command on the same store as the judge.
@Suite(
  .ownThreads,
  .needsSchedulerBus,
  .enabled(
    if: FlatpakSandbox.usable,
    "needs bwrap (bubblewrap) able to create mount and pid namespaces on this machine, and xdg-dbus-proxy")
)
struct SandboxBusTests {
  @Test func aFlatpakAppActsForItselfOnly() throws {
    // Given the daemon, a notification of another app, and the Flatpak app org.example.Probe
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let other = try bus.gdbus(
      "Schedule", "org.example.Other", "[{'id': <'theirs'>, 'body': <'b'>, 'in': <'1h'>}]")
    #expect(other.status == 0, "\(other.stderr)")
    let sandbox = try FlatpakSandbox(bus: bus, appID: "org.example.Probe")
    let before = try bus.notify("list", "--json", "--app", "org.example.Other").stdout

    // When it schedules naming itself, and with an empty id
    let own = try sandbox.python("batch", "org.example.Probe", "1")
    #expect(own["result"] != nil, "\(own)")
    let empty = try sandbox.python("present", "", "now1")
    #expect(empty["result"] as? [String] == ["now1"], "\(empty)")
    // Then both act for org.example.Probe
    #expect(try bus.pendingIDs(app: "org.example.Probe") == ["b1"])
    let history = try bus.notify("history", "--json", "--app", "org.example.Probe").stdout
    #expect(history.contains("\"now1\""), "\(history)")

    // When it claims org.example.Other: to schedule, and to list
    let claimed = try sandbox.python("batch", "org.example.Other", "2")
    let listed = try sandbox.python("list", "org.example.Other")
    // Then both are NotAllowed, naming its own id and the fix, and the other app's store is unchanged
    for answer in [claimed, listed] {
      #expect(answer["error"] as? String == "io.github.notify.Scheduler1.Error.NotAllowed", "\(answer)")
      let message = answer["message"] as? String ?? ""
      #expect(message.contains("the Flatpak app 'org.example.Probe'"), "\(message)")
      #expect(
        message.contains("not 'org.example.Other'")
          && message.contains("pass 'org.example.Probe' or an empty app id"))
    }
    #expect(try bus.notify("list", "--json", "--app", "org.example.Other").stdout == before)
    #expect(try bus.pendingIDs(app: "org.example.Other") == ["theirs"])
    // And its own list shows its own only
    let mine = try sandbox.python("list", "")
    let ids = (mine["result"] as? [[[String: Any]]])?.first?.compactMap { $0["id"] as? String }
    #expect(ids == ["b1"], "\(mine)")
  }

  @Test func aFlatpakAppHearsItsOwnSignalsOnly() throws {
    // Given the daemon, and org.example.Probe's client in its sandbox subscribed with an empty id
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let sandbox = try FlatpakSandbox(bus: bus, appID: "org.example.Probe")
    let record = try sandbox.listen(appID: "")
    // And one claiming another app cannot subscribe to it
    let claimed = try sandbox.python("subscribe", "org.example.Other")
    #expect(claimed["error"] as? String == "io.github.notify.Scheduler1.Error.NotAllowed", "\(claimed)")
    // When another app's notification and then its own are presented (from outside the sandbox)
    #expect(try bus.python("present", "org.example.Other", "for-other")["result"] != nil)
    #expect(try bus.python("present", "org.example.Probe", "for-probe")["result"] != nil)
    // Then it hears Delivered for its own, and nothing of the other's (sent first)
    let heard = waitUntil(timeout: 30) { text(record).contains("\"for-probe\"") }
    #expect(heard, "heard: \(text(record)) daemon: \(text(bus.folder.file("daemon.err")))")
    #expect(text(record).contains("\"Delivered\""))
    #expect(!text(record).contains("for-other"), "\(text(record))")
  }

  @Test func aSandboxNotifyCannotIdentifyIsRefused() throws {
    // Given a bwrap sandbox without /.flatpak-info that reaches the bus directly
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let sandbox = try FlatpakSandbox(bus: bus, appID: nil)
    // When it schedules for an app it names
    let answer = try sandbox.python("batch", "org.example.Anyone", "1")
    // Then it is NotAllowed, saying why, and nothing is stored
    #expect(answer["error"] as? String == "io.github.notify.Scheduler1.Error.NotAllowed", "\(answer)")
    #expect((answer["message"] as? String ?? "").contains("a sandbox notify cannot identify"), "\(answer)")
    #expect(try bus.pendingIDs(app: "org.example.Anyone").isEmpty)
    // While the same call from outside a sandbox is taken, as before
    let host = try bus.python("batch", "org.example.Anyone", "1")
    #expect(host["result"] != nil, "\(host)")
    #expect(try bus.pendingIDs(app: "org.example.Anyone") == ["b1"])
  }
}
