import Foundation
import Notify
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyTestSupport
import NotifyZones
import Testing

/// The APNs bridge, with payloads in the forms Apple documents ("Generating a remote
/// notification", "Payload Key Reference") and malformed ones.
struct APNsPayloadTests {
  struct Accepted: CustomTestStringConvertible, Sendable {
    var name: String
    var payload: String
    var expected: NotificationContent
    var localizedStrings: [String: String] = [:]
    var testDescription: String { name }
  }

  static let accepted: [Accepted] = [
    Accepted(
      name: "string alert, sound and badge (the chat seed)",
      payload: #"{"aps":{"alert":"SteveJ: Hello, world!","sound":"default","badge":1}}"#,
      expected: NotificationContent(body: "SteveJ: Hello, world!", sound: .default, badge: 1)),
    Accepted(
      name: "dictionary alert with title and body",
      payload: #"{"aps":{"alert":{"title":"Game Request","body":"Bob wants to play poker"}}}"#,
      expected: NotificationContent(title: "Game Request", body: "Bob wants to play poker")),
    Accepted(
      name: "subtitle is the body's first line",
      payload: #"{"aps":{"alert":{"title":"Order","subtitle":"Shipped","body":"Arrives Friday"}}}"#,
      expected: NotificationContent(title: "Order", body: "Shipped\nArrives Friday")),
    Accepted(
      name: "action-loc-key and launch-image",
      payload:
        #"{"aps":{"alert":{"body":"Bob wants to play","action-loc-key":"PLAY","launch-image":"poker.png"}}}"#,
      expected: NotificationContent(body: "Bob wants to play", action: "PLAY", launchImage: "poker.png")),
    Accepted(
      name: "action-loc-key looked up in the localized strings",
      payload: #"{"aps":{"alert":{"body":"Bob wants to play","action-loc-key":"PLAY"}}}"#,
      expected: NotificationContent(body: "Bob wants to play", action: "Play now"),
      localizedStrings: ["PLAY": "Play now"]),
    Accepted(
      name: "action wins over action-loc-key",
      payload: #"{"aps":{"alert":{"body":"Hi","action":"Reply","action-loc-key":"PLAY"}}}"#,
      expected: NotificationContent(body: "Hi", action: "Reply")),
    Accepted(
      name: "loc-key with loc-args, key absent from the table (used as the format)",
      payload: #"{"aps":{"alert":{"loc-key":"%@ and %@ invited you","loc-args":["Jenna","Frank"]}}}"#,
      expected: NotificationContent(body: "Jenna and Frank invited you")),
    Accepted(
      name: "loc-key found in the table, positional arguments",
      payload:
        #"{"aps":{"alert":{"title-loc-key":"REQ_T","loc-key":"REQ","loc-args":["Jenna","Frank"]}}}"#,
      expected: NotificationContent(title: "Request", body: "Frank asked Jenna, 100% sure"),
      localizedStrings: ["REQ_T": "Request", "REQ": "%2$@ asked %1$@, 100%% sure"]),
    Accepted(
      name: "title-loc-key with title-loc-args",
      payload: #"{"aps":{"alert":{"title-loc-key":"From %@","title-loc-args":["Bob"],"body":"Hi"}}}"#,
      expected: NotificationContent(title: "From Bob", body: "Hi")),
    Accepted(
      name: "critical-alert sound dictionary",
      payload: #"{"aps":{"alert":"Smoke detected","sound":{"critical":1,"name":"default","volume":1.0}}}"#,
      expected: NotificationContent(body: "Smoke detected", sound: .default, urgency: .critical)),
    Accepted(
      name: "non-critical sound dictionary with a file",
      payload: #"{"aps":{"alert":"Ding","sound":{"critical":0,"name":"bell.caf","volume":0.5}}}"#,
      expected: NotificationContent(body: "Ding", sound: .file("bell.caf"))),
    Accepted(
      name: "sound file name",
      payload: #"{"aps":{"alert":"Ding","sound":"chime.aiff"}}"#,
      expected: NotificationContent(body: "Ding", sound: .file("chime.aiff"))),
    Accepted(
      name: "badge 0 alone clears the badge",
      payload: #"{"aps":{"badge":0}}"#,
      expected: NotificationContent(badge: 0)),
    Accepted(
      name: "extra top-level keys become userInfo",
      payload: #"{"aps":{"alert":"Hi"},"acme1":"bar","acme2":[1,2],"room":{"id":42,"open":true}}"#,
      expected: NotificationContent(
        body: "Hi",
        userInfo: [
          "acme1": .string("bar"), "acme2": .array([.int(1), .int(2)]),
          "room": .object(["id": .int(42), "open": .bool(true)]),
        ])),
    Accepted(
      name: "keys with no local equivalent are ignored",
      payload:
        #"{"aps":{"alert":"Hi","category":"MSG","thread-id":"t1","mutable-content":1,"interruption-level":"active"}}"#,
      expected: NotificationContent(body: "Hi")),
  ]

  @Test(arguments: accepted)
  func readsDocumentedForms(_ example: Accepted) throws {
    // Given a payload in one of Apple's documented forms
    // When it is read
    let content = try NotificationContent(
      apnsPayload: example.payload, localizedStrings: example.localizedStrings)
    // Then it maps onto the local notification's fields
    #expect(content == example.expected)
  }

  @Test func readsBytesAndParsedDictionaries() throws {
    // Given the seed payload as bytes and as a parsed dictionary
    let text = #"{"aps":{"alert":"SteveJ: Hello, world!","sound":"default","badge":1},"sender":"SteveJ"}"#
    guard case .object(let members) = try JSONValue.parse(text) else {
      Issue.record("the payload did not parse as an object")
      return
    }
    // When each is read
    let fromData = try NotificationContent(apnsPayload: Data(text.utf8))
    let fromDictionary = try NotificationContent(apnsDictionary: members)
    // Then both give the same content, with the extra key in userInfo
    #expect(fromData == fromDictionary)
    #expect(fromData.userInfo == ["sender": .string("SteveJ")])
  }

  struct Refused: CustomTestStringConvertible, Sendable {
    var name: String
    var payload: String
    /// Words the message must contain: what is wrong, where.
    var mentions: [String]
    var testDescription: String { name }
  }

  static let refused: [Refused] = [
    Refused(name: "not JSON", payload: #"{"aps":{"alert":"Hi""#, mentions: ["not valid JSON"]),
    Refused(
      name: "top level is an array", payload: #"[{"aps":{}}]"#, mentions: ["an array", "not a JSON object"]),
    Refused(name: "no aps", payload: #"{"alert":"Hi"}"#, mentions: ["no \"aps\""]),
    Refused(name: "aps is a string", payload: #"{"aps":"Hi"}"#, mentions: ["\"aps\" is a string"]),
    Refused(name: "aps is an array", payload: #"{"aps":["Hi"]}"#, mentions: ["\"aps\" is an array"]),
    Refused(
      name: "alert is a number", payload: #"{"aps":{"alert":42}}"#, mentions: ["aps.alert is a number"]),
    Refused(
      name: "alert title is a number", payload: #"{"aps":{"alert":{"title":7}}}"#,
      mentions: ["aps.alert.title"]),
    Refused(
      name: "badge is negative", payload: #"{"aps":{"alert":"Hi","badge":-1}}"#, mentions: ["aps.badge -1"]),
    Refused(
      name: "badge is a string", payload: #"{"aps":{"alert":"Hi","badge":"1"}}"#,
      mentions: ["aps.badge is a string"]),
    Refused(
      name: "badge is a fraction", payload: #"{"aps":{"alert":"Hi","badge":1.5}}"#, mentions: ["aps.badge"]),
    Refused(name: "badge is too large", payload: #"{"aps":{"badge":100000}}"#, mentions: ["out of range"]),
    Refused(
      name: "sound is a number", payload: #"{"aps":{"alert":"Hi","sound":1}}"#,
      mentions: ["aps.sound is a number"]),
    Refused(
      name: "sound dictionary without name", payload: #"{"aps":{"sound":{"critical":1}}}"#,
      mentions: ["without \"name\""]),
    Refused(
      name: "volume out of range", payload: #"{"aps":{"sound":{"name":"default","volume":3}}}"#,
      mentions: ["volume"]),
    Refused(
      name: "loc-args not an array", payload: #"{"aps":{"alert":{"loc-key":"%@","loc-args":"Bob"}}}"#,
      mentions: ["loc-args is a string"]),
    Refused(
      name: "loc-args too short", payload: #"{"aps":{"alert":{"loc-key":"%@ and %@","loc-args":["Bob"]}}}"#,
      mentions: ["argument 2"]),
    Refused(
      name: "unsupported format specifier",
      payload: #"{"aps":{"alert":{"loc-key":"%d new","loc-args":["3"]}}}"#, mentions: ["other than %@"]),
    Refused(
      name: "silent push has nothing to show", payload: #"{"aps":{"content-available":1}}"#,
      mentions: ["no alert, sound or badge"]),
    Refused(
      name: "control character in the body", payload: #"{"aps":{"alert":"a\u0007b"}}"#,
      mentions: ["control character"]),
  ]

  @Test(arguments: refused)
  func refusesMalformedPayloads(_ example: Refused) {
    // Given a malformed payload
    // When it is read
    // Then a data error says what is wrong, where, and what to do
    let error = #expect(throws: NotificationError.self) {
      try NotificationContent(apnsPayload: example.payload)
    }
    guard case .invalidContent? = error else {
      Issue.record("not refused as invalid content: \(String(describing: error))")
      return
    }
    #expect(error?.context.fix != nil)
    for word in example.mentions {
      #expect(
        error?.context.problem.contains(word) == true,
        "\(error?.context.problem ?? "no error") should mention \(word)")
    }
  }

  @Test func refusesOversizedUserInfoByTheRuleAndWordsOfEveryDoor() async throws {
    // Given a payload whose extra keys exceed 4096 bytes
    let big = String(repeating: "x", count: 5000)
    // When it is read
    let refused = #expect(throws: NotificationError.self) {
      try NotificationContent(apnsPayload: #"{"aps":{"alert":"Hi"},"blob":"\#(big)"}"#)
    }
    // Then it is refused by userInfo's rule, with its bound and the payload's size
    guard case .invalidContent(.userInfo?, .tooLarge(let bytes, let limit)?, _)? = refused else {
      Issue.record("not refused as a userInfo too large: \(String(describing: refused))")
      return
    }
    #expect(bytes == 5011)
    #expect(limit == 4096)
    // And in the words a center gives for the same userInfo given as content
    let folder = TemporaryFolder(prefix: "notify-apns")
    let center = try LocalNotificationCenter(
      app: "org.example.Push", storePath: folder.file("notify.db"), sink: .stdout)
    let content = NotificationContent(body: "Hi", userInfo: ["blob": .string(big)])
    do {
      try await center.add(NotificationRequest(content: content, trigger: .after(.seconds(600))))
      Issue.record("the center took a userInfo of \(bytes) bytes")
    } catch {
      #expect(error == refused)
      #expect(
        error.description
          == "userInfo is 5011 bytes of compact JSON: keep it under 4096 bytes; store large data elsewhere and pass a key"
      )
    }
  }

  @Test func refusesASoundNameAsEveryDoorDoes() async throws {
    // Given a payload whose sound is not a plain file name
    // When it is read
    let error = #expect(throws: NotificationError.self) {
      try NotificationContent(apnsPayload: #"{"aps":{"sound":"../../etc/passwd"}}"#)
    }
    // Then it is the sound rule's case and words, as content naming that sound gets from a center
    guard case .soundRejected(let sound?, _)? = error else {
      Issue.record("not refused as a sound: \(String(describing: error))")
      return
    }
    #expect(sound == "../../etc/passwd")
    #expect(error?.context.problem == "sound name '../../etc/passwd' is not a plain file name")
  }

  @Test func aBadgeOutOfRangeNamesTheKeyAndTheBound() {
    let error = #expect(throws: NotificationError.self) {
      try NotificationContent(apnsPayload: #"{"aps":{"badge":100000}}"#)
    }
    guard
      case .invalidContent(.payloadKey("aps.badge")?, .outOfRange(100_000, 0...99_999)?, let context)? = error
    else {
      Issue.record("not refused by the badge's range: \(String(describing: error))")
      return
    }
    #expect(
      context.description
        == "aps.badge 100000 is out of range: use a number from 0 to 99999 (0 clears the badge)")
  }
}
