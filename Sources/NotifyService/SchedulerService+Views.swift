import NotifyCore
import NotifyDesktop
import NotifyStore

/// The methods of version 3 (docs/dbus.md, "Methods"): what a sandboxed app's
/// center reads through the service instead of a store it cannot reach (what is on screen,
/// history, what quiet hours hold, the answers that waited) and its authorization request.
/// Each reads or takes the calling app's rows only (`app` is the one `Caller.app(claimed:)`
/// decided).
extension SchedulerService {
  /// The most history events one `ListHistory` call returns.
  static let maximumHistory = 1000

  func view(_ member: String, app: String, _ arguments: [BusValue]) throws(SchedulerError) -> [BusValue] {
    switch member {
    case "ListDelivered":
      let events = try run { () throws(NotifyError) in try store.onScreen(app: app) }
      return [.array(element: "a{sv}", events.map(Self.record))]
    case "ListHistory":
      guard case .uint32(let limit)? = arguments.first else {
        throw .invalidArgs("ListHistory takes a limit (u)")
      }
      let bounded = min(Int(limit), Self.maximumHistory)
      let events = try run { () throws(NotifyError) in try store.history(app: app, limit: bounded) }
      return [.array(element: "a{sv}", events.map(Self.record))]
    case "ListHeld":
      let held = try run { () throws(NotifyError) in try store.held(app: app) }
      let listed = ListedNotification.list(held: held, pending: [])
      return [.array(element: "a{sv}", listed.map(Self.record))]
    case "TakeResponses":
      // The answers that waited while no process of the app listened, taken once.
      let responses = try run { () throws(NotifyError) in try center(app).ownStore.takeWaitingResponses() }
      return [.array(element: "a{sv}", responses.map { .vardict($0.jsonRecord) })]
    case "RequestAuthorization":
      guard case .uint32(let bits)? = arguments.first else {
        throw .invalidArgs("RequestAuthorization takes the kinds asked for (u: 1 alerts, 2 sounds, 4 badges)")
      }
      let kinds = PresentationOptions(rawValue: Int(bits)).intersection(.all)
      let granted = try run { () throws(NotifyError) in try center(app).ownStore.requestAuthorization(kinds) }
      return [.uint32(UInt32(granted.rawValue))]
    default:
      throw .invalidArgs("no method \(member)")
    }
  }

  /// A history event as `notify history --json` shows it, plus `sequence` (x, the store's
  /// order) and `atMs` (x, ms since 1970 UTC).
  static func record(_ event: HistoryEvent) -> BusValue {
    var record = event.jsonRecord
    record.set("sequence", .int(event.sequence))
    record.set("atMs", .int(RFC3339.millisecondsSince1970(event.at)))
    return .vardict(record)
  }

  /// A held occurrence as `notify list --json` shows it (`state` `held`, `occurrence`,
  /// `heldAt`), plus `fireDateMs` and `heldAtMs` (x).
  static func record(_ listed: ListedNotification) -> BusValue {
    var record = listed.jsonRecord
    if let due = listed.fireDate { record.set("fireDateMs", .int(RFC3339.millisecondsSince1970(due))) }
    if case .held(let held) = listed {
      record.set("heldAtMs", .int(RFC3339.millisecondsSince1970(held.heldAt)))
    }
    return .vardict(record)
  }
}
