import Foundation
import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones
import Testing

@testable import Notify

/// Who of an app's processes hears a response another connection recorded (`HistoryRelay.hears`).
struct HistoryRelayTests {
  func presence(_ pid: Int32) -> AppPresence {
    AppPresence(app: "chat", owner: FirerIdentity(pid: pid, startTime: 1, bootID: "b"), fires: true)
  }

  func click(by recorder: Int32?) -> HistoryEvent {
    var event = HistoryEvent(at: Date(), app: "chat", notificationID: "n", kind: .activated)
    event.recordedBy = recorder
    return event
  }

  @Test("the daemon's record: only the process online longest hears it")
  func daemonRecorded() {
    let online = [presence(10), presence(20)]
    #expect(HistoryRelay.hears(click(by: 99), online: online, me: 10))
    #expect(!HistoryRelay.hears(click(by: 99), online: online, me: 20))
    #expect(HistoryRelay.hears(click(by: nil), online: online, me: 10))
  }

  @Test("an app process's own record: no other process hears it")
  func appRecorded() {
    let online = [presence(10), presence(20)]
    #expect(!HistoryRelay.hears(click(by: 20), online: online, me: 10))
    #expect(!HistoryRelay.hears(click(by: 10), online: online, me: 20))
  }

  @Test("nobody online: nobody hears it here (the click launches the app)")
  func nobodyOnline() {
    #expect(!HistoryRelay.hears(click(by: 99), online: [], me: 10))
  }
}
