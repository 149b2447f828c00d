import CSystemd
import Foundation
import Logging
import NotifyCore
import NotifyDesktop
import NotifyFiring
import NotifyStore

/// The scheduler on the session bus (docs/dbus.md): owns
/// `io.github.notify.Scheduler1`, answers calls to its object with `SchedulerService`,
/// and sends the `Delivered`, `Activated` and `Dismissed` signals of an app to the
/// connections that subscribed to it, and to no other.
///
/// `notify daemon` runs it on a thread of its own (`LoopThread`), so that no call holds a
/// hand-off; everything here runs on that thread. It works on a store connection of its own, so the
/// firer sees a notification scheduled over the bus as it sees one from the CLI (another
/// writer: a wake-up), and it follows the store's history for the signals, so they say
/// what happened whoever did it (the daemon's firer, an app's, `notify now`).
package final class SchedulerEndpoint: LoopAttachable {
  private let service: SchedulerService
  private let server: BusServer
  private let storePath: String
  private let logger = Logger(label: "notify.service")
  /// What the bus said of each caller, by unique name (never reused on a bus).
  private var callers: [String: Caller] = [:]
  /// The last history row turned into signals.
  private var cursor: Int64?
  private var watch: OpaquePointer?
  private var relaySource: OpaquePointer?
  /// The store's file names in its folder: a commit changes one of them.
  private let storeFiles: Set<String>
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
  /// `present` shows a notification at once through the daemon's sink (`Firer.present`).
  package init(
    storePath: String, address: String? = nil, clock: any NotifyClock, groupCommits: Bool = true,
    present: ((LocalNotification) throws(NotifyError) -> Void)? = nil
  ) throws {
    // Its commits are published at once and put on the disk together before any answer
    // goes out (`flush`).
    let store = try SQLiteStore(path: storePath, durability: groupCommits ? .whenSynced : .eachCommit)
    groupsCommits = groupCommits
    self.storePath = storePath
    let base = (storePath as NSString).lastPathComponent
    storeFiles = [base, base + "-wal", base + "-journal"]
    service = SchedulerService(store: store, clock: clock, presenter: present)
    var handle: ((BusCall) -> Void)?
    server = try BusServer(address: address, name: SchedulerInterface.name, path: SchedulerInterface.path) {
      call in handle?(call)
    }
    handle = { [unowned self] call in self.handle(call) }
    server.onDisconnect = { [unowned self] name in
      self.callers[name] = nil
      self.service.drop(name)
    }
    cursor = try? store.lastHistorySequence()
  }

  deinit {
    detach()
  }

  // MARK: The loop

  /// Dispatches the bus on `event`, and follows the store's history for the signals.
  package func attach(to event: OpaquePointer, priority: Int32) throws {
    try server.attach(to: event, priority: priority)
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
    // History grows by commits to the WAL: one relay per loop iteration, however many.
    _ = sd_event_add_defer(
      event, &relaySource,
      { _, userdata in
        Unmanaged<SchedulerEndpoint>.fromOpaque(userdata!).takeUnretainedValue().relay()
        return 0
      }, me)
    _ = sd_event_source_set_enabled(relaySource, Int32(SD_EVENT_OFF))
    _ = sd_event_source_set_priority(relaySource, Int64(SD_EVENT_PRIORITY_IDLE))
    let folder = (storePath as NSString).deletingLastPathComponent
    _ = sd_event_add_inotify(
      event, &watch, folder, UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO),
      { _, event, userdata in
        let endpoint = Unmanaged<SchedulerEndpoint>.fromOpaque(userdata!).takeUnretainedValue()
        guard let event, event.pointee.len > 0 else { return 0 }
        let raw = UnsafeRawPointer(event) + MemoryLayout<inotify_event>.size
        let name = String(cString: raw.assumingMemoryBound(to: CChar.self))
        if endpoint.storeFiles.contains(name) {
          _ = sd_event_source_set_enabled(endpoint.relaySource, Int32(SD_EVENT_ONESHOT))
        }
        return 0
      }, me)
  }

  /// Stops dispatching and releases the name.
  package func detach() {
    flush()
    service.leaveAll()
    if let watch { sd_event_source_disable_unref(watch) }
    if let relaySource { sd_event_source_disable_unref(relaySource) }
    if let flushSource { sd_event_source_disable_unref(flushSource) }
    watch = nil
    relaySource = nil
    flushSource = nil
    server.detach()
  }

  // MARK: Answers

  /// Keeps `answer` for the next flush (at once without group commit).
  private func send(_ answer: BusAnswer?, to call: BusCall) {
    outbox.append((call, answer))
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
          try call.failure(SchedulerError.failed(failure.description).name, failure.description)?.send()
        } else {
          try answer?.send()
        }
      } catch {
        logger.notice("could not answer \(call.member) from \(call.sender): \(error)")
      }
    }
  }

  /// Sends the signals for what history gained since the last relay.
  package func relay() {
    for (destination, signal) in service.newSignals(after: &cursor) {
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
    do {
      let answer: BusAnswer?
      switch (call.interface, call.member) {
      case ("org.freedesktop.DBus.Introspectable", "Introspect"):
        answer = try call.answer([.string(SchedulerInterface.introspection)])
      case ("org.freedesktop.DBus.Properties", _):
        answer = try properties(call)
      case (SchedulerInterface.name, let member), (nil, let member):
        answer = try method(member, call)
      default:
        answer = try call.failure(
          "org.freedesktop.DBus.Error.UnknownInterface",
          "no interface \(call.interface ?? "") at \(SchedulerInterface.path)")
      }
      send(answer, to: call)
    } catch {
      logger.notice("could not answer \(call.member) from \(call.sender): \(error)")
    }
  }

  private func method(_ member: String, _ call: BusCall) throws(BusFailure) -> BusAnswer? {
    guard let signature = SchedulerService.signatures[member] else {
      return try call.failure(
        "org.freedesktop.DBus.Error.UnknownMethod", "no method \(member) in \(SchedulerInterface.name)")
    }
    do {
      guard call.signature == signature else {
        throw SchedulerError.invalidArgs(
          "\(member) takes (\(signature)), not (\(call.signature)): see \(SchedulerInterface.name).xml")
      }
      let arguments: [BusValue]
      do { arguments = try call.arguments(limits: SchedulerService.readLimits) } catch {
        throw SchedulerError.invalidArgs("\(member): \(error.description)")
      }
      let caller = caller(of: call)
      let reply = try service.call(member, arguments, caller: caller)
      // A subscriber is forgotten when it leaves the bus.
      if member == "Subscribe" {
        do { try server.watch(caller.connection) } catch {
          logger.notice("cannot tell when \(caller.connection) leaves: \(error)")
        }
      }
      return try call.answer(reply)
    } catch let error as SchedulerError {
      return try call.failure(error.name, error.description)
    } catch let error as BusFailure {
      throw error
    } catch {
      return try call.failure("org.freedesktop.DBus.Error.Failed", "\(error)")
    }
  }

  private func properties(_ call: BusCall) throws(BusFailure) -> BusAnswer? {
    let arguments = (try? call.arguments(limits: SchedulerService.readLimits)) ?? []
    let version = BusValue.uint32(SchedulerInterface.version)
    switch (call.member, call.signature, arguments.first) {
    case ("Get", "ss", .string(SchedulerInterface.name)?) where arguments.last == .string("Version"):
      return try call.answer([.variant(version)])
    case ("GetAll", "s", .string(SchedulerInterface.name)?):
      return try call.answer([.vardict([("Version", version)])])
    case ("GetAll", "s", _):
      return try call.answer([.vardict([])])
    case ("Set", _, _):
      return try call.failure(
        "org.freedesktop.DBus.Error.PropertyReadOnly", "the scheduler's properties are read-only")
    default:
      return try call.failure("org.freedesktop.DBus.Error.InvalidArgs", "no such property")
    }
  }

  /// The caller, asked of the bus once per connection, and its sandbox read from its
  /// process then (while it holds the connection, so its pid is not yet anyone else's).
  private func caller(of call: BusCall) -> Caller {
    if let known = callers[call.sender] { return known }
    let credentials = call.senderCredentials()
    let sandbox = Sandbox.decide(ProcessRoot.evidence(pid: credentials.pid))
    if case .unidentified(let reason) = sandbox {
      logger.notice("\(call.sender) runs in a sandbox notify cannot identify: \(reason)")
    }
    let caller = Caller(connection: call.sender, pid: credentials.pid, uid: credentials.uid, sandbox: sandbox)
    if callers.count >= 4096 { callers.removeAll() }
    callers[call.sender] = caller
    return caller
  }
}

extension SchedulerEndpoint {
  /// The endpoint for `notify daemon` when `NOTIFY_SCHEDULER=on`, or nil: when it is not
  /// set, and (logged) when there is no session bus to serve on or another daemon serves
  /// the name. The daemon fires without it then.
  package static func start(
    storePath: String, clock: any NotifyClock,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    present: @escaping (LocalNotification) throws(NotifyError) -> Void
  ) -> SchedulerEndpoint? {
    // Off unless NOTIFY_SCHEDULER=on (the unit and the activation file set it). The once a
    // second wake-up once blamed on it was libdispatch's workqueue monitor (StoreCreator);
    // the default stays off while the suite's many daemons share one bus (docs/decisions/0069).
    guard environment["NOTIFY_SCHEDULER"] == "on" else { return nil }
    do {
      // NOTIFY_SERVICE_SYNC=each: a sync per commit and each answer at once, the baseline
      // of the group commit's benchmark (BENCHMARKS).
      return try SchedulerEndpoint(
        storePath: storePath, clock: clock, groupCommits: environment["NOTIFY_SERVICE_SYNC"] != "each",
        present: present)
    } catch {
      Logger(label: "notify.service").notice(
        "no \(SchedulerInterface.name) on the session bus: \(error)")
      return nil
    }
  }
}
