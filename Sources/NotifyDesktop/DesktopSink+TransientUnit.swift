import NotifyCore

/// An app to start as a unit of the user's systemd manager, as desktop launchers do
/// (systemd's "Desktop Environment Integration": `app-<launcher>-<app id>-<random>.service`
/// in `app.slice`).
public struct TransientApp: Hashable, Sendable {
  /// The unit's name (`TransientApp.unitName(appID:)`).
  public var unitName: String
  /// The executable's absolute path, and the whole command line (`argv[0]` first).
  public var program: String
  public var arguments: [String]
  /// Where it starts (the user's home when nil).
  public var workingDirectory: String?
  /// `NAME=VALUE` entries added to the manager's own environment (which holds the
  /// session's `DISPLAY`, `WAYLAND_DISPLAY`, `XDG_*` once the desktop imported them).
  public var environment: [String]
  /// Shown by `systemctl --user status`.
  public var description: String

  public init(
    unitName: String, program: String, arguments: [String], workingDirectory: String?, environment: [String],
    description: String
  ) {
    self.unitName = unitName
    self.program = program
    self.arguments = arguments
    self.workingDirectory = workingDirectory
    self.environment = environment
    self.description = description
  }

  /// `app-notify-<app id>-<random>.service`, the app id escaped as `systemd-escape` does
  /// (every byte but ASCII letters, digits, `:`, `_` and `.`, and a leading `.`, as `\xNN`).
  public static func unitName(appID: String, random: UInt32) -> String {
    var escaped = ""
    for (index, byte) in appID.utf8.enumerated() {
      let c = Character(Unicode.Scalar(byte))
      let plain = c.isASCII && (c.isLetter || c.isNumber || c == ":" || c == "_" || (c == "." && index > 0))
      escaped += plain ? String(c) : "\\x" + String(byte, radix: 16).leftPadded(to: 2)
    }
    return "app-notify-\(escaped)-\(String(random, radix: 16).leftPadded(to: 8)).service"
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}

extension DesktopSink {
  /// Starts `app` as a transient service of the user's systemd manager on the session bus
  /// (`org.freedesktop.systemd1`, `StartTransientUnit`): outside notify's own unit, so it
  /// has none of notify's sandbox, lives in its own control group, and outlives a restart
  /// of notify. `Type=exec` (the job fails when the program cannot be run) and
  /// `ExitType=cgroup` (an app that forks and lets its first process exit keeps running;
  /// left out on a manager older than systemd 250). Returns false when no user manager
  /// answers on the bus; throws when it refused the unit.
  public func startTransientService(_ app: TransientApp) throws(NotifyError) -> Bool {
    do throws(BusFailure) {
      let connection = try ready(needsServer: false)
      do throws(BusFailure) {
        try startTransientService(app, exitTypeCgroup: true, on: connection)
      } catch let failure
        where failure.errorName == "org.freedesktop.DBus.Error.PropertyReadOnly"
        || failure.errorName == "org.freedesktop.DBus.Error.InvalidArgs"
      {
        try startTransientService(app, exitTypeCgroup: false, on: connection)
      }
      return true
    } catch let failure where failure.isNoServer {
      return false
    } catch {
      throw NotifyError(
        .unavailable, "the user's systemd manager did not start \(app.unitName): \(error)", fix: nil)
    }
  }

  private func startTransientService(_ app: TransientApp, exitTypeCgroup: Bool, on connection: BusConnection)
    throws(BusFailure)
  {
    let message = try connection.methodCall(
      destination: "org.freedesktop.systemd1", path: "/org/freedesktop/systemd1",
      interface: "org.freedesktop.systemd1.Manager", member: "StartTransientUnit")
    try message.append(app.unitName)
    try message.append("fail")
    try message.container("a", "(sv)") { () throws(BusFailure) in
      func property(_ name: String, _ value: String) throws(BusFailure) {
        try message.container("r", "sv") { () throws(BusFailure) in
          try message.append(name)
          try message.container("v", "s") { () throws(BusFailure) in try message.append(value) }
        }
      }
      try property("Description", app.description)
      try property("Slice", "app.slice")
      try property("Type", "exec")
      try property("CollectMode", "inactive-or-failed")
      if exitTypeCgroup { try property("ExitType", "cgroup") }
      if let folder = app.workingDirectory { try property("WorkingDirectory", folder) }
      try message.container("r", "sv") { () throws(BusFailure) in
        try message.append("Environment")
        try message.container("v", "as") { () throws(BusFailure) in try message.append(app.environment) }
      }
      try message.container("r", "sv") { () throws(BusFailure) in
        try message.append("ExecStart")
        try message.container("v", "a(sasb)") { () throws(BusFailure) in
          try message.container("a", "(sasb)") { () throws(BusFailure) in
            try message.container("r", "sasb") { () throws(BusFailure) in
              try message.append(app.program)
              try message.append(app.arguments)
              try message.append(false)
            }
          }
        }
      }
    }
    try message.container("a", "(sa(sv))") { () throws(BusFailure) in }
    _ = try connection.call(
      message, timeout: configuration.callTimeout, operation: "calling StartTransientUnit")
  }
}
