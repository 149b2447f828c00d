import ArgumentParser
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// The `notify` command line (SPEC.md §5).
struct NotifyCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "notify",
    abstract: "Schedule local notifications and deliver them on time.",
    discussion: """
      notify keeps notifications the way iOS apps schedule them (a fire date, a repeat, title, \
      body, sound, badge, userInfo) in a SQLite store, and delivers them to the desktop's \
      notification server over the session bus, or to stdout. `notify daemon` (a user \
      service) fires them on time; `notify status` says why one did not appear.
      """,
    version: "notify \(NotifyVersion.number) (store schema \(SQLiteStore.schemaVersion))",
    subcommands: [
      ScheduleCommand.self, NowCommand.self, CancelCommand.self, ListCommand.self, ShowCommand.self,
      HistoryCommand.self, BadgeCommand.self, DismissCommand.self, LaunchResponseCommand.self,
      ResponsesCommand.self,
      SettingsCommand.self, QuietCommand.self, StatusCommand.self, DaemonCommand.self, FireDueCommand.self,
      SoundCommand.self, CategoryCommand.self, CalendarCommand.self, ImportCommand.self, ExportCommand.self,
    ]
  )
}
