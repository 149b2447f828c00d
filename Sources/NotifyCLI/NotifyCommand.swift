import ArgumentParser
import Notify

/// The `notify` command line (SPEC.md §5).
struct NotifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notify",
    abstract: "Schedule local notifications and deliver them on time.",
    subcommands: [
      ScheduleCommand.self, NowCommand.self, CancelCommand.self, ListCommand.self, ShowCommand.self,
      HistoryCommand.self, BadgeCommand.self, DismissCommand.self, LaunchResponseCommand.self,
      SettingsCommand.self, QuietCommand.self, StatusCommand.self, DaemonCommand.self, FireDueCommand.self,
      SoundCommand.self,
    ]
  )
}
