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

  let package = Diagnosis.Installation(
    kind: "package", binary: "/usr/bin/notify", removal: "sudo apt remove notify")
  let script = Diagnosis.Installation(
    kind: "install.sh", binary: "/home/u/.local/bin/notify", removal: "bash scripts/install.sh uninstall")

  @Test("one installation is no problem; two are one finding that says which runs and how to remove either")
  func twoInstallations() throws {
    var one = healthy
    one.installations = [package]
    one.daemonBinary = "/usr/bin/notify"
    #expect(Diagnosis.findings(one).isEmpty)
    // Given the package and install.sh's copy, the daemon running the package's while
    // systemd would start install.sh's (its unit in ~/.local/share/systemd/user comes first)
    var two = one
    two.installations = [package, script]
    two.unitBinary = "/home/u/.local/bin/notify"
    two.commandBinary = "/home/u/.local/bin/notify"
    let finding = try #require(Diagnosis.findings(two).first)
    #expect(Diagnosis.findings(two).map(\.area) == ["install"])
    #expect(
      finding.problem
        == "two installations of notify: the package's /usr/bin/notify and install.sh's /home/u/.local/bin/notify; the daemon (pid 42) runs /usr/bin/notify, systemd starts /home/u/.local/bin/notify for notify.service, this command is /home/u/.local/bin/notify"
    )
    #expect(
      finding.fix
        == "keep one: remove install.sh's with bash scripts/install.sh uninstall, or remove the package's with sudo apt remove notify; then systemctl --user daemon-reload && systemctl --user restart notify.service"
    )
  }

  @Test("a daemon whose binary was replaced since it started is told to restart")
  func replacedBinary() {
    var upgraded = healthy
    upgraded.daemonBinary = "/usr/bin/notify (deleted)"
    #expect(
      Diagnosis.findings(upgraded).map(\.fix) == ["restart it: systemctl --user restart notify.service"])
    var stopped = upgraded
    stopped.daemonPID = nil
    stopped.timerEnabled = true
    #expect(Diagnosis.findings(stopped).isEmpty)
  }
}
