import Foundation
import NotifyCore

/// An app's sound folders, its "bundle" (SPEC.md §4): where sound names are looked up,
/// checked, installed and listed.
///
/// Folders, in lookup order: `$XDG_DATA_HOME/notify/sounds/APP` (default
/// `~/.local/share`), then `DIR/notify/sounds/APP` for each `DIR` of `$XDG_DATA_DIRS`
/// (default `/usr/local/share:/usr/share`). The first folder holding the name wins.
/// A name must be a plain file name; a file whose real path (after links) lies outside
/// every one of the folders is not used.
///
/// ```swift
/// let library = try SoundLibrary(app: "chat")
/// let resolution = library.resolve(.file("ping.wav"))  // at schedule time and at fire time
/// if let warning = resolution.warning { print("notify: warning: \(warning)") }
/// ```
public struct SoundLibrary: Sendable {
  /// The app whose sounds these are.
  public let app: String
  /// The folders, in lookup order; the first is where `install` copies to.
  public let folders: [String]
  /// Where a sound name that is no file of the app's is looked up next.
  public let theme: SoundTheme

  /// The folders of `app` for the given environment; throws `.invalidData` for an app
  /// id that is not `[A-Za-z0-9._-]{1,128}`, or is `.` or `..` (which would name a
  /// folder other than the app's own).
  public init(
    app: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws(NotifyError) {
    try Validator.app(app)
    guard app != ".", app != ".." else {
      throw NotifyError(
        .invalidData, "app '\(app)' cannot have a sound folder", fix: "use an app id with a letter or digit")
    }
    self.app = app
    self.folders = Self.dataDirectories(environment).map { "\($0)/notify/sounds/\(app)" }
    self.theme = SoundTheme(environment: environment)
  }

  /// The XDG base directories for data, user's first.
  static func dataDirectories(_ environment: [String: String]) -> [String] {
    func absolute(_ path: String?) -> String? {
      guard let path, path.hasPrefix("/") else { return nil }
      var trimmed = path
      while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
      return trimmed == "/" ? "" : trimmed
    }
    let home = absolute(environment["HOME"]) ?? absolute(NSHomeDirectory()) ?? ""
    let dataHome = absolute(environment["XDG_DATA_HOME"]) ?? "\(home)/.local/share"
    let listed = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").compactMap {
      absolute(String($0))
    }
    let dataDirs = listed.isEmpty ? ["/usr/local/share", "/usr/share"] : listed
    var seen = Set<String>()
    return ([dataHome] + dataDirs).filter { seen.insert($0).inserted }
  }

  /// The folder `install` copies into.
  public var installFolder: String { folders[0] }

  // MARK: Lookup

  /// Where a name was found, or why it was not.
  struct Lookup {
    /// The real path of the file, inside one of the folders.
    var file: String?
    /// Why candidates were refused (a link leading outside, not a regular file).
    var refusals: [String] = []
  }

  /// The real path of the sound file `name`, or nil when no folder holds a usable one.
  /// Throws `.invalidData` (exit 65) for a name with `/` or a leading `.`.
  public func locate(_ name: String) throws(NotifyError) -> String? {
    try lookUp(name).file
  }

  func lookUp(_ name: String) throws(NotifyError) -> Lookup {
    try Validator.soundName(name)
    let roots = folders.compactMap(Self.realPath)
    var lookup = Lookup()
    for folder in folders {
      let candidate = "\(folder)/\(name)"
      var status = stat()
      guard lstat(candidate, &status) == 0 else { continue }
      guard let real = Self.realPath(candidate) else {
        lookup.refusals.append("'\(Escaper.visible(candidate))' is a broken link")
        continue
      }
      guard roots.contains(where: { real.hasPrefix($0 == "/" ? "/" : $0 + "/") }) else {
        lookup.refusals.append(
          "'\(Escaper.visible(candidate))' leads outside the sound folders (to '\(Escaper.visible(real))')")
        continue
      }
      guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
        lookup.refusals.append("'\(Escaper.visible(candidate))' is not a regular file")
        continue
      }
      lookup.file = real
      return lookup
    }
    return lookup
  }

  /// The sound to use for `sound`, checked now: `.none` and `.default` resolve to
  /// themselves; a name no folder of the app's holds that is a sound name of the theme
  /// (`alarm-clock-elapsed`) resolves through `SoundTheme` to `.themed`; a file name that is refused, missing or invalid resolves to `.default`
  /// with `requested` and a `note` saying why. Never throws: call it at fire time.
  public func resolve(_ sound: SoundName) -> SoundResolution {
    guard case .file(let name) = sound else { return SoundResolution(effective: sound) }
    let lookup: Lookup
    do { lookup = try lookUp(name) } catch {
      return .substitute(for: name, note: "is not a plain file name", fix: error.fix ?? "")
    }
    guard let file = lookup.file else {
      // Not the app's: a sound name may be the sound theme's.
      let themed = SoundTheme.isSoundName(name)
      if themed, lookup.refusals.isEmpty, let resolution = theme.resolve(name) { return resolution }
      let searched = folders.map { Escaper.visible($0) }.joined(separator: ", ")
      let note =
        lookup.refusals.isEmpty
        ? "is not found in \(searched)\(themed ? " nor in the '\(SoundTheme.name)' sound theme" : "")"
        : "is not used: " + lookup.refusals.joined(separator: "; ")
      let fix = "install it with 'notify sound install FILE --app \(app)'"
      return .substitute(
        for: name, note: note,
        fix: themed ? fix + ", or install the freedesktop sound theme (sound-theme-freedesktop)" : fix)
    }
    let check: SoundCheck
    do { check = try SoundCheck.file(file) } catch {
      return .substitute(for: name, note: "cannot be read: \(error.problem)", fix: error.fix ?? "")
    }
    guard case .invalid(let reason, let fix) = check.verdict else {
      return SoundResolution(effective: sound, file: file)
    }
    return .substitute(for: name, note: reason, fix: fix)
  }

  /// The sound a stored notification will use, for the firing engine: resolves in
  /// `notification.app`'s folders and never throws (an unusable app id gives the
  /// default sound with a note, like any other unusable sound).
  public static func resolve(
    _ notification: LocalNotification, environment: [String: String]? = nil
  ) -> SoundResolution {
    guard case .file(let name) = notification.sound else {
      return SoundResolution(effective: notification.sound)
    }
    do throws(NotifyError) {
      // The environment is read only here: building it is most of the cost of a call,
      // and a firer calls this for every occurrence it claims.
      return try SoundLibrary(
        app: notification.app, environment: environment ?? ProcessInfo.processInfo.environment
      ).resolve(notification.sound)
    } catch {
      return .substitute(for: name, note: "has no sound folder: \(error.problem)", fix: error.fix ?? "")
    }
  }

  /// Like `resolve(_:)`, but with `strict` (`schedule --strict-sound`) a substitution
  /// throws `.invalidData` (exit 65) instead.
  public func resolve(_ sound: SoundName, strict: Bool) throws(NotifyError) -> SoundResolution {
    let resolution = resolve(sound)
    if strict, let error = resolution.strictError { throw error }
    return resolution
  }

  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
