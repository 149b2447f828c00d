import Foundation
import NotifyCore

/// Plays a notification's sound through the system's sound stack when the notification
/// server cannot (it lacks the `sound` capability; SPEC.md §4). It starts a well-kept
/// player found on `PATH` and does not wait for it; it never fails delivery: when there
/// is no audio output or no player it returns a note instead.
///
/// Players, in order: `canberra-gtk-play -i message-new-instant` for the themed default
/// sound (with a display), else the theme's file; for files `pw-play` (PipeWire),
/// `paplay` (PulseAudio), `play` (SoX), then `aplay` (ALSA, WAV only).
///
/// ```swift
/// let resolution = library.resolve(notification.sound)
/// if !serverHasSound, let note = SoundPlayer.play(resolution) { log.info("\(note)") }
/// ```
public struct SoundPlayer: Sendable {
  /// Most players running at once; more sounds are skipped with a note.
  public static let maxPlaying = 4
  /// The themed sound for `default` (freedesktop sound naming specification).
  public static let defaultSoundName = "message-new-instant"

  /// The environment: `PATH` to find players, `XDG_RUNTIME_DIR` / `PULSE_SERVER` to find
  /// an audio server, `XDG_DATA_DIRS` to find the sound theme; passed to the player.
  public var environment: [String: String]
  /// Where ALSA devices live (`/dev/snd`); replaceable for tests.
  public var soundDevices: String

  /// A player for the given environment.
  public init(
    environment: [String: String] = ProcessInfo.processInfo.environment, soundDevices: String = "/dev/snd"
  ) {
    self.environment = environment
    self.soundDevices = soundDevices
  }

  /// Plays with the process environment; returns a note when the sound was not played.
  public static func play(_ resolution: SoundResolution) -> String? {
    SoundPlayer().play(resolution)
  }

  /// Starts a player for `resolution` and returns at once; returns nil when a player
  /// started (or the sound is `none`), or a note saying why no sound was played.
  public func play(_ resolution: SoundResolution) -> String? {
    ChildProcesses.reap()
    let command: [String]
    switch plan(resolution) {
    case .silent: return nil
    case .skip(let note): return note
    case .run(let arguments): command = arguments
    }
    guard ChildProcesses.count < Self.maxPlaying else {
      return "\(Self.maxPlaying) sounds are already playing; this one was skipped"
    }
    switch ChildProcesses.spawn(command, environment: environment) {
    case .success: return nil
    case .failure(let error):
      return "could not start \(command[0]): \(error.description); the sound was not played"
    }
  }

  /// Children started by `play` that have not exited yet (reaping those that have).
  public static var playing: Int { ChildProcesses.count }

  /// What `play` would do.
  public enum Plan: Hashable, Sendable {
    /// Nothing: the sound is `none`.
    case silent
    /// Run this command line (the first element is an absolute path).
    case run([String])
    /// Play nothing, for this reason.
    case skip(String)
  }

  /// Decides what to run for `resolution`, from `PATH`, the audio outputs present and
  /// the sound theme; starts nothing.
  public func plan(_ resolution: SoundResolution) -> Plan {
    let file: String
    switch resolution.effective {
    case .none:
      return .silent
    case .default, .themed:
      guard hasAudioOutput else { return .skip(Self.noOutputNote) }
      let name = resolution.effective == .default ? Self.defaultSoundName : resolution.effective.name
      if environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
        let canberra = executable("canberra-gtk-play")
      {
        // (the user's own theme, as a desktop plays it)
        return .run([canberra, "-i", name, "-d", "notify"])
      }
      guard let themed = resolution.file ?? themedDefaultSound() else {
        return .skip(
          "no player for \(resolution.effective == .default ? "the default sound" : "the sound '\(name)'"): install canberra-gtk-play, or the freedesktop sound theme with pw-play or paplay"
        )
      }
      file = themed
    case .file:
      guard let resolved = resolution.file else {
        return .skip("the sound file was not resolved; the sound was not played")
      }
      guard hasAudioOutput else { return .skip(Self.noOutputNote) }
      file = resolved
    }
    return playerCommand(for: file).map(Plan.run)
      ?? .skip("no sound player found on PATH (pw-play, paplay, play or aplay); the sound was not played")
  }

  static let noOutputNote =
    "no audio output (no PipeWire or PulseAudio server, no ALSA device); the sound was not played"

  /// A command line playing `file` with the first player on `PATH` that can.
  func playerCommand(for file: String) -> [String]? {
    if let player = executable("pw-play") { return [player, file] }
    if let player = executable("paplay") { return [player, file] }
    if let player = executable("play") { return [player, "-q", file] }
    if let player = executable("aplay"), Self.isWAV(file) { return [player, "-q", file] }
    return nil
  }

  /// True when a sound server or sound card is there to play to.
  public var hasAudioOutput: Bool {
    if let server = environment["PULSE_SERVER"], !server.isEmpty { return true }
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      for socket in ["pipewire-0", "pulse/native"] where Self.exists("\(runtime)/\(socket)") { return true }
    }
    let devices = (try? FileManager.default.contentsOfDirectory(atPath: soundDevices)) ?? []
    return devices.contains { $0.hasPrefix("pcm") }
  }

  /// The freedesktop theme's file for the default sound, found as a theme's sound names are
  /// (`SoundTheme`: XDG data dirs, fallbacks, inside the theme's folder).
  func themedDefaultSound() -> String? {
    guard case .file(let path) = SoundTheme(environment: environment).lookUp(Self.defaultSoundName) else {
      return nil
    }
    return path
  }

  /// The absolute path of `name` in `PATH`, when it is there and executable.
  func executable(_ name: String) -> String? {
    let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") where directory.hasPrefix("/") {
      let candidate = "\(directory)/\(name)"
      var status = stat()
      if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
        return candidate
      }
    }
    return nil
  }

  static func exists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  static func isWAV(_ file: String) -> Bool {
    guard case .success(let info)? = try? SoundFileReader.read(path: file) else { return false }
    return info.container == .wav
  }
}
