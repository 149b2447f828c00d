/// What `notify status` finds wrong in what it gathered: each problem with what to do.
/// Pure: the command gathers the facts (files, store, bus, players, units), this decides.
public enum Diagnosis {
  /// What was found about the machine and the store.
  public struct Facts: Hashable, Sendable {
    /// The store's path, and whether a file is there.
    public var storePath: String
    public var storeExists: Bool
    /// Permission bits of the store file and its folder (nil when unreadable).
    public var storeMode: UInt32?
    public var folderMode: UInt32?
    /// The store could not be opened: the reason, and what to do.
    public var storeError: String?
    public var storeErrorFix: String?
    /// `PRAGMA integrity_check`: "ok" for a sound store.
    public var integrity: String?
    /// Notifications pending, over all apps.
    public var pending: Int
    /// The running `notify daemon`'s pid, if one runs.
    public var daemonPID: Int32?
    /// Whether a fire-due timer is enabled for the user.
    public var timerEnabled: Bool
    /// Why no session bus could be reached; nil when one answered.
    public var busError: String?
    /// The notification server's capabilities; nil when none answers.
    public var serverCapabilities: [String]?
    /// Where the running daemon's deliveries go now (`desktop`, `stdout`), as it recorded.
    public var daemonSink: String?
    /// Whether this session has a display (`DISPLAY` or `WAYLAND_DISPLAY`).
    public var sessionHasDisplay = false
    /// Pending notifications that ask to wake the machine (`LocalNotification.wake`).
    public var pendingWake = 0
    /// What the firer that keeps their alarm can do (the daemon's facts, else the last
    /// fire-due run's); nil when none is known.
    public var firerWake: WakeFacts?
    /// The installations of notify found on the machine (the Debian package, install.sh's).
    public var installations: [Installation] = []
    /// The binary the running daemon runs (its `/proc/PID/exe`), when that can be read.
    public var daemonBinary: String?
    /// The binary systemd starts for `notify.service` (the first unit file's `ExecStart=`).
    public var unitBinary: String?
    /// The binary of this command.
    public var commandBinary: String?

    public init(
      storePath: String, storeExists: Bool, storeMode: UInt32? = nil, folderMode: UInt32? = nil,
      storeError: String? = nil, integrity: String? = nil, pending: Int = 0, daemonPID: Int32? = nil,
      timerEnabled: Bool = false, busError: String? = nil, serverCapabilities: [String]? = nil
    ) {
      self.storePath = storePath
      self.storeExists = storeExists
      self.storeMode = storeMode
      self.folderMode = folderMode
      self.storeError = storeError
      self.integrity = integrity
      self.pending = pending
      self.daemonPID = daemonPID
      self.timerEnabled = timerEnabled
      self.busError = busError
      self.serverCapabilities = serverCapabilities
    }
  }

  /// One installation of notify: who put it there, its binary, and how to remove it.
  public struct Installation: Hashable, Sendable {
    /// `package` (dpkg's notify package) or `install.sh` (scripts/install.sh's manifest).
    public var kind: String
    /// The binary it installed: `/usr/bin/notify`, `/home/u/.local/bin/notify`.
    public var binary: String
    /// The command that removes it.
    public var removal: String

    public init(kind: String, binary: String, removal: String) {
      self.kind = kind
      self.binary = binary
      self.removal = removal
    }
  }

  /// A problem, where it is, and what to do.
  public struct Finding: Hashable, Sendable {
    /// `store`, `firer`, `install`, `bus`, `server`.
    public var area: String
    public var problem: String
    public var fix: String
  }

  /// The problems in `facts`, store first; empty when all is well.
  public static func findings(_ facts: Facts) -> [Finding] {
    var found: [Finding] = []
    func add(_ area: String, _ problem: String, _ fix: String) {
      found.append(Finding(area: area, problem: problem, fix: fix))
    }
    let path = facts.storePath
    let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(
      separator: "/")
    if let error = facts.storeError {
      add(
        "store", "the store cannot be opened: \(error)",
        facts.storeErrorFix ?? "check the path and its permissions")
    } else if let integrity = facts.integrity, integrity != "ok" {
      add(
        "store", "the store is damaged (integrity check: \(integrity.prefix(200)))",
        "move it away (mv '\(path)' '\(path).damaged'); notify starts a new one")
    }
    if facts.storeExists, let mode = facts.storeMode, mode & 0o777 != 0o600 {
      add(
        "store",
        "the store is mode \(octal(mode)), readable by others: it holds your notifications and history",
        "chmod 600 '\(path)'")
    }
    if facts.storeExists, let mode = facts.folderMode, mode & 0o077 != 0 {
      add("store", "the store's folder is mode \(octal(mode)), open to others", "chmod 700 '\(folder)'")
    }
    if facts.daemonPID == nil, !facts.timerEnabled, facts.pending > 0 {
      add(
        "firer",
        "no notify daemon runs and no fire-due timer is enabled: \(facts.pending) pending notification\(facts.pending == 1 ? "" : "s") will not fire",
        "systemctl --user enable --now notify.service (or run notify daemon)")
    }
    if let pid = facts.daemonPID, facts.daemonSink == "stdout", facts.sessionHasDisplay {
      add(
        "firer",
        "the daemon (pid \(pid)) delivers to stdout (the journal), not to the desktop: no notification server was on its session bus"
          + (facts.serverCapabilities != nil ? " when it last looked (one answers now)" : ""),
        "start your notification server (it switches as one appears), or check that the daemon runs on this session's bus (systemctl --user import-environment DBUS_SESSION_BUS_ADDRESS DISPLAY)"
      )
    }
    if facts.pendingWake > 0, let firer = facts.firerWake {
      let verdict = WakeDiagnosis.verdict(firer)
      if !verdict.ability.canWake {
        add(
          "wake",
          "\(facts.pendingWake) pending notification\(facts.pendingWake == 1 ? " asks" : "s ask") to wake the machine, but \(verdict.ability.reason ?? "nothing here can")",
          verdict.fix ?? "none: they fire when the machine is awake")
      }
    }
    if facts.installations.count > 1 {
      add("install", twoInstallations(facts), removeOne(facts))
    }
    if let binary = facts.daemonBinary, binary.hasSuffix(" (deleted)"), let pid = facts.daemonPID {
      add(
        "install",
        "the daemon (pid \(pid)) runs \(binary): its binary was replaced or removed since it started (an upgrade)",
        "restart it: systemctl --user restart notify.service")
    }
    if let busError = facts.busError {
      add(
        "bus", "no session bus: \(busError)",
        "run notify inside your desktop session (DBUS_SESSION_BUS_ADDRESS), or use --sink stdout")
    } else if let capabilities = facts.serverCapabilities {
      if !capabilities.contains("actions") {
        add(
          "server", "the notification server does not offer actions: a click cannot open the app",
          "use a server with actions (dunst, GNOME Shell, KDE Plasma, xfce4-notifyd)")
      }
    } else {
      add(
        "server",
        "no notification server answers on the session bus: deliveries go to stdout (or fail with --sink desktop)",
        "start one (dunst, or your desktop's)")
    }
    return found
  }

  /// Which installations there are, and which of them runs: the daemon, what systemd starts
  /// for notify.service, this command.
  static func twoInstallations(_ facts: Facts) -> String {
    let count = facts.installations.count == 2 ? "two" : "\(facts.installations.count)"
    let each = facts.installations.map { "\(owner($0)) \($0.binary)" }
    var running: [String] = []
    if let binary = facts.daemonBinary, let pid = facts.daemonPID {
      running.append("the daemon (pid \(pid)) runs \(binary)")
    }
    if let binary = facts.unitBinary { running.append("systemd starts \(binary) for notify.service") }
    if let binary = facts.commandBinary { running.append("this command is \(binary)") }
    return "\(count) installations of notify: \(each.joined(separator: " and "))"
      + (running.isEmpty ? "" : "; \(running.joined(separator: ", "))")
  }

  /// Keep one: how to remove each, install.sh's first (the package is the one that is
  /// upgraded with the system), then what moves the daemon to the one left.
  static func removeOne(_ facts: Facts) -> String {
    let ordered =
      facts.installations.filter { $0.kind != "package" }
      + facts.installations.filter { $0.kind == "package" }
    let ways = ordered.map { "remove \(owner($0)) with \($0.removal)" }
    return "keep one: \(ways.joined(separator: ", or "))"
      + "; then systemctl --user daemon-reload && systemctl --user restart notify.service"
  }

  /// "the package's", "install.sh's".
  static func owner(_ installation: Installation) -> String {
    installation.kind == "package" ? "the package's" : "\(installation.kind)'s"
  }

  /// `0644` for mode bits.
  public static func octal(_ mode: UInt32) -> String {
    let digits = String(mode & 0o777, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
