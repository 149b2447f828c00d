import Foundation
import NotifyCore

/// The freedesktop sound theme, where a sound name that is no file of the app's
/// (`alarm-clock-elapsed`, `message-new-instant`) is looked up (the XDG Sound Theme and
/// Sound Naming specifications): `DIR/sounds/freedesktop/stereo/NAME.{disabled,oga,ogg,wav}`
/// for each XDG data directory, user's first; a name not found there falls back by its
/// last word (`message-new-instant`, then `message-new`, then `message`). A `.disabled`
/// file silences the name. The file found is checked as app sounds are, for what the
/// theme's format allows: Ogg Vorbis or Opus, or WAV, shorter than 30 s.
public struct SoundTheme: Sendable {
  /// The theme looked in: the one every desktop ships as the fallback of all others.
  public static let name = "freedesktop"

  /// The theme's folders, in lookup order.
  let folders: [String]

  /// The theme's folders for the given environment (`XDG_DATA_HOME`, `XDG_DATA_DIRS`).
  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    folders = SoundLibrary.dataDirectories(environment).map { "\($0)/sounds/\(Self.name)/stereo" }
  }

  /// True for a name the Sound Naming specification allows: lower-case ASCII words of
  /// letters and digits joined by `-`, at most 64 bytes. Such a name cannot leave the
  /// theme's folders.
  public static func isSoundName(_ name: String) -> Bool {
    let words = name.split(separator: "-", omittingEmptySubsequences: false)
    return name.utf8.count <= 64
      && words.allSatisfy { word in
        !word.isEmpty && word.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
      }
  }

  /// What the theme has for `name` (a sound name: `isSoundName`).
  enum Lookup: Hashable {
    /// The theme's file for the name (or a shorter fallback), by its real path.
    case file(String)
    /// The user silenced it with a `.disabled` file.
    case disabled
    /// Nothing: the theme lacks the name and its fallbacks, or is not installed.
    case missing
  }

  func lookUp(_ name: String) -> Lookup {
    let roots = folders.compactMap(SoundLibrary.realPath)
    var words = name.split(separator: "-")
    while !words.isEmpty {
      let candidate = words.joined(separator: "-")
      for folder in folders {
        for suffix in ["disabled", "oga", "ogg", "wav"] {
          guard let real = SoundLibrary.realPath("\(folder)/\(candidate).\(suffix)"),
            roots.contains(where: { real.hasPrefix($0 + "/") })
          else { continue }
          if suffix == "disabled" { return .disabled }
          var status = stat()
          guard stat(real, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
          return .file(real)
        }
      }
      words.removeLast()
    }
    return .missing
  }

  /// The sound to use for the theme's `name`: `.themed(name)` with its file when the theme
  /// has a usable one, `.none` when the user disabled it, nil when the theme has nothing
  /// for it; a file that breaks the rules resolves to `.default`, saying why.
  func resolve(_ name: String) -> SoundResolution? {
    switch lookUp(name) {
    case .missing:
      return nil
    case .disabled:
      return SoundResolution(effective: .none)
    case .file(let file):
      guard case .invalid(let reason, let fix) = Self.verdict(file) else {
        return SoundResolution(effective: .themed(name), file: file)
      }
      return .substitute(
        for: name, note: "is the sound theme's '\(Escaper.visible(file))', which \(reason)", fix: fix)
    }
  }

  /// The rules for a theme's file: Ogg Vorbis or Opus shorter than 30 s, or a valid app
  /// sound (`SoundRules`).
  static func verdict(_ path: String) -> SoundVerdict {
    let source: FileByteSource
    do { source = try FileByteSource(path: path) } catch {
      return .invalid(reason: "cannot be read: \(error.problem)", fix: error.fix ?? "check the sound theme")
    }
    guard (try? source.read(at: 0, count: 4)) == Array("OggS".utf8) else {
      return SoundRules.verdict(for: SoundFileReader.measure(source).result)
    }
    do {
      let info = try OggReader.read(source)
      guard info.seconds < SoundRules.maxDuration else {
        return .invalid(
          reason:
            "lasts \(SoundRules.formatTenths(info.seconds)) s; notification sounds must be shorter than 30 s",
          fix: "use a shorter sound of the theme, or a file of the app's ('notify sound install FILE')")
      }
      return .valid
    } catch {
      return SoundRules.verdict(for: error)
    }
  }
}
