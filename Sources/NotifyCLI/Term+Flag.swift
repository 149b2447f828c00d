import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

extension Term {
  /// How the command line names what an error refers to: its flag (SPEC.md §1, §5).
  var flag: String {
    switch self {
    case .app: "--app or NOTIFY_APP"
    case .userInfo: "--user-info"
    case .repeatCount: "--repeat-count"
    case .until: "--until"
    case .fireDate: "--at"
    case .start: "--at/--in"
    case .delay: "--in"
    case .timeZone: "--time-zone"
    case .title: "--title"
    case .sound: "--sound"
    case .badge: "--badge"
    case .storePath: "--db"
    case .fieldRules: "`notify schedule --help`"
    case .stdoutSink: "--sink stdout"
    case .desktopSink: "--sink desktop"
    case .quietFrom: "--from"
    case .quietTo: "--to"
    case .quietDays: "--days"
    case .quietFor: "--for"
    case .action: "--button"
    case .textAction: "--text-button"
    case .snooze: "--snooze"
    case .rule: "--rrule/--every/--on"
    case .exclusions: "--except"
    case .category: "--category"
    case .realertEvery: "--realert-every"
    case .realertTimes: "--realert-times"
    case .expireLate: "--expire-late"
    case .wakeLead: "--wake-lead"
    case .calendarName: "--name"
    case .calendarList: "notify calendar list"
    case .calendarRemoval: "notify calendar remove"
    case .windowStart: "--from"
    case .windowEnd: "--to"
    }
  }
}

extension NotifyError {
  /// The message as the command line prints it: every term named by its flag.
  var commandLineText: String { rendered(\.flag) }
}
