import Foundation
import Testing

/// A session bus of its own (`Tests/Fixtures/private-bus.sh`), with a service folder for
/// D-Bus activation: under the scripted notification server (`ScriptedDesktop`), a server
/// nobody here wrote, or a logind stand-in (`LogindMock`). Stopped, with what it activated,
/// when it goes away.
public final class PrivateBus {
  /// Its address.
  public let address: String
  private let state: String
  /// The folder holding the bus's state: kept until the bus has stopped, since `stop` finds
  /// the daemon through its pid file there.
  private let folder: TemporaryFolder

  /// Starts the bus in `folder/NAME`, its service folder `services` (made when missing;
  /// `folder/NAME-services` when nil).
  public init(in folder: TemporaryFolder, name: String = "private-bus", services: String? = nil) throws {
    self.folder = folder
    state = folder.file(name)
    let started = try CommandRunner(executable: "/bin/bash").run([
      ScriptedDesktop.fixtures + "/private-bus.sh", "start", state,
      services ?? folder.file("\(name)-services"),
    ])
    try #require(started.status == 0, "\(started.stderr)")
    address = "unix:path=\(state)/bus"
  }

  deinit {
    _ = try? CommandRunner(executable: "/bin/bash").run([
      ScriptedDesktop.fixtures + "/private-bus.sh", "stop", state,
    ])
  }

  /// The environment of a process on this bus.
  public var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": address] }
}
