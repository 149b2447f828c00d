import Testing

@testable import NotifyCore

@Suite("notify status: what is wrong, decided from the facts")
struct DiagnosisTests {
  let healthy = Diagnosis.Facts(
    storePath: "/home/u/.local/state/notify/notify.db", storeExists: true, storeMode: 0o600,
    folderMode: 0o700,
    integrity: "ok", pending: 2, daemonPID: 42, serverCapabilities: ["actions", "body"])

  @Test("a healthy setup has no problems; a missing store is not one")
  func healthySetup() {
    #expect(Diagnosis.findings(healthy).isEmpty)
    var fresh = healthy
    fresh.storeExists = false
    fresh.integrity = nil
    fresh.pending = 0
    #expect(Diagnosis.findings(fresh).isEmpty)
  }

  @Test("each broken part is one finding, in its area, with a fix")
  func eachProblem() {
    func areas(_ change: (inout Diagnosis.Facts) -> Void) -> [String] {
      var facts = healthy
      change(&facts)
      return Diagnosis.findings(facts).map(\.area)
    }
    #expect(areas { $0.storeMode = 0o644 } == ["store"])
    #expect(areas { $0.folderMode = 0o755 } == ["store"])
    #expect(areas { $0.integrity = "*** in database main ***" } == ["store"])
    #expect(areas { $0.storeError = "corrupt" } == ["store"])
    #expect(areas { $0.daemonPID = nil } == ["firer"])
    #expect(
      areas {
        $0.daemonPID = nil; $0.timerEnabled = true
      }.isEmpty)
    #expect(
      areas {
        $0.daemonPID = nil; $0.pending = 0
      }.isEmpty)
    #expect(areas { $0.busError = "no such file" } == ["bus"])
    #expect(areas { $0.serverCapabilities = nil } == ["server"])
    #expect(areas { $0.serverCapabilities = ["body"] } == ["server"])
    var open = healthy
    open.storeMode = 0o644
    #expect(Diagnosis.findings(open).first?.fix == "chmod 600 '/home/u/.local/state/notify/notify.db'")
  }
}
