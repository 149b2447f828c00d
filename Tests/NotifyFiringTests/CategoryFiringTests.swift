import Foundation
import NotifyCore
import NotifyFiring
import NotifyStore
import NotifyTestSupport
import Testing

/// Categories on a real store, through the one hand-off path: a notification
/// naming a category is shown with the category's buttons as they are at its delivery,
/// whether it fires, is presented now or comes out of quiet hours.
@Suite("Categories: looked up at delivery, for every hand-off", .ownThreads)
struct CategoryHandOffTests {
  let now = Date(timeIntervalSince1970: 1_800_000_000)
  let me = FirerIdentity.current
  static let message = NotificationCategory(
    identifier: "message",
    actions: [.textInput(key: "reply", title: "Reply"), .button(key: "read", title: "Read")])
  static let changed = NotificationCategory(
    identifier: "message", actions: [.button(key: "archive", title: "Archive", destructive: true)])

  func notification(_ id: String, at date: Date, category: String?, repeat unit: RepeatInterval? = nil)
    -> LocalNotification
  {
    LocalNotification(
      id: id, app: "chat", schedule: Schedule(fireDate: .instant(date), repeatInterval: unit),
      title: "title \(id)", body: "b", categoryIdentifier: category, createdAt: date)
  }

  @Test("the claim reads the categories of the apps whose claims name one, and only those")
  func claimReadsCategories() throws {
    // Given chat's category and two due notifications: chat's names it, mail's names none
    let f = try FiringFixture()
    try f.store.setCategory(Self.message, app: "chat")
    try f.store.setCategory(NotificationCategory(identifier: "unused"), app: "mail")
    try f.store.schedule(notification("a", at: now - 1, category: "message"), zones: testZones(f.utc))
    try f.schedule("b", at: now - 1, app: "mail")
    // When they are claimed
    let batch = try f.store.claimBatch(
      now: now, zones: testZones(f.utc), owner: me, misfireGrace: nil, limit: 64)
    // Then the batch carries chat's categories, and mail's were not read
    #expect(batch.categories?["chat"] == [Self.message])
    #expect(batch.categories?["mail"] == nil)
    // And the claimed notification still names its category, with no buttons of its own
    let claimed = try #require(batch.claims.first { $0.notification.id == "a" })
    #expect(claimed.notification.categoryIdentifier == "message" && claimed.notification.actions.isEmpty)
  }

  @Test("fired: each occurrence gets the buttons the category has then; history keeps them")
  func firedOccurrencesFollowTheCategory() throws {
    // Given a notification every minute naming "message", and "message" with Reply and Read
    let f = try FiringFixture()
    try f.store.setCategory(Self.message, app: "chat")
    try f.store.schedule(
      notification("m", at: now - 1, category: "message", repeat: .minute), zones: testZones(f.utc))
    let sink = RecordingSink()
    let clock = ManualClock(now: now)
    let firer = Firer(store: f.store, sink: sink, identity: me, clock: clock, sounds: UncheckedSounds())
    // When the first occurrence fires
    #expect(try firer.fireBatch().delivered == 1)
    // Then it is shown with the category's buttons
    #expect(sink.deliveries.last?.notification.actions.map(\.key) == ["reply", "read"])
    // When the category changes, and the next occurrence fires
    try f.store.setCategory(Self.changed, app: "chat")
    clock.advance(by: 60)
    #expect(try firer.fireBatch().delivered == 1)
    // Then that one has the new button, and the first delivery's record keeps the old ones
    #expect(sink.deliveries.map { $0.notification.actions.map(\.key) } == [["reply", "read"], ["archive"]])
    let recorded = try f.events(.delivered).map { NotificationAction.list(fromJSON: $0.detail["actions"]) }
    #expect(recorded.map { $0.map(\.key) } == [["reply", "read"], ["archive"]])
    // And the stored notification still names its category and has no buttons of its own
    let pending = try #require(try f.store.pending(app: "chat").first)
    #expect(pending.notification.categoryIdentifier == "message" && pending.notification.actions.isEmpty)
  }

  @Test("an unknown category: shown without buttons, noted in history, not failed")
  func unknownCategory() throws {
    let f = try FiringFixture()
    try f.store.schedule(notification("u", at: now - 1, category: "nope"), zones: testZones(f.utc))
    let sink = RecordingSink()
    let firer = Firer(
      store: f.store, sink: sink, identity: me, clock: ManualClock(now: now), sounds: UncheckedSounds())
    #expect(try firer.fireBatch().delivered == 1)
    #expect(sink.deliveries.first?.notification.actions == [])
    let event = try #require(try f.events(.delivered).first)
    #expect(event.detail["categoryIdentifier"] == .string("nope"))
    guard case .string(let note)? = event.detail["categoryNote"] else {
      Issue.record("no categoryNote: \(event.detail)")
      return
    }
    #expect(note.contains("'nope' is not registered for app 'chat'"))
    #expect(try f.events(.failed).isEmpty)
  }

  @Test("presented now (notify now, an app's present): the category's buttons")
  func presented() throws {
    let f = try FiringFixture()
    try f.store.setCategory(Self.message, app: "chat")
    let sink = RecordingSink()
    let firer = Firer(
      store: f.store, sink: sink, identity: me, clock: ManualClock(now: now), sounds: UncheckedSounds())
    let delivery = try firer.present(notification("p", at: now, category: "message"))
    #expect(delivery.notification.actions.map(\.key) == ["reply", "read"])
    #expect(sink.deliveries.first?.notification.actions.map(\.key) == ["reply", "read"])
  }

  @Test("held for quiet hours, then the category changed: the release shows the new buttons")
  func releasedFromQuietHours() throws {
    // Given an occurrence naming "message" held for quiet hours, kept with no buttons
    let f = try FiringFixture()
    try f.store.setCategory(Self.message, app: "chat")
    var held = Delivery(
      notification: notification("q", at: now, category: "message"), occurrence: 1, fireDate: now,
      deliveredAt: now, late: false)
    held.held = true
    try f.store.recordHeld(held)
    // When the category changes while it is held, and a firer wakes with quiet hours off
    try f.store.setCategory(Self.changed, app: "chat")
    let sink = RecordingSink()
    let firer = Firer(
      store: f.store, sink: sink, identity: me, clock: ManualClock(now: now + 60), sounds: UncheckedSounds())
    _ = try firer.wake()
    // Then it is shown with the category as it is now
    #expect(sink.deliveries.map(\.notification.id) == ["q"])
    #expect(sink.deliveries.first?.notification.actions.map(\.key) == ["archive"])
  }
}

/// The same end to end through the `notify` command, for the daemon, `fire-due` and an app
/// firing in process: `notify category set`, `notify schedule --category`, and the stdout
/// sink's lines.
@Suite(.ownThreads)
struct CategoryStdoutTests {
  /// The action keys of the delivery line of `id`, if printed.
  static func keys(_ printed: [Delivered], id: String) -> [String]? {
    guard let line = printed.first(where: { $0.id == id })?.line,
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let actions = object["actions"] as? [[String: Any]]
    else { return nil }
    return actions.compactMap { $0["key"] as? String }
  }

  @Test(
    "schedule with a category, change it: the next delivery prints the new buttons",
    arguments: StdoutFirer.allCases)
  func nextDeliveryUsesTheNewButtons(firer: StdoutFirer) throws {
    // Given app test's category "message" with a reply and a button
    let f = try FiringFixture()
    let set = try notify(
      [
        "category", "set", "--app", "test", "message", "--text-button", "reply:Reply", "--button",
        "read:Mark read",
      ],
      db: f.path)
    #expect(set.status == 0, "\(set.stderr)")
    let run = try StdoutFiring(f, firer)
    func fire(_ id: String) throws {
      let scheduled = try notify(
        ["schedule", "--app", "test", "--id", id, "--in", "1s", "--category", "message", "--title", id],
        db: f.path)
      #expect(scheduled.status == 0 && scheduled.stderr.isEmpty, "\(scheduled.stderr)")
      // A resident firer acts by itself; fire-due is run until the notification is due.
      let printed = waitUntil(timeout: 10, interval: 0.2) {
        try? run.act()
        return Self.keys(run.printed, id: id) != nil
      }
      #expect(printed, "\(run.log)")
    }
    // When one fires
    try fire("first")
    // Then its line has the category's buttons and names the category
    #expect(Self.keys(run.printed, id: "first") == ["read", "reply"])
    #expect(run.printed.first?.line.contains(#""categoryIdentifier":"message""#) == true)
    // When the category is changed and the next one fires
    let change = try notify(
      ["category", "set", "--app", "test", "message", "--button", "archive:Archive:destructive"], db: f.path)
    #expect(change.status == 0, "\(change.stderr)")
    try fire("second")
    // Then it has the new button
    #expect(Self.keys(run.printed, id: "second") == ["archive"])
    run.settle()
  }
}

/// On the desktop: the Notify call's actions are the category's, for the daemon and an app
/// firing in process, against a scripted notification server that records every call.
@Suite(
  .serialized, .enabled(if: ActivationTools.missing == nil, "needs dbus, gdbus and python3-gi"), .ownThreads)
struct CategoryDesktopTests {
  @Test("the server is sent the category's buttons", arguments: FiringDriver.allCases)
  func notifyCallCarriesTheCategory(driver: FiringDriver) throws {
    // Given a server with actions, and app test's category "message"
    let f = try FiringFixture()
    let desktop = try ScriptedDesktop(
      in: f.folder, services: f.folder.file("services"), capabilities: "body,actions")
    try f.store.setCategory(
      NotificationCategory(
        identifier: "message",
        actions: [.button(key: "read", title: "Mark read"), .button(key: "archive", title: "Archive")]),
      app: "test")
    let firer = try ChildProcess.firer(
      driver, db: f.path, folder: f.folder, name: "d", sink: "desktop", environment: desktop.bus)
    #expect(firer.waitReady(), "\(firer.stderr)")
    // When a notification naming it comes due
    let n = LocalNotification(
      id: "c", app: "test", schedule: Schedule(fireDate: .instant(Date() + 0.3)), title: "title c",
      body: "b", categoryIdentifier: "message", createdAt: Date())
    try f.store.schedule(n, zones: testZones(f.utc))
    // Then the Notify call carries the category's keys and labels, after the default action
    func actions() -> [String]? {
      desktop.calls.first { $0["call"] as? String == "Notify" && $0["summary"] as? String == "title c" }?[
        "actions"] as? [String]
    }
    #expect(waitUntil(timeout: 10) { actions() != nil }, "\(firer.stderr)")
    let sent = try #require(actions())
    let pairs = stride(from: 0, to: sent.count - 1, by: 2).map { sent[$0] + "=" + sent[$0 + 1] }
    #expect(pairs.filter { !$0.hasPrefix("default=") } == ["read=Mark read", "archive=Archive"], "\(sent)")
    #expect(waitUntil(timeout: 10) { (try? f.events(.delivered).count) == 1 })
    firer.send(SIGTERM)
    #expect(firer.waitExit() == 0)
  }
}
