import CSystemd
import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Opens an app from its desktop entry (freedesktop Desktop Entry spec) when the user
/// clicked one of its notifications and no process of the app is online: by
/// `org.freedesktop.Application.ActivateAction` when the entry is `DBusActivatable`, else
/// by running its `Exec` line. The app reads the click from the store
/// (`takeLaunchResponse()`), never from its command line or environment; the launched
/// process only learns where the store is (`NOTIFY_DB`) and the activation token.
///
/// An `Exec` line runs as the session runs apps: a transient service of the user's systemd
/// manager when one answers on the session bus (`app-notify-<id>-<random>.service`, with
/// the manager's environment and umask, none of notify's sandbox, and a life of its own),
/// else as a detached process of its own session.
struct AppLauncher: Sendable {
  /// How the app will be opened.
  enum Method: Hashable, Sendable {
    case exec(program: String, arguments: [String], workingDirectory: String?)
    case dbus(busName: String, objectPath: String, fallback: [String]?)
  }

  /// A launch worked out from a desktop entry that was found and is valid.
  struct Plan: Hashable, Sendable {
    /// The entry file used.
    var entryPath: String
    var method: Method
    /// The entry's `Icon=`, for the app's bubbles (`app_icon`).
    var icon: String? = nil
  }

  /// The environment the daemon runs in: XDG folders, `PATH`, `HOME`.
  let environment: [String: String]
  /// The store the launched app must read its response from (`NOTIFY_DB`).
  let storePath: String

  /// Where desktop entries are looked up, in order: `$XDG_DATA_HOME/applications`, then
  /// each `$XDG_DATA_DIRS/applications`.
  var applicationFolders: [String] {
    var folders: [String] = []
    if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
      folders.append(home)
    } else {
      folders.append((environment["HOME"] ?? NSHomeDirectory()) + "/.local/share")
    }
    let dirs = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter {
      $0.hasPrefix("/")
    }
    folders += dirs.isEmpty ? ["/usr/local/share", "/usr/share"] : dirs
    return folders.map { $0 + "/applications" }
  }

  /// Finds and checks the entry `entryName` (default `APP`), and works out how to open it;
  /// the error text says why nothing will be opened, for history.
  func plan(app: String, entryName: String?) -> Result<Plan, LaunchRefusal> {
    let name = entryName ?? app
    guard let id = DesktopFileID(name) else {
      return .failure(
        LaunchRefusal(
          "'\(Escaper.visible(name))' is not a desktop file id (letters, digits, '.', '_', '-'); "
            + "configure the app's desktop entry by its file name without .desktop"))
    }
    var found: (path: String, text: String)?
    for folder in applicationFolders {
      let candidate = folder + "/" + id.fileName
      guard FileManager.default.fileExists(atPath: candidate) else { continue }
      // A link may point anywhere: only an entry that stays inside its folder is used.
      guard let real = Self.realPath(candidate), let base = Self.realPath(folder), real.hasPrefix(base + "/")
      else {
        return .failure(LaunchRefusal("\(candidate) leads outside \(folder); the entry was not used"))
      }
      guard let text = try? String(contentsOfFile: real, encoding: .utf8) else {
        return .failure(LaunchRefusal("cannot read \(candidate) as UTF-8 text; fix or remove the entry"))
      }
      found = (candidate, text)
      break
    }
    guard let found else {
      return .failure(
        LaunchRefusal(
          "no desktop entry \(id.fileName) in \(applicationFolders.joined(separator: ", ")); "
            + "install one to open the app on a click"))
    }
    do throws(DesktopEntryError) {
      let entry = try DesktopEntry(parsing: found.text)
      try entry.validateForLaunch()
      if entry.dbusActivatable, let busName = id.busName, let path = id.objectPath {
        let fallback = entry.exec == nil ? nil : try entry.commandLine(entryPath: found.path)
        return .success(
          Plan(
            entryPath: found.path, method: .dbus(busName: busName, objectPath: path, fallback: fallback),
            icon: entry.icon))
      }
      let argv = try entry.commandLine(entryPath: found.path)
      guard let program = resolve(argv[0]) else {
        return .failure(
          LaunchRefusal(
            "\(found.path): the Exec program '\(Escaper.visible(argv[0]))' is not an executable file "
              + "(searched PATH); fix the entry's Exec key"))
      }
      return .success(
        Plan(
          entryPath: found.path,
          method: .exec(program: program, arguments: argv, workingDirectory: entry.path), icon: entry.icon))
    } catch {
      return .failure(LaunchRefusal("\(found.path): \(error)"))
    }
  }

  /// Opens the app as planned, handing it the activation token; the error says why it
  /// could not be opened.
  func perform(_ plan: Plan, response: NotificationResponse, desktop: DesktopSink?) -> Result<
    String, LaunchRefusal
  > {
    switch plan.method {
    case .dbus(let busName, let objectPath, let fallback):
      if let desktop {
        do throws(NotifyError) {
          if try desktop.activateApplication(
            busName: busName, objectPath: objectPath, actionKey: response.actionKey,
            notificationID: response.notification.id, activationToken: response.activationToken)
          {
            return .success("dbus")
          }
        } catch {
          if fallback == nil { return .failure(LaunchRefusal("\(error)")) }
        }
      }
      guard let fallback, let program = resolve(fallback[0]) else {
        return .failure(
          LaunchRefusal(
            "\(plan.entryPath) is DBusActivatable, but nothing owns or can start \(busName) on the session bus "
              + "and the entry has no usable Exec line; install the app's D-Bus service file"))
      }
      return start(
        plan, program: program, arguments: fallback, workingDirectory: nil, response: response,
        desktop: desktop)
    case .exec(let program, let arguments, let workingDirectory):
      return start(
        plan, program: program, arguments: arguments, workingDirectory: workingDirectory, response: response,
        desktop: desktop)
    }
  }

  /// Runs an `Exec` line outside notify: as a transient service of the user's manager when
  /// one answers (`systemd`), else detached (`exec`, also when the manager refused it, which
  /// is logged).
  func start(
    _ plan: Plan, program: String, arguments: [String], workingDirectory: String?,
    response: NotificationResponse, desktop: DesktopSink?
  ) -> Result<String, LaunchRefusal> {
    let app = response.notification.app
    if let desktop {
      let entryID = ((plan.entryPath as NSString).lastPathComponent as NSString).deletingPathExtension
      var random = SystemRandomNumberGenerator()
      let unit = TransientApp(
        unitName: TransientApp.unitName(appID: entryID, random: UInt32(truncatingIfNeeded: random.next())),
        program: program, arguments: arguments, workingDirectory: workingDirectory ?? environment["HOME"],
        environment: launchEnvironment(app: app, token: response.activationToken).map {
          "\($0.key)=\($0.value)"
        }
        .sorted(),
        description: "\(entryID), opened by a click on a notification of \(app)")
      do throws(NotifyError) {
        if try desktop.startTransientService(unit) { return .success("systemd") }
      } catch {
        Logger(label: "notify.launch").warning("starting the app detached instead: \(error)")
      }
    }
    return spawn(
      program: program, arguments: arguments, workingDirectory: workingDirectory, app: app,
      token: response.activationToken
    ).map { _ in "exec" }
  }

  /// What notify adds to a launched app's environment: the store (`NOTIFY_DB`), the app
  /// (`NOTIFY_APP`, never the daemon's own) and the activation token.
  func launchEnvironment(app: String, token: String?) -> [String: String] {
    var added = ["NOTIFY_DB": storePath, "NOTIFY_APP": app]
    added["XDG_ACTIVATION_TOKEN"] = token
    added["DESKTOP_STARTUP_ID"] = token
    return added
  }

  /// The variables a process gets from the unit or the service manager that runs it, which
  /// a detached app must not inherit from notify.
  static let unitVariables = [
    "NOTIFY_SOCKET", "WATCHDOG_PID", "WATCHDOG_USEC", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
    "JOURNAL_STREAM", "INVOCATION_ID", "MANAGERPID", "SYSTEMD_EXEC_PID", "MAINPID", "NOTIFY_BUSY_TIMEOUT",
  ]

  /// An executable file: `name` itself when it holds a `/`, else the first match on `PATH`.
  func resolve(_ name: String) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 && Self.isRegularFile(name) ? name : nil }
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") where folder.hasPrefix("/") {
      let candidate = "\(folder)/\(name)"
      if access(candidate, X_OK) == 0, Self.isRegularFile(candidate) { return candidate }
    }
    return nil
  }

  /// Starts `program` in a session of its own, with default signal handling and an empty
  /// signal mask (the daemon blocks SIGTERM and SIGINT for its loop), stdin from
  /// /dev/null, and the environment a launched app should see: the store, and `app` as
  /// `NOTIFY_APP` (never the daemon's own, which names another app or none), without what
  /// notify's own unit or manager gave notify (`unitVariables`).
  func spawn(program: String, arguments: [String], workingDirectory: String?, app: String, token: String?)
    -> Result<pid_t, LaunchRefusal>
  {
    var childEnvironment = environment
    for name in Self.unitVariables { childEnvironment[name] = nil }
    childEnvironment.merge(launchEnvironment(app: app, token: token)) { $1 }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(
      &attributes, notify_spawn_setsid_flag() | Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let folder = workingDirectory ?? environment["HOME"] ?? "/"
    posix_spawn_file_actions_addchdir_np(&actions, folder)
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = childEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    guard result == 0 else {
      return .failure(LaunchRefusal("could not start \(program): \(String(cString: strerror(result)))"))
    }
    // Reaped on a thread of its own, so a launched app never lingers as a zombie.
    let child = pid
    Thread.detachNewThread {
      var status: Int32 = 0
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
    }
    return .success(pid)
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  static func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
  }
}

/// Why a click opened nothing: written to history, so `notify history` says it.
struct LaunchRefusal: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
