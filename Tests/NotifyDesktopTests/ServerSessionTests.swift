import Foundation
import NotifyCore
import Testing

@testable import NotifyDesktop

/// What the sink knows of the server, without a bus: replies and signals in, ids taken back out.
@Suite("ServerSession: the server's identity, capabilities and ids")
struct ServerSessionTests {
  let key = DesktopNotificationKey(app: "chat", id: "n1")

  @Test("a shown bubble gives its notification a server id; closing it takes the id back")
  func showAndClose() {
    var session = ServerSession()
    _ = session.answered(by: ":1.7")
    session.showed(makeDelivery(), as: 42)
    #expect(session.serverIDs[key] == 42)
    #expect(session.delivery(shownAs: 42)?.notification.id == "n1")
    let closed = session.closed(42)
    #expect(closed?.delivery.notification.id == "n1")
    #expect(closed?.forgotten == key)
    #expect(session.closed(42) == nil)
    #expect(session.serverIDs.isEmpty)
  }

  @Test("another server answering forgets every id and asks for the capabilities again")
  func serverRestart() {
    var session = ServerSession()
    _ = session.answered(by: ":1.7")
    session.read(capabilities: ["body", "sound"])
    session.showed(makeDelivery(), as: 42)
    #expect(!session.capabilitiesStale)
    // When a new server answers
    let (changed, forgotten) = session.answered(by: ":1.9")
    // Then its ids are gone (reported), and capabilities must be read again
    #expect(changed)
    #expect(forgotten == [key])
    #expect(session.delivery(shownAs: 42) == nil)
    #expect(session.capabilitiesStale)
  }

  @Test("signals count only from the server that answered; losing the name forgets the ids")
  func ownerChanges() {
    var session = ServerSession()
    #expect(!session.isFromServer(":1.7"))
    _ = session.answered(by: ":1.7")
    #expect(session.isFromServer(":1.7"))
    #expect(!session.isFromServer(":1.8"))
    session.showed(makeDelivery(), as: 5)
    // An unrelated owner change is old news
    #expect(session.ownerChanged(from: ":1.3", to: ":1.4").isEmpty)
    #expect(session.owner == ":1.7")
    // Our server goes away
    #expect(session.ownerChanged(from: ":1.7", to: "") == [key])
    #expect(session.owner == nil)
  }
}
