import NotifyCore
import NotifyDesktop
import Testing

@testable import Notify
@testable import NotifyService

/// One failure, three answers, each read from its reason through one table: the exit code
/// the command line exits with, the case the library throws, the D-Bus error the service
/// replies with. The words decide none of them.
struct ErrorTablesTests {

  /// Every reason with its exit code, its public case and its D-Bus error (the part after
  /// `io.github.notify.Scheduler1.Error.`, or `Failed`).
  static let table: [(NotifyError.Reason, Int32, String, String)] = [
    (.invalid(.title, .tooLong(characters: 250, limit: 200)), 65, "invalidContent", "InvalidArgs"),
    (.invalid(.rule, .tooLarge(bytes: 9000, limit: 8192)), 65, "invalidContent", "InvalidTrigger"),
    // A name already taken did not take effect (exit 1), and the library keeps the field.
    (.invalid(.calendarName, .taken("work")), 1, "invalidContent", "InvalidArgs"),
    (.soundRefused("ping.wav"), 65, "soundRejected", "SoundRejected"),
    (.limitReached(id: "b65"), 1, "limitReached", "LimitReached"),
    (.notFound(["a", "b"]), 1, "notFound", "UnknownId"),
    (.storeBusy(holder: 42), 75, "storeBusy", "StoreBusy"),
    (.storeBusy(holder: nil), 75, "storeBusy", "StoreBusy"),
    (.storeUnreadable, 74, "storeUnavailable", "StoreUnavailable"),
    (.storeCorrupt, 74, "storeUnavailable", "StoreUnavailable"),
    (.noServer, 69, "serverUnavailable", "ServerUnavailable"),
    (.serverTimedOut(mayHaveShownIt: true), 75, "serverTimedOut", "ServerTimedOut"),
    (.serverTimedOut(mayHaveShownIt: false), 75, "temporary", "Failed"),
    (.notAllowed, 64, "notAllowed", "NotAllowed"),
    (.notAvailableInSandbox, 69, "notAvailable", "Failed"),
    (.inputMissing(path: "/nowhere"), 66, "invalidContent", "InvalidArgs"),
    (.unclassified(.notTakenEffect), 1, "notFound", "UnknownId"),
    (.unclassified(.usage), 64, "invalidContent", "InvalidArgs"),
    (.unclassified(.invalidData), 65, "invalidContent", "InvalidArgs"),
    (.unclassified(.noInput), 66, "invalidContent", "InvalidArgs"),
    (.unclassified(.unavailable), 69, "serverUnavailable", "ServerUnavailable"),
    (.unclassified(.ioError), 74, "storeUnavailable", "StoreUnavailable"),
    (.unclassified(.temporary), 75, "temporary", "Failed"),
  ]

  @Test func everyReasonIsInTheTable() {
    // Given one reason of each case, and every generic one
    // Then the table covers each (a new case must be added to it, and so to the mappings)
    for reason in NotifyError.Reason.examples {
      #expect(Self.table.contains { $0.0 == reason }, "\(reason) is not in the table")
    }
  }

  @Test(arguments: table)
  func eachReasonHasAnExitCodeAPublicCaseAndADBusName(
    reason: NotifyError.Reason, exitCode: Int32, publicCase: String, dbusName: String
  ) {
    // Given an error for the reason, in words that name none of it
    let error = NotifyError(reason, "it failed", fix: "try something")
    // Then each layer reads its answer from the reason
    #expect(error.exitCode == exitCode)
    #expect(NotificationError(error).caseName == publicCase)
    let sent = SchedulerError.from(error)
    #expect(
      sent.name
        == (dbusName == "Failed"
          ? "org.freedesktop.DBus.Error.Failed" : SchedulerInterface.errorPrefix + dbusName))
    // And the words travel unread
    #expect(NotificationError(error).description == "it failed: try something")
    #expect(sent.description == "it failed: try something")
  }

  @Test(arguments: table)
  func aFailureThroughTheServiceIsTheCaseItIsInProcess(
    reason: NotifyError.Reason, exitCode: Int32, publicCase: String, dbusName: String
  ) {
    // Given the failure as the service replies with it
    let error = NotifyError(reason, "it failed")
    let sent = SchedulerError.from(error)
    let received = SchedulerClient.error(
      SchedulerCallFailure(errorName: sent.name, message: sent.description, isTimeout: false))
    // Then an app inside a sandbox gets the case an app outside gets (the service never
    // sends what has no equivalent through it: the calls that throw `notAvailable` are
    // refused by the client itself)
    if reason != .notAvailableInSandbox {
      #expect(received.caseName == publicCase)
    }
    #expect(received.description == "it failed")
  }

  @Test func theInterfaceDeclaresEveryNameTheTableSends() {
    // Every name the service may send is in the introspection data's Errors annotation
    // (SchedulerInterfaceTests checks the annotation against the Swift copy)
    let declared = Set(SchedulerInterface.ErrorName.allCases.map(\.rawValue))
    for (_, _, _, name) in Self.table where name != "Failed" {
      #expect(declared.contains(name), "\(name) is not declared")
    }
  }

  // The classifications the words once made, each now read from the reason: each case
  // below has words that would have led the old text matching astray.

  @Test func aSoundErrorWhoseWordsDoNotSaySoundIsASoundError() {
    // Given a sound file refused, in words without the word "sound"
    let error = NotifyError(.soundRefused("/tmp/x.wav"), "'/tmp/x.wav' is not a WAV file", fix: "convert it")
    // Then the library and the service both say the sound was rejected
    guard case .soundRejected(let sound, _) = NotificationError(error) else {
      Issue.record("not soundRejected: \(NotificationError(error))")
      return
    }
    #expect(sound == "/tmp/x.wav")
    #expect(SchedulerError.from(error) == .soundRejected("'/tmp/x.wav' is not a WAV file: convert it"))
  }

  @Test func aFieldErrorThatMentionsASoundIsNotASoundError() {
    // Given an invalid title that mentions a sound
    let error = NotifyError(
      .invalid(.title, .tooLong(characters: 300, limit: 200)), "the sound of title is long")
    // Then it is invalid content naming the field, and InvalidArgs over the bus
    guard case .invalidContent(let field, let violation, _) = NotificationError(error) else {
      Issue.record("not invalidContent: \(NotificationError(error))")
      return
    }
    #expect(field == .title)
    #expect(violation == .tooLong(characters: 300, limit: 200))
    #expect(SchedulerError.from(error).name == SchedulerInterface.errorPrefix + "InvalidArgs")
  }

  @Test func aBusyStoreWhoseWordsDoNotSayBusyIsStoreBusy() {
    // Given the store held by another process, told without "busy" or "locked"
    let error = NotifyError(.storeBusy(holder: 4242), "process 4242 held the store for 5 s")
    // Then it is storeBusy with the holder, and StoreBusy over the bus
    #expect(
      NotificationError(error)
        == .storeBusy(holder: 4242, .init(problem: "process 4242 held the store for 5 s")))
    #expect(SchedulerError.from(error) == .storeBusy("process 4242 held the store for 5 s"))
  }

  @Test func aTemporaryFailureThatSaysBusyIsNotStoreBusy() {
    // Given a slow notification server whose words say "busy"
    let error = NotifyError(.serverTimedOut(mayHaveShownIt: false), "the notification server is busy")
    // Then it is a temporary failure, not the store's
    #expect(NotificationError(error).caseName == "temporary")
  }

  @Test func aServerFailureThroughTheServiceIsToldByItsNameNotItsWords() {
    // Given the service's reply for no notification server, in words that do not say so
    let server = SchedulerError.from(NotifyError(.noServer, "nobody answers on the session bus"))
    let store = SchedulerError.from(NotifyError(.storeUnreadable, "the notification server's store failed"))
    func received(_ sent: SchedulerError) -> NotificationError {
      SchedulerClient.error(
        SchedulerCallFailure(errorName: sent.name, message: sent.description, isTimeout: false))
    }
    // Then the app gets serverUnavailable for the one and storeUnavailable for the other
    #expect(received(server).caseName == "serverUnavailable")
    #expect(received(store).caseName == "storeUnavailable")
  }

  @Test func theFlagsTheFirerReadsComeFromTheReason() {
    // A timed-out Notify may have shown it; a damaged store never heals: both read from
    // the reason, whatever the words
    #expect(NotifyError(.serverTimedOut(mayHaveShownIt: true), "slow").mayHaveBeenShown)
    #expect(!NotifyError(.serverTimedOut(mayHaveShownIt: false), "it may still show it").mayHaveBeenShown)
    #expect(NotifyError(.storeCorrupt, "x").isCorruptStore)
    #expect(!NotifyError(.storeUnreadable, "the store is corrupt").isCorruptStore)
  }
}
