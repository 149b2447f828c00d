import Foundation
import NotifyCore
import NotifyTestSupport
import Testing

@testable import NotifyDesktop

/// The portal sink against a fake Notification portal (python3-dbusmock) on a private bus:
/// what `AddNotification` carries at version 1 and 2, and `ActionInvoked` coming back.
@Suite(
  .enabled(
    if: TestEnvironment.missing(["dbus-daemon", "gdbus"]) == nil
      && (try? CommandRunner(executable: "/usr/bin/python3").run(["-c", "import dbusmock"]).status) == 0,
    "needs dbus-daemon, gdbus and python3-dbusmock"))
struct PortalSinkTests {
  /// A dbusmock object standing for the portal, with `version`, logging its calls.
  final class FakePortal {
    let folder = TemporaryFolder(prefix: "notify-portal")
    let bus: ScriptedDesktop
    let log: String
    private let process: ChildProcess

    init(version: UInt32) throws {
      let services = folder.file("services")
      try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
      bus = try ScriptedDesktop(in: folder, services: services, withServer: false)
      log = folder.file("portal.log")
      process = try ChildProcess(
        "/usr/bin/python3",
        [
          "-m", "dbusmock", "--session", "-l", log, PortalSink.busName, PortalSink.objectPath,
          PortalSink.interface,
        ],
        environment: bus.bus, stdout: .file(folder.file("mock.out")), stderr: .file(folder.file("mock.err")))
      try #require(
        waitUntil(timeout: 60) {
          (try? self.mock("AddMethod", PortalSink.interface, "RemoveNotification", "s", "", ""))?.status == 0
        },
        "dbusmock did not start: \(String(decoding: fileBytes(folder.file("mock.err")) ?? Data(), as: UTF8.self))"
      )
      #expect(try mock("AddMethod", PortalSink.interface, "AddNotification", "sa{sv}", "", "").status == 0)
      #expect(try mock("AddProperty", PortalSink.interface, "version", "<uint32 \(version)>").status == 0)
    }

    deinit { process.terminate(timeout: 60) }

    /// A call of the mock's control interface (`org.freedesktop.DBus.Mock`).
    @discardableResult
    func mock(_ method: String, _ arguments: String...) throws -> CommandRunner.Result {
      try CommandRunner(executable: "/usr/bin/gdbus", environment: bus.bus).run(
        [
          "call", "--session", "--dest", PortalSink.busName, "--object-path", PortalSink.objectPath,
          "--method",
          "org.freedesktop.DBus.Mock." + method,
        ] + arguments)
    }

    /// What the log says of the first `AddNotification` call (its values span lines where
    /// a string has a line break), nil before one.
    var added: String? {
      let logged = String(decoding: fileBytes(log) ?? Data(), as: UTF8.self)
      guard let start = logged.range(of: " AddNotification ") else { return nil }
      return String(logged[start.upperBound...])
    }
  }

  @Test("the keys a portal of each version gets, and the action it reports", arguments: [UInt32(1), 2])
  func addAndAct(version: UInt32) throws {
    // Given a fake portal of `version` and a sink on its bus
    let portal = try FakePortal(version: version)
    let sink = try PortalSink(configuration: .init(busAddress: portal.bus.bus["DBUS_SESSION_BUS_ADDRESS"]))
    #expect(sink.version == version)
    var heard: [DesktopEvent] = []
    sink.onEvent = { heard.append($0) }
    // When a marked-up notification with a reply button is delivered
    let receipt = try sink.deliver(PortalRequestTests.delivery(level: .critical, markup: true))
    // Then AddNotification carries the version-1 keys, and the version-2 ones only at 2
    let line = try #require(portal.added, "nothing logged")
    #expect(line.contains("\"n1\""), "\(line)")
    for key in ["title", "body", "icon", "priority", "default-action", "buttons"] {
      #expect(line.contains("\"\(key)\""), "\(key): \(line)")
    }
    for key in ["markup-body", "category", "display-hint", "sound", "purpose"] {
      #expect(line.contains("\"\(key)\"") == (version >= 2), "\(key): \(line)")
    }
    #expect(receipt.bubble?.server == PortalSink.serverInstance)
    // When the portal reports the reply button with a text, then a click on the bubble
    try portal.mock(
      "EmitSignal", PortalSink.interface, "ActionInvoked", "ssav", "[<'n1'>, <'reply'>, <[<'on my way'>]>]")
    try portal.mock(
      "EmitSignal", PortalSink.interface, "ActionInvoked", "ssav", "[<'n1'>, <'default'>, <@av []>]")
    #expect(waitUntil(timeout: 10) { sink.processPending() >= 0 && heard.count == 2 }, "\(heard)")
    // Then both are activations of n1; the reply's text only from a version-2 portal
    #expect(heard.map(\.kind) == [.activated(actionKey: "reply"), .activated(actionKey: "default")])
    #expect(heard.first?.userText == (version >= 2 ? "on my way" : nil))
    #expect(heard.allSatisfy { $0.id == "n1" && $0.app == "org.example.Probe" })
  }
}
