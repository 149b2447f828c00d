import Foundation
import Logging
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore

/// The scheduler's methods, one app at a time, through the same library calls the
/// `notify` command makes (`center.ownStore`: `add`, `cancel`, `pending`, ...): one
/// store, one set of rules, one 64 limit, one history. Bus-free: it takes the arguments
/// as values and returns the reply's values, so tests call it directly. Runs on the
/// service's thread only (`SchedulerEndpoint`), as the store calls it makes do.
final class SchedulerService {
  let store: SQLiteStore
  let clock: any NotifyClock
  /// The only user served: the daemon's.
  let owner: UInt32
  /// The apps' centers, made on first use.
  private var centers: [String: LocalNotificationCenter] = [:]
  let logger = Logger(label: "notify.service")
  /// Which connections hear which apps' signals.
  /// Changed through `changeSubscriptions` only, which keeps the apps' presence with it.
  var subscriptions = Subscriptions()
  /// The deliveries the daemon's firer handed over in process and the service announced
  /// (`signals(for:)`), until their record is read from history (and not announced again).
  var announced = AnnouncedDeliveries()
  /// Which version of the interface each connection was written for (`SetClientVersion`).
  var clientVersions = ClientVersions()
  /// Shows a notification now through the daemon's own sink (`Firer.present`: not counted
  /// toward the 64 limit, quiet hours and settings applied); nil stores it due now instead.
  let presenter: Presenter?

  /// Shows a notification at once, as `notify now` does.
  typealias Presenter = (LocalNotification) throws(NotifyError) -> Void
  /// Where batches larger than `largeBatch` are written, off the service's thread.
  let batches: BatchConnection
  /// The most requests a batch may have to be stored on the service's thread: a larger
  /// one's transaction runs on the worker (docs/decisions/0127), so other callers are
  /// answered meanwhile; a smaller one shares the group commit's sync.
  static let largeBatch = 16

  /// The most requests one `Schedule` call takes.
  static let maximumBatch = 1000
  /// What a call may send: strings up to 64 KiB (the longest text a rule allows, a 4000
  /// character body, is at most 16 KB), arrays up to a batch, 200,000 values in all.
  static let readLimits = BusReadLimits(
    stringBytes: 65_536, arrayCount: maximumBatch, totalValues: 200_000, depth: 32)

  /// Each method's argument signature, as the interface's introspection data declares it.
  static let signatures: [String: String] = SchedulerInterface.methods.mapValues(\.inSignature)

  init(store: SQLiteStore, clock: any NotifyClock, owner: UInt32 = getuid(), presenter: Presenter? = nil) {
    self.store = store
    self.clock = clock
    self.owner = owner
    self.presenter = presenter
    batches = BatchConnection(path: store.path)
  }

  /// Runs `member` for `caller` with `arguments` (already checked against `signatures`),
  /// file work included, on the calling thread; the reply's values.
  func call(_ member: String, _ arguments: [BusValue], caller: Caller) throws(SchedulerError) -> [BusValue] {
    try answer(member, arguments, caller: caller).wait()
  }

  /// Runs `member` for `caller` with `arguments` (already checked against `signatures`):
  /// the reply, or the file work to do before it (`Schedule` and `Present` sending files).
  func answer(_ member: String, _ arguments: [BusValue], caller: Caller) throws(SchedulerError) -> CallAnswer
  {
    switch member {
    case "Schedule", "Present": break
    case "SetClientVersion":
      // Says which error names the caller knows; anyone may say it, for its own connection.
      guard case .uint32(let version)? = arguments.first else {
        throw .invalidArgs("SetClientVersion takes the version the caller was written for (u)")
      }
      clientVersions.set(version, for: caller.connection)
      return .reply([.uint32(SchedulerInterface.version)])
    default: return .reply(try values(member, arguments, caller: caller))
    }
    try caller.checkUser(is: owner)
    guard case .string(let claimed)? = arguments.first else {
      throw .invalidArgs("\(member) takes the app id first")
    }
    let app = try caller.app(claimed: claimed)
    let rest = Array(arguments.dropFirst())
    return member == "Schedule" ? try schedule(app: app, rest) : try present(app: app, rest)
  }

  /// The reply of every method but `Schedule` and `Present`.
  private func values(_ member: String, _ arguments: [BusValue], caller: Caller) throws(SchedulerError)
    -> [BusValue]
  {
    try caller.checkUser(is: owner)
    guard case .string(let claimed)? = arguments.first else {
      throw .invalidArgs("\(member) takes the app id first")
    }
    let app = try caller.app(claimed: claimed)
    let rest = Array(arguments.dropFirst())
    switch member {
    case "Cancel": return try cancel(app: app, ids: try Self.ids(rest))
    case "CancelAll":
      return [.strings(try run { () throws(NotifyError) in try center(app).ownStore.cancelAll() })]
    case "ListPending":
      let pending = try run { () throws(NotifyError) in try center(app).ownStore.pending() }
      return [.array(element: "a{sv}", pending.map(Self.record))]
    case "Withdraw": return try withdraw(app: app, ids: try Self.ids(rest))
    case "GetBadge":
      return [
        .uint32(UInt32(clamping: try run { () throws(NotifyError) in try center(app).ownStore.badge() }))
      ]
    case "SetBadge":
      guard case .uint32(let count)? = rest.first else { throw .invalidArgs("SetBadge takes a count (u)") }
      try run { () throws(NotifyError) in
        try Validator.badge(Int(count))
        try center(app).ownStore.setBadge(Int(count))
      }
      return []
    case "GetSettings":
      let record = try run { () throws(NotifyError) in
        try store.appSettings(app: app).jsonRecord(under: try store.defaultSettings())
      }
      return [.vardict(record)]
    case "TakeLaunchResponse":
      // The click that launched the app (`notify launch-response`), taken once.
      let response = try run { () throws(NotifyError) in try center(app).ownStore.takeLaunchResponse() }
      return [.bool(response != nil), response.map { .vardict($0.jsonRecord) } ?? .vardict([])]
    case "SetCategories":
      // All of them or none, as the library's `setNotificationCategories`.
      let categories = try RequestDecoder(app: app, now: clock.now(), zones: clock.zones).categories(
        rest.first)
      try run { () throws(NotifyError) in try center(app).ownStore.setCategories(categories) }
      return []
    case "GetCategories":
      let categories = try run { () throws(NotifyError) in try center(app).ownStore.categories() }
      return [.array(element: "a{sv}", categories.map(Self.category))]
    case "ListDelivered", "ListHistory", "ListHeld", "TakeResponses", "RequestAuthorization":
      return try view(member, app: app, rest)
    case "Subscribe":
      try subscribe(caller.connection, app: app)
      return []
    case "Unsubscribe":
      changeSubscriptions { $0.remove(caller.connection, app: app) }
      return []
    default:
      throw .invalidArgs("no method \(member)")
    }
  }

  private func schedule(app: String, _ arguments: [BusValue]) throws(SchedulerError) -> CallAnswer {
    guard case .array(_, let requests)? = arguments.first else { throw .invalidArgs("Schedule takes aa{sv}") }
    guard requests.count <= Self.maximumBatch else {
      throw .invalidArgs("a batch of \(requests.count) requests: send at most \(Self.maximumBatch) per call")
    }
    // Every request is checked before the first is stored: a bad one leaves the store as it was.
    let decoder = RequestDecoder(app: app, now: clock.now(), zones: clock.zones)
    var decoded: [RequestDecoder.Request] = []
    for (index, request) in requests.enumerated() {
      do {
        decoded.append(try decoder.scheduled(request.vardictEntries ?? []))
      } catch {
        throw error.prefixed(requests.count > 1 ? "request \(index + 1) of \(requests.count): " : "")
      }
    }
    // Files (attachments, sound files) are copied off the loop, for the requests the limit keeps.
    if decoded.contains(where: \.carriesFiles) { return try scheduleWithFiles(app: app, decoded) }
    // One transaction for the whole batch, the limit applied once over its result, as the
    // store applies it for `notify schedule`.
    let notifications = decoded.map(\.notification)
    let checked = decoded.map(\.checked)
    let zones = clock.zones
    return try transaction(requests: checked.count) { store throws(NotifyError) -> BatchScheduleOutcome in
      try store.schedule(batch: checked, zones: zones)
    } then: { result throws(SchedulerError) in
      let outcome: BatchScheduleOutcome
      do throws(NotifyError) { outcome = try result.get() } catch {
        // What the store still refuses is about when: a rule that never fires, a start too far.
        throw SchedulerError.from(error, invalid: SchedulerError.invalidTrigger)
      }
      return .reply(try self.reply(to: outcome, notifications))
    }
  }

  /// Runs `body`, one store transaction of a batch of `requests`, then `next` with its
  /// result on the service's thread: on the service's own connection now when the batch is
  /// small, else on the worker's thread and connection (`batches`), so that the service
  /// answers other callers meanwhile; the caller's later calls wait behind it.
  func transaction<T: Sendable>(
    requests: Int, _ body: @escaping @Sendable (SQLiteStore) throws(NotifyError) -> T,
    then next: @escaping (Result<T, NotifyError>) throws(SchedulerError) -> CallAnswer
  ) throws(SchedulerError) -> CallAnswer {
    guard requests > Self.largeBatch else {
      return try next(Result { () throws(NotifyError) -> T in try body(store) })
    }
    let batches = self.batches
    return .later(
      FileJob(work: { Result { () throws(NotifyError) -> T in try body(try batches.store()) } }) { result in
        Result { () throws(SchedulerError) -> CallAnswer in try next(result) }
      })
  }

  /// `Schedule`'s reply to a stored batch: the ids, and every id the limit discarded; the
  /// limit's error when it discarded one of the batch (the CLI's `not scheduled: ...`).
  func reply(to outcome: BatchScheduleOutcome, _ notifications: [LocalNotification]) throws(SchedulerError)
    -> [BusValue]
  {
    let discarded = outcome.discarded.map(\.notification.id)
    if let refused = outcome.firstNewOneDiscarded {
      throw .limitReached(
        "\(OwnStoreBackend.discardedError(refused).description); discarded: \(discarded.joined(separator: " "))"
      )
    }
    return [.strings(notifications.map(\.id)), .strings(discarded)]
  }

  private func present(app: String, _ arguments: [BusValue]) throws(SchedulerError) -> CallAnswer {
    guard let request = arguments.first?.vardictEntries else { throw .invalidArgs("Present takes a{sv}") }
    let decoded = try RequestDecoder(app: app, now: clock.now(), zones: clock.zones).presented(request)
    if decoded.carriesFiles { return try presentWithFiles(app: app, decoded) }
    return .reply(try present(app: app, decoded.checked))
  }

  /// Shows `notification` now through the daemon's firer, or stores it due now without
  /// one; the hidden copies it carries are named first (the server reads the file as it
  /// shows the bubble), and removed when it fails.
  func present(app: String, _ checked: CheckedNotification) throws(SchedulerError) -> [BusValue] {
    let notification = checked.notification
    if let presenter {
      try run { () throws(NotifyError) in
        try center(app).ownStore.showing(checked, attaching: [], presenter)
      }
      return [.string(notification.id)]
    }
    // Without the daemon's firer at hand: due now, the next firer to wake shows it.
    let outcome = try run { () throws(NotifyError) in try center(app).ownStore.add(checked) }
    if outcome.newOneDiscarded {
      throw .limitReached(OwnStoreBackend.discardedError(outcome).description)
    }
    return [.string(notification.id)]
  }

  private func cancel(app: String, ids: [String]) throws(SchedulerError) -> [BusValue] {
    let missing = try run { () throws(NotifyError) in try center(app).ownStore.cancel(ids) }
    guard missing.isEmpty else {
      let list = missing.map { "'\(Escaper.visible($0))'" }.joined(separator: ", ")
      throw .unknownID(
        "not cancelled: \(list) not pending in app '\(app)', nor held for quiet hours (the others were cancelled)"
      )
    }
    return []
  }

  private func withdraw(app: String, ids: [String]) throws(SchedulerError) -> [BusValue] {
    let missing = try run { () throws(NotifyError) in try center(app).ownStore.removeDelivered(ids) }
    guard missing.isEmpty else {
      let list = missing.map { "'\(Escaper.visible($0))'" }.joined(separator: ", ")
      throw .unknownID("not dismissed: \(list) of app '\(app)' not on screen (the others were withdrawn)")
    }
    return []
  }

  /// The ids of `Cancel` and `Withdraw`, each checked as `notify cancel` checks them.
  private static func ids(_ arguments: [BusValue]) throws(SchedulerError) -> [String] {
    guard case .array("s", let values)? = arguments.first else { throw .invalidArgs("expected the ids (as)") }
    var ids: [String] = []
    for value in values {
      guard case .string(let id) = value else { continue }
      do { try Validator.id(id) } catch { throw SchedulerError.from(error) }
      ids.append(id)
    }
    return ids
  }

  /// A category as `SetCategories` takes it: `identifier`, and `actions` as an `aa{sv}` of
  /// the keys of `notify category list --json` (so that what `GetCategories` returns can be
  /// set again as it is).
  static func category(_ category: NotificationCategory) -> BusValue {
    .vardict([
      ("identifier", .string(category.identifier)),
      ("actions", .array(element: "a{sv}", category.actions.compactMap { BusValue(json: $0.jsonValue) })),
    ])
  }

  /// A pending notification as `notify list --json` shows it, plus `fireDateMs` (x).
  static func record(_ stored: StoredNotification) -> BusValue {
    guard case .array(let element, var entries) = BusValue.vardict(stored.jsonRecord) else {
      return .vardict([])
    }
    if let next = stored.nextFireDate {
      entries.append(.dictEntry(.string("fireDateMs"), .variant(.int64(RFC3339.millisecondsSince1970(next)))))
    }
    return .array(element: element, entries)
  }

  /// The app's center, made as `notify` makes it (its sink is for nothing it delivers itself).
  func center(_ app: String) throws(NotifyError) -> LocalNotificationCenter {
    if let center = centers[app] { return center }
    if centers.count >= 256 { centers.removeAll() }
    let center = try LocalNotificationCenter(app: app, store: store, sink: StdoutSink(), clock: clock)
    centers[app] = center
    return center
  }

  /// Runs a store or rules call, its error as the scheduler's.
  func run<T>(_ body: () throws(NotifyError) -> T) throws(SchedulerError) -> T {
    do { return try body() } catch { throw SchedulerError.from(error) }
  }
}

extension SchedulerError {
  /// The same error with `prefix` and `suffix` around its message.
  func prefixed(_ prefix: String, suffix: String = "") -> SchedulerError {
    with(prefix + description + suffix)
  }
}
