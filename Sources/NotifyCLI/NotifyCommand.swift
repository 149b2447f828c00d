import ArgumentParser

/// The `notify` command line (SPEC.md §5).
struct NotifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notify",
    abstract: "Schedule local notifications and deliver them on time.",
    subcommands: [DaemonCommand.self, FireDueCommand.self, SoundCommand.self]
  )
}
