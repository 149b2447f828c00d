import Foundation
import Testing

@testable import NotifyCore

/// Whether a firer can wake the machine, why not, and the one command that allows it.
@Suite("WakeDiagnosis: can this firer wake the machine")
struct WakeDiagnosisTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var facts: WakeFacts
    var route: WakeRoute?
    var reason: String?
    var fix: String?
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "an alarm timer of its own", facts: WakeFacts(alarmClock: .works, hasCapability: true),
      route: .alarmTimer),
    Case(
      name: "no wake alarm in this kernel", facts: WakeFacts(alarmClock: .unsupported), route: nil,
      reason: "no wake alarm"),
    Case(
      name: "the unit lacks it, the manager has it (systemd 254+)",
      facts: WakeFacts(
        alarmClock: .denied, noNewPrivileges: true, unit: "notify.service", managerHasCapability: true),
      route: .userTimer, reason: "user manager's timers",
      fix: "AmbientCapabilities=CAP_WAKE_ALARM to notify.service"),
    Case(
      name: "the unit lacks it and so does the manager (Debian 12)",
      facts: WakeFacts(
        alarmClock: .denied, noNewPrivileges: true, unit: "notify.service", managerHasCapability: false),
      route: nil, reason: "systemd before 254", fix: "user@.service"),
    Case(
      name: "run by hand without it",
      facts: WakeFacts(alarmClock: .denied, program: "/home/u/.local/bin/notify"),
      route: nil, reason: "lacks CAP_WAKE_ALARM",
      fix: "sudo setcap cap_wake_alarm+ep /home/u/.local/bin/notify"),
    Case(
      name: "run by hand with no_new_privs", facts: WakeFacts(alarmClock: .denied, noNewPrivileges: true),
      route: nil, reason: "no_new_privs", fix: "notify.service"),
    Case(
      name: "allowed, but no wake alarm in this machine (a virtual machine)",
      facts: WakeFacts(alarmClock: .works, wakeClock: false, hasCapability: true), route: .alarmTimer,
      reason: "no real-time clock with an alarm"),
    Case(
      name: "a file capability that did not take",
      facts: WakeFacts(alarmClock: .denied, programHasFileCapability: true),
      route: nil, reason: "nosuid"),
  ]

  @Test("the verdict", arguments: cases)
  func verdict(_ c: Case) {
    let verdict = WakeDiagnosis.verdict(c.facts)
    #expect(verdict.ability.route == c.route)
    if let reason = c.reason { #expect(verdict.ability.reason?.contains(reason) == true, "\(verdict)") }
    if let fix = c.fix { #expect(verdict.fix?.contains(fix) == true, "\(verdict)") }
    if c.route == .alarmTimer, c.facts.wakeClock == true {
      #expect(verdict.fix == nil && verdict.ability.reason == nil && verdict.ability.canWake)
    }
    if c.facts.wakeClock == false {
      #expect(!verdict.ability.canWake && verdict.ability.historyName == "none")
    }
  }

  @Test("the facts survive the store's JSON")
  func roundTrip() {
    let facts = WakeFacts(
      alarmClock: .denied, hasCapability: false, noNewPrivileges: true, unit: "notify.service",
      managerHasCapability: nil, program: "/usr/bin/notify", programHasFileCapability: true)
    #expect(WakeFacts(json: facts.jsonValue) == facts)
    #expect(WakeFacts(json: .string("x")) == nil)
  }

  @Test("schedule --wake's warning: the app may not, no firer, a firer that cannot; none when one can")
  func scheduleWarning() {
    let allow = NotificationSettings.allowAll
    var off = allow
    off.wake = false
    #expect(
      WakeDiagnosis.scheduleWarning(id: "w", app: "a", settings: off, firer: nil)?.contains("--wake on")
        == true)
    #expect(
      WakeDiagnosis.scheduleWarning(id: "w", app: "a", settings: allow, firer: nil)?.contains(
        "no notify daemon")
        == true)
    let denied = WakeDiagnosis.scheduleWarning(
      id: "w", app: "a", settings: allow, firer: WakeFacts(alarmClock: .denied, program: "/bin/notify"))
    #expect(denied?.contains("fires when the machine is awake") == true && denied?.contains("setcap") == true)
    #expect(
      WakeDiagnosis.scheduleWarning(id: "w", app: "a", settings: allow, firer: WakeFacts(alarmClock: .works))
        == nil)
  }
}
