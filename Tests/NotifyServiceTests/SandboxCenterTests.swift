import Foundation
import NotifyTestSupport
import Testing

/// The library inside a Flatpak sandbox goes through notify's service on the host
/// (docs/sandboxes.md): the daemon on the harness's private bus with the
/// scripted notification server, `sandbox-center-fixture` inside `bwrap` with a
/// `/.flatpak-info` naming org.example.Probe, and `notify` on the host store as the judge.
@Suite(
  .serialized, .ownThreads,
  .needsSchedulerBus,
  .enabled(
    if: FlatpakSandbox.usable,
    "needs bwrap (bubblewrap) able to create mount and pid namespaces on this machine, and xdg-dbus-proxy")
)
struct SandboxCenterTests {
  /// Also through `xdg-dbus-proxy --filter --talk=io.github.notify.Scheduler1`, as Flatpak's
  /// `--talk-name` filters a sandbox's session bus: Debian 12's proxy (0.1.4) cuts off
  /// sd-bus's pipelined handshake (https://github.com/flatpak/xdg-dbus-proxy/issues/21), which the library's
  /// `HandshakeRelay` paces.
  @Test(arguments: [false, true])
  func aSandboxedCenterSchedulesListsCancelsAndHearsClicksThroughTheService(throughProxy: Bool) throws {
    // Given the daemon on the host, and the app org.example.Probe in its sandbox on the bus
    // (or on the proxy's filtered bus)
    let bus = try SchedulerBus(withServer: true)
    try bus.startDaemon(sink: "desktop")
    let sandbox = try SandboxCenter(bus: bus, appID: "org.example.Probe", throughProxy: throughProxy)
    #expect(try sandbox.run("probe").stdout == "backend: service\n")

    // When its center adds a notification for later
    let added = try sandbox.run("add", "later")
    #expect(added.stdout == "added later\n", "\(added.stdout) \(added.stderr)")
    // Then the host store has it under org.example.Probe, and the center lists it
    #expect(try bus.pendingIDs(app: "org.example.Probe") == ["later"])
    #expect(try sandbox.run("pending").stdout == "pending: later\n")

    // When it removes it
    #expect(try sandbox.run("remove", "later").stdout == "removed later\n")
    // Then the host store has none left
    #expect(try bus.pendingIDs(app: "org.example.Probe").isEmpty)
    #expect(try sandbox.run("pending").stdout == "pending:\n")

    // When a center listens, another presents one now, and the user clicks its "Yes"
    let heard = try sandbox.listen()
    #expect(try sandbox.run("present", "now").stdout == "presented now\n")
    var shown: [String: Any]?
    #expect(
      waitUntil(timeout: 30) {
        shown = bus.desktop.calls.first {
          $0["call"] as? String == "Notify" && $0["summary"] as? String == "Probe"
        }
        return shown != nil
      }, "daemon: \(text(bus.folder.file("daemon.err")))")
    try bus.desktop.drive("Click", "\(try #require(shown?["id"] as? Int))", "yes", "")
    // Then the listening center's responses have it, with its userInfo
    #expect(
      waitUntil(timeout: 30) { text(heard).contains("response now yes room=4B") },
      "heard: \(text(heard)) \(text(sandbox.folder + "/listen.err"))")
  }

  @Test func aSandboxedCenterSeesItsOwnAppsDeliveredAndAnswersOnly() throws {
    // Given the daemon showing a bubble of org.example.Probe and one of org.example.Other,
    // each with a button "yes", and Probe's sandbox
    let bus = try SchedulerBus(withServer: true)
    try bus.startDaemon(sink: "desktop")
    let sandbox = try SandboxCenter(bus: bus, appID: "org.example.Probe")
    var bubbles: [String: Int] = [:]
    for (app, id) in [("org.example.Probe", "p1"), ("org.example.Other", "o1")] {
      _ = try bus.gdbus(
        "Present", app,
        "{'id': <'\(id)'>, 'title': <'\(id)'>, 'actions': <[{'key': <'yes'>, 'title': <'Yes'>}]>}")
      _ = waitUntil(timeout: 30) {
        bubbles[id] =
          bus.desktop.calls.first { $0["call"] as? String == "Notify" && $0["summary"] as? String == id }?[
            "id"] as? Int
        return bubbles[id] != nil
      }
    }
    try #require(bubbles.count == 2, "not shown: \(bubbles) \(text(bus.folder.file("daemon.err")))")
    // When its center asks what is on screen: Probe's only
    let delivered = try sandbox.run("delivered")
    #expect(delivered.stdout == "delivered: p1\n", "\(delivered.stdout) \(delivered.stderr)")
    // When the user picks "yes" on both while neither app runs, and its center takes the
    // answers kept for it
    for id in ["p1", "o1"] { try bus.desktop.drive("Click", "\(bubbles[id]!)", "yes", "") }
    let recorded = waitUntil(timeout: 30) {
      ["org.example.Probe", "org.example.Other"].allSatisfy { app in
        ((try? bus.notify("history", "--json", "--app", app).stdout) ?? "").contains("\"activated\"")
      }
    }
    #expect(recorded, "daemon: \(text(bus.folder.file("daemon.err")))")
    let taken = try sandbox.run("taken")
    // Then it gets Probe's once; Other's still waits for Other
    #expect(taken.stdout == "taken: p1 yes\n", "\(taken.stdout) \(taken.stderr)")
    #expect(try sandbox.run("taken").stdout == "taken:\n")
    #expect(try bus.notify("responses", "--app", "org.example.Other").stdout.contains("\"o1\""))
  }

  @Test func aSandboxedCenterClaimingAnotherAppIsRefused() throws {
    // Given the daemon, and org.example.Probe's sandbox
    let bus = try SchedulerBus()
    try bus.startDaemon()
    let sandbox = try SandboxCenter(bus: bus, appID: "org.example.Probe")
    // When its center is made for org.example.Other
    let claimed = try sandbox.run("add", "theirs", "--app", "org.example.Other")
    // Then it fails, naming both ids and the fix, and nothing is stored for either
    #expect(claimed.status == 1)
    #expect(
      claimed.stdout.contains(
        "this process is the Flatpak app 'org.example.Probe' (its /.flatpak-info), not 'org.example.Other'"),
      "\(claimed.stdout) \(claimed.stderr)")
    #expect(claimed.stdout.contains("make the center with app: \"org.example.Probe\""), "\(claimed.stdout)")
    #expect(try bus.pendingIDs(app: "org.example.Other").isEmpty)
    #expect(try bus.pendingIDs(app: "org.example.Probe").isEmpty)
  }
}
