import Foundation
import Testing

/// A bus of its own (`Tests/Fixtures/private-bus.sh`), without a service folder: for a
/// logind stand-in (`LogindMock`) where no notification server is needed. Stopped when it
/// goes away.
public final class PrivateBus {
  /// Its address.
  public let address: String
  private let state: String

  /// Starts the bus in `folder`.
  public init(in folder: TemporaryFolder) throws {
    state = folder.file("private-bus")
    let services = folder.file("private-bus-services")
    try FileManager.default.createDirectory(atPath: services, withIntermediateDirectories: true)
    let started = try CommandRunner(executable: "/bin/bash").run([
      ScriptedDesktop.fixtures + "/private-bus.sh", "start", state, services,
    ])
    try #require(started.status == 0, "\(started.stderr)")
    address = "unix:path=\(state)/bus"
  }

  deinit {
    _ = try? CommandRunner(executable: "/bin/bash").run([
      ScriptedDesktop.fixtures + "/private-bus.sh", "stop", state,
    ])
  }
}
