import ArgumentParser
import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// `notify status`: what a user asks when a notification did not appear, and what is
/// wrong (`Diagnosis`): the store, the firer, the bus and the notification server, sounds,
/// the zone, the units, quiet hours, the app's settings, what is next. Exit 1 when
/// something needs attention.
struct StatusCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "status", _superCommandName: "notify",
    abstract:
      "Why a notification may not have appeared: store, daemon, server, sounds, settings, what is next.",
    discussion: """
      Exits 0 when all is well, 1 when something needs attention (each problem says what to do).
      With --json one object: "ok" (bool); "problems" (each {"area", "problem", "fix"}); \
      "store" {"path", "exists", "mode", "size", "schema", "integrity"}; "daemon" \
      {"running", "pid", "deliveringTo": "desktop", "stdout" or null, "binary"} ({"running": \
      false} when none runs); "installations" (each {"kind": "package" or "install.sh", \
      "binary", "removal"}); "claims" {"alive", "dead"}; "server" {"name", "vendor", "version", \
      "specVersion", "capabilities"} or null; "wake" {"firer": "daemon", "fire-due" or null, \
      "canWake", "allowed", "wakeClock", "route": "alarm-timer", "user-timer" or null, "reason", "fix", \
      "pending", "lead", "nextAlarm"}; "sounds" {"serverPlays", "playerNote"}; \
      "zone" {"name", "from", "folder"}; "units" {"notify.service", "notify-fire.timer": \
      each {"installed", "enabled"}}; "app"; "settings" (as notify settings --json); \
      "quiet", "quietUntil"; "held"; "pending"; "next" {"id", "at"} or null.
      """)

  @OptionGroup var store: StoreOptions
  @OptionGroup var appOption: AppOption

  @Flag(name: .long, help: "Print JSON.")
  var json = false

  func run() throws {
    let app = try appOption.resolve()
    let clock = SystemClock()
    let now = clock.now()
    let zone = clock.zones.local
    let path = store.path
    var facts = Diagnosis.Facts(storePath: path, storeExists: FileManager.default.fileExists(atPath: path))
    facts.storeMode = Self.mode(of: path)
    facts.folderMode = Self.mode(of: (path as NSString).deletingLastPathComponent)
    // A missing store is not created here: status only looks.
    var opened: SQLiteStore?
    var claims = (alive: 0, dead: 0)
    var modeBefore: UInt32?
    var firerIsDaemon = false
    var wakeEarliest: WakePlanner.Due?
    if facts.storeExists {
      do {
        let store = try store.open()
        facts.integrity = try store.integrityCheck()
        facts.pending = try store.pendingCount()
        let daemon = try store.presences(app: AppPresence.everyApp).first
        facts.daemonPID = daemon?.owner.pid
        facts.daemonSink = daemon?.sink
        let fireDue = try store.fireDueWakeFacts()
        facts.firerWake = daemon.map { $0.wake } ?? fireDue
        firerIsDaemon = daemon != nil
        (facts.pendingWake, wakeEarliest) = try store.wakeOutlook()
        claims = try store.claimsHeld()
        opened = store
        // Opening holds the store to its rules (0600 in 0700): say what it changed.
        modeBefore = facts.storeMode
        facts.storeMode = Self.mode(of: path)
        facts.folderMode = Self.mode(of: (path as NSString).deletingLastPathComponent)
      } catch {
        facts.storeError = error.problemText.rendered(\.flag)
        facts.storeErrorFix = error.fixText?.rendered(\.flag)
      }
    }
    let units = UnitFiles()
    facts.timerEnabled = units.enabled("notify-fire.timer")
    facts.installations = Installations().found()
    facts.daemonBinary = facts.daemonPID.flatMap(Installations.binary(ofProcess:))
    facts.unitBinary = units.installed("notify.service").flatMap {
      Installations.startedBinary(unitFile: "\($0)/notify.service")
    }
    facts.commandBinary = Installations.commandBinary
    facts.busError = DesktopSink.sessionBusProblem()
    let server = facts.busError == nil ? DesktopSink.serverInformation() : nil
    facts.serverCapabilities = server?.capabilities
    let environment = ProcessInfo.processInfo.environment
    facts.sessionHasDisplay = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains {
      !($0 ?? "").isEmpty
    }
    var soundPlayerNote: String?
    if case .skip(let note) = SoundPlayer().plan(SoundResolution(effective: .default)) {
      soundPlayerNote = note
    }
    let problems = Diagnosis.findings(facts)

    let settings = try opened?.appSettings(app: app) ?? AppSettings(app: app)
    let policy = try opened?.defaultSettings() ?? .allowAll
    let pending = try opened?.pending(app: app) ?? []
    let next = pending.first { $0.nextFireDate != nil }
    let quiet = try opened?.quietHours() ?? QuietHours()
    let isQuiet = quiet.isQuiet(at: now, in: zone)
    let quietEnd = isQuiet ? quiet.nextChange(after: now, in: zone) : nil
    let held = try opened?.heldCount(app: app) ?? 0

    if json {
      var r = JSONRecord(capacity: 16)
      r.set("ok", problems.isEmpty)
      r.set(
        "problems",
        .array(
          problems.map {
            .object(["area": .string($0.area), "problem": .string($0.problem), "fix": .string($0.fix)])
          }))
      var storeInfo: [String: JSONValue] = ["path": .string(path), "exists": .bool(facts.storeExists)]
      storeInfo["mode"] = facts.storeMode.map { .string(Diagnosis.octal($0)) }
      storeInfo["size"] = Self.size(of: path).map { .int($0) }
      storeInfo["schema"] = opened.map { _ in .string(SQLiteStore.schemaVersion) }
      storeInfo["integrity"] = facts.integrity.map { .string($0) }
      r.set("store", .object(storeInfo))
      r.set(
        "daemon",
        facts.daemonPID.map {
          .object([
            "running": .bool(true), "pid": .int(Int64($0)),
            "deliveringTo": facts.daemonSink.map { .string($0) } ?? .null,
            "binary": facts.daemonBinary.map { .string($0) } ?? .null,
          ])
        }
          ?? .object(["running": .bool(false)]))
      r.set("wake", Self.wakeRecord(facts, daemon: firerIsDaemon, earliest: wakeEarliest, now: now))
      r.set(
        "installations",
        .array(
          facts.installations.map {
            .object(["kind": .string($0.kind), "binary": .string($0.binary), "removal": .string($0.removal)])
          }))
      r.set("claims", .object(["alive": .int(Int64(claims.alive)), "dead": .int(Int64(claims.dead))]))
      r.set("server", server.map(Self.record) ?? .null)
      r.set(
        "sounds",
        .object([
          "serverPlays": .bool(server?.capabilities.contains("sound") == true),
          "playerNote": soundPlayerNote.map { .string($0) } ?? .null,
        ]))
      r.set(
        "zone",
        .object([
          "name": .string(zone.identifier), "from": .string(Self.zoneSource()),
          "folder": .string(TZDatabase.shared.folder),
        ]))
      r.set(
        "units", .object(Dictionary(uniqueKeysWithValues: UnitFiles.names.map { ($0, units.record($0)) })))
      r.set("app", app)
      r.set(
        "settings",
        settings.jsonRecord(under: policy).value)
      r.set("quiet", isQuiet)
      r.set("quietUntil", quietEnd.map { RFC3339.string(from: $0) })
      r.set("held", held)
      r.set("pending", pending.count)
      r.set(
        "next",
        next.flatMap { stored in
          stored.nextFireDate.map {
            .object(["id": .string(stored.notification.id), "at": .string(RFC3339.string(from: $0))])
          }
        } ?? .null)
      Output.line(r.compactText)
    } else {
      var storeLine = "store: \(Output.safe(path))"
      if !facts.storeExists {
        storeLine += " (none yet: the first notify schedule creates it)"
      } else if opened != nil {
        let size = Self.size(of: path).map { "\($0 / 1024) KiB, " } ?? ""
        let mode = facts.storeMode.map(Diagnosis.octal) ?? "?"
        let corrected =
          modeBefore.flatMap { $0 != facts.storeMode ? " (was \(Diagnosis.octal($0)), set by notify)" : nil }
          ?? ""
        storeLine +=
          " (\(mode)\(corrected), \(size)schema \(SQLiteStore.schemaVersion), integrity \(Output.safe(facts.integrity ?? "?", limit: 60)))"
      }
      Output.line(storeLine)
      var daemonLine =
        facts.daemonPID.map { pid in
          "daemon: running (pid \(pid))"
            + (facts.daemonSink.map { ", delivering to \(Output.safe($0))" } ?? "")
        } ?? "daemon: not running"
      if claims.alive + claims.dead > 0 {
        daemonLine +=
          "; claims held: \(claims.alive) by live firers, \(claims.dead) by stopped ones (taken over at the next wake)"
      }
      Output.line(daemonLine)
      Output.line(Self.wakeLine(facts, daemon: firerIsDaemon, earliest: wakeEarliest, now: now, zone: zone))
      Output.line("units: " + UnitFiles.names.map { units.describe($0) }.joined(separator: "; "))
      if !facts.installations.isEmpty {
        Output.line(
          "installed: "
            + facts.installations.map { "\(Output.safe($0.binary)) (\($0.kind))" }.joined(separator: "; "))
      }
      if let busError = facts.busError {
        Output.line("session bus: none (\(Output.safe(busError, limit: 200)))")
      } else if let server {
        Output.line(
          "notification server: \(Output.safe(server.name)) \(Output.safe(server.version)) by \(Output.safe(server.vendor)) (spec \(Output.safe(server.specVersion))): \(server.capabilities.map { Output.safe($0) }.joined(separator: ", "))"
        )
        Output.line("server features: " + Self.features(server.capabilities))
      } else {
        Output.line("notification server: none answers on the session bus")
      }
      let sound =
        server?.capabilities.contains("sound") == true
        ? "the notification server plays them"
        : soundPlayerNote.map { "none: \(Output.safe($0))" } ?? "notify plays them"
      Output.line("sounds: \(sound)")
      Output.line(
        "zone: \(Output.safe(zone.identifier)) (from \(Output.safe(Self.zoneSource())); zones from \(Output.safe(TZDatabase.shared.folder)))"
      )
      if isQuiet {
        let until =
          quietEnd.map { "until \(Output.localTime($0, zone: zone))" }
          ?? "until turned off (notify quiet off)"
        Output.line("quiet hours: on \(until); \(held) of this app's held, shown when quiet ends")
      } else {
        Output.line("quiet hours: off" + (held > 0 ? "; \(held) of this app's still held" : ""))
      }
      Output.line("app \(Output.safe(app)): " + SettingsText.describe(settings, policy))
      var line = "pending: \(pending.count)"
      if let next, let at = next.nextFireDate {
        line += "; next: \(Output.safe(next.notification.id)) at \(Output.localTime(at, zone: zone))"
      }
      Output.line(line)
      if problems.isEmpty {
        Output.line("all is well")
      } else {
        for finding in problems {
          Output.line(
            "problem (\(finding.area)): \(Output.safe(finding.problem)): \(Output.safe(finding.fix))")
        }
      }
    }
    if !problems.isEmpty { throw ExitCode(1) }
  }

  /// `wake: ...`: whether the firer can wake the machine, how, or why not and the one
  /// command that allows it; the next wake alarm.
  static func wakeLine(
    _ facts: Diagnosis.Facts, daemon: Bool, earliest: WakePlanner.Due?, now: Date, zone: Zone
  ) -> String {
    let who = daemon ? "this daemon" : "the last fire-due run"
    guard let firer = facts.firerWake else {
      return "wake: no firer has looked yet (start notify daemon, or let notify-fire.timer run)"
    }
    let verdict = WakeDiagnosis.verdict(firer)
    var line: String
    let can = verdict.ability.wakeClock ? "can" : "may"
    switch verdict.ability.route {
    case .alarmTimer?:
      line = "wake: \(who) \(can) wake the machine (an alarm timer of its own, CAP_WAKE_ALARM)"
    case .userTimer?: line = "wake: \(who) \(can) wake the machine (through your user manager's timers)"
    case nil:
      line = "wake: \(who) cannot wake the machine: \(Output.safe(verdict.ability.reason ?? "unknown"))"
    }
    if verdict.ability.route != nil, !verdict.ability.wakeClock {
      line += ", but \(Output.safe(verdict.ability.reason ?? ""))"
    }
    if let fix = verdict.fix { line += "; to allow it: \(Output.safe(fix))" }
    let count = facts.pendingWake
    line += "; \(count) pending notification\(count == 1 ? " asks" : "s ask") to wake it"
    if let at = WakePlanner.alarm(for: earliest, now: now), verdict.ability.canWake {
      line += ", next wake at \(Output.localTime(at, zone: zone))"
    }
    return line
  }

  /// The `wake` member of `--json`.
  static func wakeRecord(_ facts: Diagnosis.Facts, daemon: Bool, earliest: WakePlanner.Due?, now: Date)
    -> JSONValue
  {
    let verdict = facts.firerWake.map(WakeDiagnosis.verdict)
    let alarm = verdict?.ability.canWake == true ? WakePlanner.alarm(for: earliest, now: now) : nil
    return .object([
      "firer": facts.firerWake == nil ? .null : .string(daemon ? "daemon" : "fire-due"),
      "canWake": .bool(verdict?.ability.canWake ?? false),
      "allowed": .bool(verdict?.ability.route != nil),
      "wakeClock": .bool(verdict?.ability.wakeClock ?? false),
      "route": verdict?.ability.route.map { .string($0.rawValue) } ?? .null,
      "reason": verdict?.ability.reason.map { .string($0) } ?? .null,
      "fix": verdict?.fix.map { .string($0) } ?? .null,
      "pending": .int(Int64(facts.pendingWake)),
      "lead": earliest.map { .int(Int64($0.lead.rounded())) } ?? .null,
      "nextAlarm": alarm.map { .string(RFC3339.string(from: $0)) } ?? .null,
    ])
  }

  static func record(_ server: NotificationServerInformation) -> JSONValue {
    .object([
      "name": .string(server.name), "vendor": .string(server.vendor), "version": .string(server.version),
      "specVersion": .string(server.specVersion),
      "capabilities": .array(server.capabilities.map { .string($0) }),
    ])
  }

  /// Which of notify's features the server's capabilities allow.
  static func features(_ capabilities: [String]) -> String {
    let has = Set(capabilities)
    return [
      "clicks open apps: \(has.contains("actions") ? "yes" : "no (no actions)")",
      "sounds: \(has.contains("sound") ? "played by the server" : "played by notify")",
      "markup: \(has.contains("body-markup") ? "yes (escaped)" : "no (plain text)")",
      "persistent bubbles: \(has.contains("persistence") ? "yes" : "no")",
    ].joined(separator: "; ")
  }

  static func mode(of path: String) -> UInt32? {
    var info = stat()
    return stat(path, &info) == 0 ? UInt32(info.st_mode) & 0o7777 : nil
  }

  static func size(of path: String) -> Int64? {
    var info = stat()
    return stat(path, &info) == 0 ? Int64(info.st_size) : nil
  }

  /// Where the zone comes from: `TZ`, or the `/etc/localtime` link, as glibc reads it.
  static func zoneSource() -> String {
    if let tz = ProcessInfo.processInfo.environment["TZ"] {
      return tz.isEmpty ? "TZ set but empty: UTC" : "TZ=\(tz)"
    }
    if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime") {
      return "/etc/localtime -> \(target)"
    }
    return FileManager.default.fileExists(atPath: "/etc/localtime")
      ? "/etc/localtime" : "no /etc/localtime: UTC"
  }
}

/// notify's user units where systemd looks for them, and whether each is enabled.
struct UnitFiles {
  static let names = ["notify.service", "notify-fire.timer"]
  let environment = ProcessInfo.processInfo.environment

  private var home: String { environment["HOME"] ?? NSHomeDirectory() }
  private var config: String {
    environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config"
  }
  private var data: String {
    environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
  }

  /// The user unit search path (systemd.unit(5)), in order.
  var folders: [String] {
    [
      config + "/systemd/user", "/etc/systemd/user", data + "/systemd/user", "/usr/local/lib/systemd/user",
      "/usr/lib/systemd/user",
    ]
  }

  func installed(_ name: String) -> String? {
    folders.first { FileManager.default.fileExists(atPath: "\($0)/\(name)") }
  }

  /// Enabled: linked into the target its `[Install]` section names, by the user or for
  /// every user (`/etc/systemd/user`: the package's preset, `systemctl --global enable`),
  /// and not masked by the user.
  func enabled(_ name: String) -> Bool {
    let target = name.hasSuffix(".timer") ? "timers.target.wants" : "default.target.wants"
    return !masked(name)
      && [config + "/systemd/user", "/etc/systemd/user"].contains {
        FileManager.default.fileExists(atPath: "\($0)/\(target)/\(name)")
      }
  }

  /// Masked by the user: `systemctl --user mask` links it to /dev/null.
  func masked(_ name: String) -> Bool {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(config)/systemd/user/\(name)"))
      == "/dev/null"
  }

  func describe(_ name: String) -> String {
    if masked(name) { return "\(name) masked" }
    guard let folder = installed(name) else { return "\(name) not installed" }
    return "\(name) in \(Output.safe(folder))\(enabled(name) ? ", enabled" : ", not enabled")"
  }

  func record(_ name: String) -> JSONValue {
    .object(["installed": installed(name).map { .string($0) } ?? .null, "enabled": .bool(enabled(name))])
  }
}
