import Foundation
import NotifyTestSupport
import Testing

/// The scheduler on a real bus: a private dbus-daemon, `notify daemon` started by the
/// test, `gdbus` and the Python client as callers, the `notify` command on the same store.
@Suite(
  .ownThreads,
  .needsSchedulerBus
)
struct SchedulerBusTests {
  @Test func aBatchIsListedByTheCommandAndCancelled() throws {
    // Given the daemon on a bus
    let bus = try SchedulerBus()
    try bus.startDaemon()
    // When a batch of two is scheduled: an absolute instant in ms, a wall clock with a zone
    let scheduled = try bus.gdbus(
      "Schedule", "org.example.Batch",
      "[{'id': <'flight'>, 'title': <'Flight'>, 'at': <int64 4102444800000>}, {'id': <'standup'>, 'body': <'Standup'>, 'at': <'09:00'>, 'timeZone': <'Europe/Berlin'>, 'repeat': <'day'>}]"
    )
    // Then it answers with the ids, the command lists them, and so does ListPending
    #expect(
      scheduled.stdout.contains("(['flight', 'standup'], @as [])"), "\(scheduled.stdout)\(scheduled.stderr)")
    #expect(try bus.pendingIDs(app: "org.example.Batch").sorted() == ["flight", "standup"])
    let listed = try bus.gdbus("ListPending", "org.example.Batch")
    #expect(listed.stdout.contains("'fireDate': <'2100-01-01T00:00:00Z'>"), "\(listed.stdout)")
    #expect(listed.stdout.contains("'timeZone': <'Europe/Berlin'>"))
    // When one is cancelled, the other stays
    let cancelled = try bus.gdbus("Cancel", "org.example.Batch", "['flight']")
    #expect(cancelled.status == 0, "\(cancelled.stderr)")
    #expect(try bus.pendingIDs(app: "org.example.Batch") == ["standup"])
    // And an id that is not pending is the named error, with the CLI's words
    let unknown = try bus.gdbus("Cancel", "org.example.Batch", "['flight']")
    #expect(unknown.stderr.contains("io.github.notify.Scheduler1.Error.UnknownId"), "\(unknown.stderr)")
    #expect(unknown.stderr.contains("not pending in app 'org.example.Batch'"))
  }

  @Test func richKeysAndAttachmentsAsDescriptorsAreStoredAsTheCommandStoresThem() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    // Given an image (by its bytes) and a text file named like one
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<200).map { UInt8($0 % 251) }
    let image = bus.folder.file("cat.png")
    try Data(png).write(to: URL(fileURLWithPath: image))
    let fake = bus.folder.file("notes.png")
    try Data("just text".utf8).write(to: URL(fileURLWithPath: fake))
    // When a client schedules with subtitle, level, thread, markup and the image as a descriptor
    let answer = try bus.python("rich", "org.example.Rich", "r1", image)
    #expect(answer["result"] != nil, "\(answer)")
    // Then the command lists it with every key, and a copy of the image in the store's folder
    let listed = try bus.notify("list", "--json", "--app", "org.example.Rich").stdout
    let items = try #require(
      try JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]], "\(listed)")
    let item = try #require(items.first)
    #expect(item["subtitle"] as? String == "the subtitle")
    #expect(item["interruptionLevel"] as? String == "timeSensitive")
    #expect(item["threadIdentifier"] as? String == "t1")
    #expect(item["bodyMarkup"] as? Bool == true)
    let attachments = item["attachments"] as? [[String: Any]] ?? []
    #expect(attachments.count == 1 && attachments.first?["type"] as? String == "image/png", "\(item)")
    let copy = try #require(attachments.first?["file"] as? String)
    #expect(copy.hasPrefix(bus.folder.path) && copy != image)
    #expect(FileManager.default.contents(atPath: copy) == Data(png))
    // When the text file is attached: the named error, and the store as it was
    let refused = try bus.python("rich", "org.example.Rich", "r2", fake)
    #expect(refused["error"] as? String == "io.github.notify.Scheduler1.Error.InvalidArgs", "\(refused)")
    #expect(
      (refused["message"] as? String ?? "").contains("attachment 1 is not a PNG, JPEG, GIF or WebP image"))
    #expect(try bus.notify("list", "--json", "--app", "org.example.Rich").stdout == listed)
  }

  @Test func aSoundGivenAsADescriptorIsInstalledForTheApp() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    // Given a valid WAV and a text file, each to be sent as an open file
    let wav = bus.folder.file("ping.wav")
    try TestWAV.pcm16().write(to: URL(fileURLWithPath: wav))
    let text = bus.folder.file("notes.wav")
    try Data("not a sound".utf8).write(to: URL(fileURLWithPath: text))
    // When a client schedules with sound "ping.wav" given as the WAV
    let answer = try bus.python("sound-file", "org.example.Sound", "s1", "ping.wav", wav)
    #expect(answer["result"] != nil, "\(answer)")
    // Then the sound is installed in the app's sound folder, 0600, and the notification uses it
    let installed = bus.folder.file("data/notify/sounds/org.example.Sound/ping.wav")
    #expect(FileManager.default.contents(atPath: installed) == FileManager.default.contents(atPath: wav))
    let mode = (try? FileManager.default.attributesOfItem(atPath: installed)[.posixPermissions] as? Int) ?? 0
    #expect(mode == 0o600)
    #expect(
      try bus.notify("list", "--json", "--app", "org.example.Sound").stdout.contains("\"sound\":\"ping.wav\"")
    )
    // When the text file is sent as a sound: the named error, nothing installed, nothing stored
    let refused = try bus.python("sound-file", "org.example.Sound", "s2", "bad.wav", text)
    #expect(refused["error"] as? String == "io.github.notify.Scheduler1.Error.InvalidArgs", "\(refused)")
    #expect(
      (refused["message"] as? String ?? "").contains("the sound file given for 'bad.wav'"), "\(refused)")
    #expect(
      !FileManager.default.fileExists(atPath: bus.folder.file("data/notify/sounds/org.example.Sound/bad.wav"))
    )
    #expect(try bus.pendingIDs(app: "org.example.Sound") == ["s1"])
  }

  @Test func aClientThatNeverReadsItsSignalsHoldsUpNoOtherApp() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    // Given a client of one app subscribed to its signals, then stopped: it never reads again
    let stalled = try bus.listen(app: "org.example.Stalled", record: bus.folder.file("stalled.record"))
    kill(stalled, SIGSTOP)
    defer { kill(stalled, SIGCONT) }
    // And a notification of another app due in 3 s
    let due = Int64((Date().timeIntervalSince1970 + 3) * 1000)
    let scheduled = try bus.gdbus(
      "Schedule", "org.example.Other", "[{'id': <'on-time'>, 'title': <'B'>, 'at': <int64 \(due)>}]")
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    // When the stalled app presents 500 notifications: 500 Delivered signals to a
    // connection that reads none (the bus keeps them for it, within its limits)
    let flood = try bus.python("present-many", "org.example.Stalled", "500", timeout: 600)
    #expect(flood["result"] as? Int == 500, "\(flood)")
    // Then the other app's notification was delivered, and the daemon answers every call
    let delivered = waitUntil(timeout: 60) { text(bus.folder.file("daemon.out")).contains("\"on-time\"") }
    #expect(delivered, "\(text(bus.folder.file("daemon.err")))")
    #expect(bus.answers())
    #expect(try bus.pendingIDs(app: "org.example.Other").isEmpty)
    // And every one of the 500 was delivered and recorded once
    let history = try bus.notify("history", "--json", "--app", "org.example.Stalled", "--limit", "1000")
      .stdout
    #expect(history.components(separatedBy: "\"event\":\"delivered\"").count - 1 == 500)
  }

  @Test func theLimitNamesTheDiscardedIds() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    // When a batch of 65 is scheduled (b65 fires last)
    let answer = try bus.python("batch", "org.example.Limit", "65")
    // Then the limit error names b65, and 64 stay pending
    #expect(answer["error"] as? String == "io.github.notify.Scheduler1.Error.LimitReached", "\(answer)")
    let message = answer["message"] as? String ?? ""
    #expect(message.contains("not scheduled: 'b65'"), "\(message)")
    #expect(message.hasSuffix("discarded: b65"), "\(message)")
    let pending = try bus.pendingIDs(app: "org.example.Limit")
    #expect(pending.count == 64 && !pending.contains("b65"))
    // When one sooner than all comes, it evicts the latest, which the reply names
    let sooner = try bus.gdbus(
      "Schedule", "org.example.Limit", "[{'id': <'early'>, 'body': <'e'>, 'in': <'30m'>}]")
    #expect(sooner.stdout.contains("(['early'], ['b64'])"), "\(sooner.stdout)\(sooner.stderr)")
    let history = try bus.notify("history", "--json", "--app", "org.example.Limit").stdout
    #expect(history.contains("\"b64\"") && history.contains("pending-limit"))
  }

  @Test func badInputIsANamedErrorAndTheStoreStaysAsItWas() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    _ = try bus.python("batch", "org.example.Bad", "2")
    let before = try bus.notify("list", "--json", "--app", "org.example.Bad").stdout
    #expect(try bus.pendingIDs(app: "org.example.Bad") == ["b1", "b2"])
    // Wrong signature, unknown key, a 10 MB string, 100,000 requests, a bad trigger
    let wrong = try bus.python("wrong-signature", "org.example.Bad")
    #expect(wrong["error"] as? String == "io.github.notify.Scheduler1.Error.InvalidArgs", "\(wrong)")
    #expect((wrong["message"] as? String ?? "").contains("Schedule takes (saa{sv}), not (s)"))
    let unknown = try bus.gdbus(
      "Schedule", "org.example.Bad",
      "[{'body': <'b'>, 'in': <'1h'>}, {'body': <'b'>, 'in': <'1h'>, 'colour': <'red'>}]")
    #expect(
      unknown.stderr.contains("Error.InvalidArgs: request 2 of 2: unknown key 'colour'"), "\(unknown.stderr)")
    let huge = try bus.python("huge", "org.example.Bad", String(10 * 1024 * 1024))
    #expect(huge["error"] as? String == "io.github.notify.Scheduler1.Error.InvalidArgs", "\(huge)")
    #expect((huge["message"] as? String ?? "").contains("a string of more than 65536 bytes"))
    let many = try bus.python("batch", "org.example.Bad", "100000")
    #expect(many["error"] as? String == "io.github.notify.Scheduler1.Error.InvalidArgs", "\(many)")
    #expect((many["message"] as? String ?? "").contains("an array of more than 1000 items"))
    let trigger = try bus.gdbus(
      "Schedule", "org.example.Bad", "[{'body': <'b'>, 'in': <'1h'>, 'repeat': <'fortnight'>}]")
    #expect(
      trigger.stderr.contains("Error.InvalidTrigger: unknown repeat unit 'fortnight'"), "\(trigger.stderr)")
    let noApp = try bus.gdbus("ListPending", "")
    #expect(noApp.stderr.contains("Error.InvalidArgs: the app id is empty"), "\(noApp.stderr)")
    // Then the store is as it was, and the daemon still answers
    #expect(try bus.notify("list", "--json", "--app", "org.example.Bad").stdout == before)
    #expect(bus.answers())
  }

  @Test func signalsReachTheAppsConnectionsOnly() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    // Given a client of app A and one of app B, each subscribed to its own app
    let recordA = bus.folder.file("a.record")
    let recordB = bus.folder.file("b.record")
    try bus.listen(app: "org.example.A", record: recordA)
    try bus.listen(app: "org.example.B", record: recordB)
    // When each app presents a notification
    #expect(try bus.python("present", "org.example.A", "for-a")["result"] != nil)
    #expect(try bus.python("present", "org.example.B", "for-b")["result"] != nil)
    // Then each client hears Delivered for its own, with the userInfo, and nothing of the other's
    let heard = waitUntil(timeout: 30) {
      text(recordA).contains("\"for-a\"") && text(recordB).contains("\"for-b\"")
    }
    #expect(
      heard,
      "A heard: \(text(recordA)) B heard: \(text(recordB)) daemon: \(text(bus.folder.file("daemon.err")))")
    #expect(text(recordA).contains("\"Delivered\"") && text(recordA).contains("\"room\": \"4B\""))
    #expect(!text(recordA).contains("for-b"))
    #expect(!text(recordB).contains("for-a"))
  }

  @Test func eachDeliveryIsHeardOnceWhoeverDeliveredIt() throws {
    let bus = try SchedulerBus()
    try bus.startDaemon()
    // Given a client subscribed to app C
    let record = bus.folder.file("c.record")
    try bus.listen(app: "org.example.C", record: record)
    // When the daemon fires one the CLI scheduled (handed to the service as it is handed
    // over), and another process shows one at once (read from history)
    let scheduled = try bus.notify(
      "schedule", "--app", "org.example.C", "--in", "1s", "--title", "t", "--id", "fired")
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    let shown = try bus.notify(
      "now", "--app", "org.example.C", "--title", "t", "--id", "shown", "--sink", "stdout")
    #expect(shown.status == 0, "\(shown.stderr)")
    let heard = waitUntil(timeout: 30) {
      text(record).contains("\"fired\"") && text(record).contains("\"shown\"")
    }
    #expect(heard, "heard: \(text(record)) daemon: \(text(bus.folder.file("daemon.err")))")
    // And one more is fired after the records of both are in history (read by the service
    // since: a later commit of another process has it read what history gained)
    _ = try bus.notify("schedule", "--app", "org.example.C", "--in", "1s", "--title", "t", "--id", "last")
    #expect(waitUntil(timeout: 30) { text(record).contains("\"last\"") }, "heard: \(text(record))")
    // Then each delivery was heard once
    let delivered = text(record).split(separator: "\n").filter { $0.contains("\"Delivered\"") }
    for id in ["fired", "shown", "last"] {
      #expect(delivered.filter { $0.contains("\"\(id)\"") }.count == 1, "\(delivered)")
    }
  }

  @Test func aCallStartsTheDaemonByActivation() throws {
    // Given the activation file in the bus's service folder, naming the built notify, and no daemon
    let bus = try SchedulerBus()
    let file = """
      [D-BUS Service]
      Name=io.github.notify.Scheduler1
      Exec=/usr/bin/env NOTIFY_SCHEDULER=on \(CommandRunner.product("notify")) daemon --sink stdout --db \(bus.folder.file("notify.db"))
      SystemdService=notify.service
      """
    try file.write(
      toFile: bus.services + "/io.github.notify.Scheduler1.service", atomically: true, encoding: .utf8)
    // When a client calls the scheduler (again, when a loaded machine took the daemon past
    // the bus's 10 s start timeout: nothing here starts it but the bus)
    var answer = try bus.gdbus("GetBadge", "org.example.Activated")
    _ = waitUntil(timeout: 90, interval: 0.5) {
      if answer.stdout.contains("(uint32 0,)") { return true }
      answer = (try? bus.gdbus("GetBadge", "org.example.Activated")) ?? answer
      return false
    }
    // Then the bus started the daemon, which answered
    #expect(answer.stdout.contains("(uint32 0,)"), "\(answer.stdout)\(answer.stderr)")
    let scheduled = try bus.gdbus(
      "Schedule", "org.example.Activated", "[{'id': <'later'>, 'body': <'b'>, 'in': <'1h'>}]")
    #expect(scheduled.status == 0, "\(scheduled.stderr)")
    #expect(try bus.pendingIDs(app: "org.example.Activated") == ["later"])
  }

  @Test func aClickReachesTheAppAsActivated() throws {
    // Given the daemon delivering to a notification server, and clients of apps A and B
    let bus = try SchedulerBus(withServer: true)
    try bus.startDaemon(sink: "desktop")
    let recordA = bus.folder.file("a.record")
    let recordB = bus.folder.file("b.record")
    try bus.listen(app: "org.example.A", record: recordA)
    try bus.listen(app: "org.example.B", record: recordB)
    // When A presents a notification with a button, and the user clicks the button
    let presented = try bus.gdbus(
      "Present", "org.example.A",
      "{'id': <'lunch'>, 'title': <'Lunch?'>, 'actions': <[{'key': <'yes'>, 'title': <'Yes'>}]>, 'userInfo': <{'room': <'4B'>}>}"
    )
    #expect(presented.stdout.contains("('lunch',)"), "\(presented.stdout)\(presented.stderr)")
    var shown: [String: Any]?
    _ = waitUntil(timeout: 30) {
      shown = ScriptedDesktop.lines(bus.desktop.record).first { $0["call"] as? String == "Notify" }
      return shown != nil
    }
    let id = try #require(shown?["id"] as? Int, "nothing was shown: \(text(bus.folder.file("daemon.err")))")
    try bus.desktop.drive("Click", "\(id)", "yes", "token-1")
    // Then A hears Activated with the button's key and the userInfo; B hears nothing of it
    let heard = waitUntil(timeout: 30) { text(recordA).contains("\"Activated\"") }
    #expect(heard, "A heard: \(text(recordA)) daemon: \(text(bus.folder.file("daemon.err")))")
    let activated = ScriptedDesktop.lines(recordA).first { $0["member"] as? String == "Activated" }
    let arguments = activated?["args"] as? [Any] ?? []
    #expect(arguments.count == 3 && arguments[1] as? String == "lunch")
    let details = arguments.last as? [String: Any] ?? [:]
    #expect(details["action"] as? String == "yes")
    #expect(details["activationToken"] as? String == "token-1", "\(details)")
    #expect((details["userInfo"] as? [String: Any])?["room"] as? String == "4B")
    #expect(!text(recordB).contains("lunch"))
  }

  @Test func withdrawTakesItOffTheScreenAndTheAppHearsDismissed() throws {
    // Given a notification of app A on the server, and A's client listening
    let bus = try SchedulerBus(withServer: true)
    try bus.startDaemon(sink: "desktop")
    let record = bus.folder.file("a.record")
    try bus.listen(app: "org.example.A", record: record)
    _ = try bus.gdbus("Present", "org.example.A", "{'id': <'w1'>, 'title': <'Soon gone'>}")
    let shown = waitUntil(timeout: 30) {
      ScriptedDesktop.lines(bus.desktop.record).contains { $0["call"] as? String == "Notify" }
    }
    #expect(shown, "nothing was shown: \(text(bus.folder.file("daemon.err")))")
    // When A withdraws it
    let withdrawn = try bus.gdbus("Withdraw", "org.example.A", "['w1']")
    #expect(withdrawn.status == 0, "\(withdrawn.stderr)")
    // Then the server was asked to close it, and A hears Dismissed, reason 3 (closed by a call)
    #expect(
      ScriptedDesktop.lines(bus.desktop.record).contains { $0["call"] as? String == "CloseNotification" })
    let heard = waitUntil(timeout: 30) {
      ScriptedDesktop.lines(record).contains { $0["member"] as? String == "Dismissed" }
    }
    #expect(heard, "A heard: \(text(record))")
    let dismissed = ScriptedDesktop.lines(record).first { $0["member"] as? String == "Dismissed" }
    let arguments = dismissed?["args"] as? [Any] ?? []
    #expect(arguments.count == 4 && arguments[1] as? String == "w1" && arguments[2] as? Int == 3)
    // And withdrawing it again names it as not on screen
    let again = try bus.gdbus("Withdraw", "org.example.A", "['w1']")
    #expect(again.stderr.contains("Error.UnknownId: not dismissed: 'w1'"), "\(again.stderr)")
  }
}
