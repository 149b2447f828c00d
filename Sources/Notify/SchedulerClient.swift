import Dispatch
import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound

/// A thin client of notify's service (`io.github.notify.Scheduler1`,
/// docs/dbus.md) for a center inside a Flatpak sandbox (`CenterBackend.service`): each call is
/// one method of the service, its values the library's, its failures `NotificationError`s
/// (`SchedulerClient+Responses.swift`). What it sends is what the service's decoder takes
/// (`SchedulerClient+Requests.swift`, the keys in `SchedulerInterface.Keys`); files
/// (attachments, a sound) go as open descriptors, never paths.
///
/// Its calls run on a serial queue of its own (never on Swift's cooperative pool), which is
/// the one owner of its bus connection: hence `@unchecked Sendable`, safe because
/// `connection` is touched only by jobs on `queue`.
package final class SchedulerClient: @unchecked Sendable {
  /// The app the service acts for: the sandbox's id.
  package let app: String
  /// The bus address (nil: the process's session bus).
  let address: String?
  private let connection: SchedulerConnection
  private let queue: DispatchQueue

  /// Connects to the session bus for `app`.
  package init(app: String, address: String? = nil) throws(NotificationError) {
    self.app = app
    self.address = address
    do {
      connection = try SchedulerConnection(address: address)
    } catch {
      throw Self.error(error)
    }
    queue = DispatchQueue(label: "notify.scheduler-client.\(app)")
    // This client knows the error names of this version: without it the service answers
    // with version 3's. A service before version 4 has no such method and says so: then
    // its names are version 3's anyway.
    _ = try? connection.call("SetClientVersion", [.uint32(SchedulerInterface.version)])
  }

  /// True when the service can be reached on the session bus at `address`: it has an owner
  /// or can be started (`ListActivatableNames`).
  package static func serviceReachable(address: String? = nil) -> Bool {
    (try? SchedulerConnection(address: address, timeout: .seconds(2)))?.serviceReachable() ?? false
  }

  // MARK: Calls

  /// Stores `notification` (its schedule as the trigger keys), with `attachments` sent as
  /// open files; returns the ids the 64 limit discarded to make room.
  @discardableResult
  package func schedule(_ notification: LocalNotification, attaching attachments: [AttachmentSource])
    async throws(NotificationError) -> [String]
  {
    let values = try await call("Schedule") { () throws(NotificationError) in
      let files = try Self.openFiles(attachments, sound: notification.sound, app: notification.app)
      return (
        [
          .string(self.app),
          .array(element: "a{sv}", [Self.request(notification, files: files, trigger: true)]),
        ],
        files.all
      )
    }
    guard values.count == 2, case .array("s", let discarded) = values[1] else { return [] }
    return discarded.compactMap { if case .string(let id) = $0 { id } else { nil } }
  }

  /// Shows `notification` now through the daemon (`Present`); returns its id.
  package func present(_ notification: LocalNotification, attaching attachments: [AttachmentSource])
    async throws(NotificationError)
  {
    _ = try await call("Present") { () throws(NotificationError) in
      let files = try Self.openFiles(attachments, sound: notification.sound, app: notification.app)
      return ([.string(self.app), Self.request(notification, files: files, trigger: false)], files.all)
    }
  }

  /// Cancels these ids; ids not pending are ignored (the others are cancelled anyway).
  package func cancel(_ ids: [String]) async throws(NotificationError) {
    try await ignoringUnknownIDs { () throws(NotificationError) in
      _ = try await self.call("Cancel", [.string(self.app), .strings(ids)])
    }
  }

  /// Cancels all of the app's.
  package func cancelAll() async throws(NotificationError) {
    _ = try await call("CancelAll", [.string(app)])
  }

  /// The app's pending notifications, soonest first.
  package func pending() async throws(NotificationError) -> [StoredNotification] {
    let values = try await call("ListPending", [.string(app)])
    guard case .array(_, let records)? = values.first else { return [] }
    return records.compactMap { Self.stored($0, app: app) }
  }

  /// Takes these ids off the screen; ids not on screen are ignored.
  package func withdraw(_ ids: [String]) async throws(NotificationError) {
    try await ignoringUnknownIDs { () throws(NotificationError) in
      _ = try await self.call("Withdraw", [.string(self.app), .strings(ids)])
    }
  }

  /// The app's badge.
  package func badge() async throws(NotificationError) -> Int {
    guard case .uint32(let count)? = try await call("GetBadge", [.string(app)]).first else { return 0 }
    return Int(count)
  }

  /// Sets the app's badge (0 clears it).
  package func setBadge(_ count: Int) async throws(NotificationError) {
    guard let value = UInt32(exactly: count) else {
      throw NotificationError(
        NotifyError(
          .invalid(.badge, .outOfRange(count, 0...Validator.maxBadge)),
          "the badge \(count) is negative: give 0 (clear) to 99999"))
    }
    _ = try await call("SetBadge", [.string(app), .uint32(value)])
  }

  /// What the user lets the app do now (`GetSettings`).
  package func settings() async throws(NotificationError) -> NotificationSettings {
    let values = try await call("GetSettings", [.string(app)])
    return Self.settings(values.first?.vardictEntries ?? [])
  }

  /// The click that launched the app, taken once (`TakeLaunchResponse`).
  package func takeLaunchResponse() async throws(NotificationError) -> NotificationResponse? {
    let values = try await call("TakeLaunchResponse", [.string(app)])
    guard values.count == 2, case .bool(true) = values[0] else { return nil }
    return Self.response(values[1].vardictEntries ?? [], app: app)
  }

  /// Subscribes to the app's signals on a connection of its own; each becomes an event
  /// for `publish` (on the listener's thread) until the listener stops.
  package func listen(_ publish: @escaping @Sendable (NotificationEvent) -> Void) throws(NotificationError)
    -> SchedulerListener
  {
    let app = self.app
    do {
      return try SchedulerListener(address: address, app: app) { member, values in
        if let event = Self.event(member, values, app: app) { publish(event) }
      }
    } catch {
      throw Self.error(error)
    }
  }

  // MARK: The queue

  /// Calls `member` with `arguments` on the queue; the calling task suspends meanwhile.
  func call(_ member: String, _ arguments: [BusValue]) async throws(NotificationError) -> [BusValue] {
    try await call(member) { () throws(NotificationError) in (arguments, []) }
  }

  /// Calls `member` with the arguments `prepare` makes on the queue (opening files there:
  /// a slow file system blocks no task), and closes the descriptors it opened afterwards.
  private func call(
    _ member: String, _ prepare: @escaping @Sendable () throws(NotificationError) -> ([BusValue], [Int32])
  ) async throws(NotificationError) -> [BusValue] {
    let result: Result<[BusValue], NotificationError> = await withCheckedContinuation { continuation in
      queue.async {
        continuation.resume(
          returning: Result { () throws(NotificationError) -> [BusValue] in
            let (arguments, files) = try prepare()
            defer { for fd in files { close(fd) } }
            do throws(SchedulerCallFailure) {
              return try self.connection.call(member, arguments)
            } catch {
              throw Self.error(error)
            }
          })
      }
    }
    return try result.get()
  }

  private func ignoringUnknownIDs(_ body: () async throws(NotificationError) -> Void)
    async throws(NotificationError)
  {
    do {
      try await body()
    } catch .notFound {
      // The center's API ignores ids that were not pending / not on screen.
    }
  }
}
