import Foundation
import NotifyCalendar
import NotifyCore
import NotifyStore

/// An iCalendar file's alarms from now on, once, as one-shot notifications of an app: the
/// soonest first, as many as leave `AlarmWindow.headroom` of the app's 64 free. The ids
/// are those `calendar add` would give with `calendar` as the calendar's name, so importing
/// the same file again replaces rather than doubles. One path for `notify import` and the
/// library's `LocalNotificationCenter.importCalendar`.
public enum CalendarImport {
  /// What to store, and what was left out.
  public struct Plan: Sendable {
    /// The notifications, soonest first, checked by the rules every request meets.
    public var notifications: [CheckedNotification]
    /// What was skipped in the file (an alarm the rules refused too), each naming its line
    /// and property.
    public var warnings: [String]
    /// The instant of the last one imported when later alarms were left out (the app keeps
    /// at most 64 pending; `calendar add` follows them all), else nil.
    public var cutAfter: Date?
  }

  /// The plan for `bytes` (named `file` in warnings) into `app`, which has `pending`
  /// notifications pending now.
  public static func plan(
    _ bytes: [UInt8], file: String, calendar: String, app: String, pending: Int, now: Date, zones: Zones
  ) -> Plan {
    let room = max(0, AlarmWindow.pendingLimit - AlarmWindow.headroom - pending)
    let result = AlarmExpansion.instants(
      in: CalendarDocument(bytes: bytes), zones: zones, from: now, to: now + 200 * 365 * 86_400,
      limit: room + 1, soonestOnly: true)
    let instants = result.instants.filter { $0.repetition == 0 }
    let taken = Array(instants.prefix(room))
    var notifications: [CheckedNotification] = []
    var warnings = result.warnings.map { $0.inFile(file) }
    for instant in taken {
      do throws(NotifyError) {
        notifications.append(
          try AlarmNotification.make(instant, calendar: calendar, app: app, createdAt: now, zone: zones.local)
        )
      } catch {
        warnings.append(AlarmNotification.refused(instant, file: file, error: error))
      }
    }
    let cut = instants.count > taken.count || result.truncated
    return Plan(
      notifications: notifications, warnings: warnings.map(\.description),
      cutAfter: cut ? taken.last?.fireDate : nil)
  }

  /// What `importFile` did.
  public struct Imported: Sendable {
    /// What was stored (nothing when `plan.notifications` is empty) and what was skipped.
    public var plan: Plan
    /// The ids the 64-pending limit discarded as the plan was stored (the plan leaves room,
    /// so normally none).
    public var discarded: [String]
  }

  /// Reads `file` and stores its plan (`plan`) into `app`, in one transaction; stores
  /// nothing when the file has no alarm from now on. The calendar name the ids are made with
  /// is the file's (`defaultName`).
  public static func importFile(_ file: String, app: String, store: SQLiteStore, clock: any NotifyClock)
    throws(CalendarFailure) -> Imported
  {
    guard CalendarFiles.kind(of: file) == .file else { throw .noSuchFile(file) }
    let bytes: [UInt8]
    switch CalendarFiles.read(file) {
    case .success(let read): bytes = read
    case .failure(let warning): throw .unreadable(warning)
    }
    let (now, zones) = (clock.now(), clock.zones)
    do throws(NotifyError) {
      try Validator.app(app)
      let plan = plan(
        bytes, file: file, calendar: defaultName(for: file), app: app,
        pending: try store.pending(app: app).count,
        now: now, zones: zones)
      guard !plan.notifications.isEmpty else { return Imported(plan: plan, discarded: []) }
      let outcome = try store.schedule(batch: plan.notifications, zones: zones)
      return Imported(plan: plan, discarded: outcome.discarded.map(\.notification.id))
    } catch {
      throw .store(error)
    }
  }

  /// The calendar name a path gives: its file or folder name without `.ics`, made of the
  /// characters an app id allows.
  public static func defaultName(for path: String) -> String {
    var base = String(path.split(separator: "/").last ?? "calendar")
    if base.lowercased().hasSuffix(".ics") { base = String(base.dropLast(4)) }
    let cleaned = String(
      base.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "-" })
    return cleaned.isEmpty ? "calendar" : String(cleaned.prefix(64))
  }
}
