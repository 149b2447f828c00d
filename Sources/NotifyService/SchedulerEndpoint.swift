import CSystemd
import Foundation
import Logging
import Notify
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifyStore

/// The scheduler on the session bus (README "D-Bus service"): owns
/// `io.github.notify.Scheduler1`, answers calls to its object with `SchedulerService`,
/// and sends the `Delivered`, `Activated` and `Dismissed` signals of an app to the
/// connections that subscribed to it, and to no other.
///
/// `notify daemon` runs it on a thread of its own (`LoopThread`), so that no call holds a
/// hand-off; everything here runs on that thread. It works on a store connection of its own, so the
/// firer sees a notification scheduled over the bus as it sees one from the CLI (another
/// writer: a wake-up), and it follows the store's history for the signals, so they say
/// what happened whoever did it (the daemon's firer, an app's, `notify now`). It does not
/// watch the store itself: the firing loop's one watch does, and rings `historyBell` after
/// a wake-up in which history may have grown (another process's commit, or the loop's own
/// deliveries, handed over in process as they are recorded).
package final class SchedulerEndpoint: LoopAttachable {
  private let service: SchedulerService
  private let server: BusServer
  private let storePath: String
  private let logger = Logger(label: "notify.service")
  /// What the bus said of each caller, by unique name (never reused on a bus).
  private var callers: [String: Caller] = [:]
  /// When the bus showed each connection (what a caller's process start is held against).
  private var arrivals = ConnectionArrivals()
  /// The last history row turned into signals.
  private var cursor: Int64?
  private var relaySource: OpaquePointer?
  /// Rung from the firing loop's thread when history may have grown: the signals are read
  /// and sent on this one.
  package let historyBell: HistoryBell
  private var bellSource: OpaquePointer?
  /// Where calls' files are checked and copied, off this thread.
  private let files: FileWorker
  private var filesSource: OpaquePointer?
  /// The calls waiting for file work, by the worker's ticket.
  private var waiting: [UInt64: (call: BusCall, finish: FileJob)] = [:]
  /// Calls of a connection that has one waiting, in order: answered after it, so that a
  /// caller that sends calls without waiting sees them take effect in the order sent.
  private var queued: [String: [BusCall]] = [:]
  /// The answers of the calls run since the last sync, sent once their writes are on the
  /// disk (`flush`): one sync for every call that came in meanwhile (group commit).
  private var outbox: [(call: BusCall, answer: BusAnswer?)] = []
  private var flushSource: OpaquePointer?
  /// Whether answers wait for a shared sync; false: each call's commits are synced as they
  /// are made and its answer goes at once (`NOTIFY_SERVICE_SYNC=each`, the baseline the
  /// group commit is measured against).
  private let groupsCommits: Bool
  /// The most answers that wait for one sync: a client that sends without waiting for its
  /// answers cannot hold the others' back for long.
  static let outboxLimit = 64

  /// Opens a store connection at `storePath` and takes the bus name (on the bus at
  /// `address`, else the user's session bus); fails when another daemon has it.
  /// `present` shows a notification at once through the daemon's sink (`Firer.present`);
  /// `bell` is what the daemon's loop rings (its firer's deliveries, history grown).
  package init(
    storePath: String, address: String? = nil, clock: any NotifyClock, groupCommits: Bool = true,
    bell: HistoryBell, present: ((LocalNotification) throws(NotifyError) -> Void)? = nil
  ) throws {
    // Its commits are published at once and put on the disk together before any answer
    // goes out (`flush`).
    let store = try SQLiteStore(path: storePath, durability: groupCommits ? .whenSynced : .eachCommit)
    groupsCommits = groupCommits
    self.storePath = storePath
    historyBell = bell
    service = SchedulerService(store: store, clock: clock, presenter: present)
    files = try FileWorker()
    var handle: ((BusCall) -> Void)?
    server = try BusServer(address: address, name: SchedulerInterface.name, path: SchedulerInterface.path) {
      call in handle?(call)
    }
    handle = { [unowned self] call in self.handle(call) }
    // Before any caller's first call: every connection from now on is seen arriving, and
    // those before this one (its own name) came before now.
    try server.watchArrivals { [unowned self] name in self.arrivals.arrived(name, at: ProcessStart.now()) }
    if let own = server.uniqueName { arrivals.arrived(own, at: ProcessStart.now()) }
    server.onDisconnect = { [unowned self] name in
      self.callers[name] = nil
      self.queued[name] = nil
      self.service.drop(name)
    }
  }

  deinit {
    detach()
  }

  // MARK: The loop

  /// Dispatches the bus on `event`, and follows the store's history for the signals.
  package func attach(to event: OpaquePointer, priority: Int32) throws {
    try server.attach(to: event, priority: priority)
    filesSource = files.attach(to: event) { [unowned self] in self.filesDone() }
    let me = Unmanaged.passUnretained(self).toOpaque()
    // After every call the bus has ready (the bus's sources come first): one sync, then
    // the answers.
    _ = sd_event_add_defer(
      event, &flushSource,
      { _, userdata in
        Unmanaged<SchedulerEndpoint>.fromOpaque(userdata!).takeUnretainedValue().flush()
        return 0
      }, me)
    _ = sd_event_source_set_enabled(flushSource, Int32(SD_EVENT_OFF))
    _ = sd_event_source_set_priority(flushSource, Int64(priority) + 1)
    // However often the bell rang: one relay per loop iteration, after the calls.
    _ = sd_event_add_defer(
      event, &relaySource,
      { _, userdata in
        Unmanaged<SchedulerEndpoint>.fromOpaque(userdata!).takeUnretainedValue().relay()
        return 0
      }, me)
    _ = sd_event_source_set_enabled(relaySource, Int32(SD_EVENT_OFF))
    _ = sd_event_source_set_priority(relaySource, Int64(SD_EVENT_PRIORITY_IDLE))
    _ = sd_event_add_io(
      event, &bellSource, historyBell.descriptor, UInt32(EPOLLIN.rawValue),
      { _, _, _, userdata in
        let endpoint = Unmanaged<SchedulerEndpoint>.fromOpaque(userdata!).takeUnretainedValue()
        let (deliveries, historyGrew) = endpoint.historyBell.take()
        // The loop's own deliveries at once, from the deliveries themselves.
        endpoint.emit(endpoint.service.signals(for: deliveries))
        if historyGrew { _ = sd_event_source_set_enabled(endpoint.relaySource, Int32(SD_EVENT_ONESHOT)) }
        return 0
      }, me)
  }

  /// Stops dispatching and releases the name.
  package func detach() {
    flush()
    service.leaveAll()
    files.stop()
    if let filesSource { sd_event_source_disable_unref(filesSource) }
    filesSource = nil
    if let bellSource { sd_event_source_disable_unref(bellSource) }
    if let relaySource { sd_event_source_disable_unref(relaySource) }
    if let flushSource { sd_event_source_disable_unref(flushSource) }
    bellSource = nil
    relaySource = nil
    flushSource = nil
    server.detach()
  }

  /// Sends the signals for what history gained since the last relay.
  package func relay() {
    emit(service.newSignals(after: &cursor))
  }

  /// Sends each signal to its connection.
  private func emit(_ signals: [(destination: String, signal: SchedulerSignal)]) {
    for (destination, signal) in signals {
      do {
        try server.emit(
          signal.member, interface: SchedulerInterface.name, to: destination, values: signal.values)
      } catch {
        logger.notice("could not send \(signal.member) to \(destination): \(error)")
      }
    }
  }

  // MARK: Calls

  private func handle(_ call: BusCall) {
    // After a call of the same connection that waits for its files.
    if queued[call.sender] != nil {
      queued[call.sender]!.append(call)
      return
    }
    switch (call.interface, call.member) {
    case ("org.freedesktop.DBus.Introspectable", "Introspect"):
      send(call, .values([.string(SchedulerInterface.introspection)]))
    case ("org.freedesktop.DBus.Properties", _):
      send(call, properties(call))
    case (SchedulerInterface.name, let member), (nil, let member):
      guard let signature = SchedulerService.signatures[member] else {
        send(
          call,
          .error(
            "org.freedesktop.DBus.Error.UnknownMethod", "no method \(member) in \(SchedulerInterface.name)"))
        return
      }
      switch method(member, signature, call) {
      case .success(.reply(let values)): send(call, .values(values))
      case .success(.later(let job)): wait(call, job)
      case .failure(let error):
        send(
          call,
          .error(
            error.name(forClientVersion: service.clientVersions.version(of: call.sender)), error.description))
      }
    default:
      send(
        call,
        .error(
          "org.freedesktop.DBus.Error.UnknownInterface",
          "no interface \(call.interface ?? "") at \(SchedulerInterface.path)"))
    }
  }

  /// Sends the answer to `call`: the one place every reply and error leaves from, now or
  /// after its file work (`filesDone`). It goes out at the next `flush`, after the sync
  /// that puts the call's writes on the disk.
  private func send(_ call: BusCall, _ reply: Reply) {
    do {
      switch reply {
      case .values(let values): outbox.append((call, try call.answer(values)))
      case .error(let name, let text): outbox.append((call, try call.failure(name, text)))
      }
    } catch {
      logger.notice("could not answer \(call.member) from \(call.sender): \(error)")
    }
    // A first subscriber hears what is recorded from now on.
    if call.member == "Subscribe", case .values = reply { service.startFollowing(&cursor) }
    // A subscriber, or a connection that said its version, is forgotten when it leaves the bus.
    if call.member == "Subscribe" || call.member == "SetClientVersion", case .values = reply {
      do { try server.watch(call.sender) } catch {
        logger.notice("cannot tell when \(call.sender) leaves: \(error)")
      }
    }
    if !groupsCommits || outbox.count >= Self.outboxLimit || flushSource == nil {
      flush()
    } else {
      _ = sd_event_source_set_enabled(flushSource, Int32(SD_EVENT_ONESHOT))
    }
  }

  /// Puts every commit of the calls answered since the last flush on the disk, with one
  /// sync, then sends their answers (reads too: no caller hears of a write that a power
  /// cut could take back). A sync that fails turns every answer into a `Failed` error.
  func flush() {
    guard !outbox.isEmpty else { return }
    let answers = outbox
    outbox.removeAll(keepingCapacity: true)
    var failure: NotifyError?
    if groupsCommits {
      do { try service.store.syncIfChanged() } catch { failure = error }
    }
    for (call, answer) in answers {
      do {
        if let failure {
          let error = SchedulerError.from(failure)
          let name = error.name(forClientVersion: service.clientVersions.version(of: call.sender))
          try call.failure(name, error.description)?.send()
        } else {
          try answer?.send()
        }
      } catch {
        logger.notice("could not answer \(call.member) from \(call.sender): \(error)")
      }
    }
  }

  /// An answer as it goes on the bus.
  private enum Reply {
    /// The reply's values.
    case values([BusValue])
    /// A D-Bus error: its name and message.
    case error(String, String)
  }

  /// Keeps `call` (its message, and so its descriptors) until its file work is done; the
  /// connection's later calls wait behind it.
  private func wait(_ call: BusCall, _ job: FileJob) {
    let ticket = files.submit(job.work)
    waiting[ticket] = (call, job)
    if queued[call.sender] == nil { queued[call.sender] = [] }
  }

  /// Finishes the calls whose file work is done, answers them, and goes on with what their
  /// connections sent meanwhile.
  private func filesDone() {
    for (ticket, result) in files.takeFinished() {
      guard let (call, job) = waiting.removeValue(forKey: ticket) else { continue }
      switch job.finish(result) {
      case .success(.later(let next)):
        let again = files.submit(next.work)
        waiting[again] = (call, next)
        continue
      case .success(.reply(let values)): send(call, .values(values))
      case .failure(let error):
        send(
          call,
          .error(
            error.name(forClientVersion: service.clientVersions.version(of: call.sender)), error.description))
      }
      // The connection's calls that waited, until one waits again.
      var later = queued.removeValue(forKey: call.sender) ?? []
      while !later.isEmpty, queued[call.sender] == nil {
        handle(later.removeFirst())
      }
      if !later.isEmpty { queued[call.sender, default: []].append(contentsOf: later) }
    }
  }

  private func method(_ member: String, _ signature: String, _ call: BusCall) -> Result<
    CallAnswer, SchedulerError
  > {
    Result { () throws(SchedulerError) in
      guard call.signature == signature else {
        throw SchedulerError.invalidArgs(
          "\(member) takes (\(signature)), not (\(call.signature)): see \(SchedulerInterface.name).xml")
      }
      let arguments: [BusValue]
      do throws(BusValueError) { arguments = try call.arguments(limits: SchedulerService.readLimits) } catch {
        throw SchedulerError.invalidArgs("\(member): \(error.description)")
      }
      return try service.answer(member, arguments, caller: caller(of: call))
    }
  }

  private func properties(_ call: BusCall) -> Reply {
    let arguments = (try? call.arguments(limits: SchedulerService.readLimits)) ?? []
    let version = BusValue.uint32(SchedulerInterface.version)
    switch (call.member, call.signature, arguments.first) {
    case ("Get", "ss", .string(SchedulerInterface.name)?) where arguments.last == .string("Version"):
      return .values([.variant(version)])
    case ("GetAll", "s", .string(SchedulerInterface.name)?):
      return .values([.vardict([("Version", version)])])
    case ("GetAll", "s", _):
      return .values([.vardict([])])
    case ("Set", _, _):
      return .error("org.freedesktop.DBus.Error.PropertyReadOnly", "the scheduler's properties are read-only")
    default:
      return .error("org.freedesktop.DBus.Error.InvalidArgs", "no such property")
    }
  }

  /// The caller, asked of the bus once per connection, and its sandbox read from the
  /// process that made the connection (`ProcessRoot.evidence(of:connectionBy:)`): never
  /// from another process that holds its pid since.
  private func caller(of call: BusCall) -> Caller {
    if let known = callers[call.sender] { return known }
    let credentials = server.credentials(of: call.sender)
    let appeared = arrivals.appeared(call.sender, now: ProcessStart.now()) ?? ProcessStart.now()
    let (evidence, origin) = ProcessRoot.evidence(of: credentials, connectionBy: appeared)
    let sandbox = Sandbox.decide(evidence, origin: origin, pid: credentials.pid)
    switch sandbox {
    case .unidentified(let reason):
      logger.notice("\(call.sender) runs in a sandbox notify cannot identify: \(reason)")
    case .unverified(let reason):
      logger.notice("\(call.sender) is refused: \(reason)")
    default: break
    }
    let caller = Caller(connection: call.sender, pid: credentials.pid, uid: credentials.uid, sandbox: sandbox)
    if callers.count >= 4096 { callers.removeAll() }
    callers[call.sender] = caller
    return caller
  }
}

extension SchedulerEndpoint {
  /// Whether `notify daemon` serves the bus: `NOTIFY_SCHEDULER=on`. Off unless set (the
  /// unit and the activation file set it): the once a second wake-up once blamed on it was
  /// libdispatch's workqueue monitor (StoreCreator); the default stays off while the
  /// suite's many daemons share one bus (README).
  package static func isWanted(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    environment["NOTIFY_SCHEDULER"] == "on"
  }

  /// The endpoint for `notify daemon` when `NOTIFY_SCHEDULER=on` (`isWanted`), or nil:
  /// when it is not set, and (logged) when there is no session bus to serve on or another
  /// daemon serves the name. The daemon fires without it then.
  package static func start(
    storePath: String, clock: any NotifyClock, bell: HistoryBell,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    present: @escaping (LocalNotification) throws(NotifyError) -> Void
  ) -> SchedulerEndpoint? {
    guard isWanted(environment: environment) else { return nil }
    do {
      // NOTIFY_SERVICE_SYNC=each: a sync per commit and each answer at once, the baseline
      // of the group commit's benchmark (BENCHMARKS).
      return try SchedulerEndpoint(
        storePath: storePath, clock: clock, groupCommits: environment["NOTIFY_SERVICE_SYNC"] != "each",
        bell: bell, present: present)
    } catch {
      Logger(label: "notify.service").notice(
        "no \(SchedulerInterface.name) on the session bus: \(error)")
      return nil
    }
  }
}
