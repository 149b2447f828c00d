import ArgumentParser

/// `notify sound check/install/list` (SPEC.md §4). Owned by the sound work.
struct SoundCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sound", abstract: "Check, install and list notification sounds.")
  func run() throws { throw CleanExit.message("notify sound: not built yet") }
}
