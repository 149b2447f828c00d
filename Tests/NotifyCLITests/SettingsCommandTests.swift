import Foundation
import NotifyTestSupport
import Testing

/// `notify settings`, run as the built binary on a fresh store.
@Suite(.ownThreads)
struct SettingsCommandTests {
  let folder = TemporaryFolder()
  var notify: CommandRunner {
    CommandRunner(environment: ["NOTIFY_DB": folder.file("notify.db"), "NOTIFY_APP": "chat"])
  }

  func json(_ arguments: [String]) throws -> Any {
    let result = try notify.run(arguments + ["--json"])
    #expect(result.status == 0, "\(result.stderr)")
    return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
  }

  @Test("an app nobody set follows the default policy; a switch set is the app's own; the policy can change")
  func showsAndChanges() throws {
    // Given a fresh store: everything allowed, nothing set, nothing asked
    let fresh = try #require(try json(["settings"]) as? [String: Any])
    #expect(
      fresh["alerts"] as? Bool == true && fresh["sounds"] as? Bool == true && fresh["badges"] as? Bool == true
    )
    #expect(fresh["set"] as? [String: Bool] == [:])
    #expect(fresh["requested"] is NSNull)
    // When the user switches sounds off for chat
    let changed = try notify.run(["settings", "--sounds", "off"])
    // Then it says so, and the JSON shows it set
    #expect(
      changed.stdout == "chat: alerts on, sounds off (set), badges on, quiet hours: held\n",
      "\(changed.stdout)")
    let chat = try #require(try json(["settings"]) as? [String: Any])
    #expect(chat["sounds"] as? Bool == false && chat["set"] as? [String: Bool] == ["sounds": false])
    // When the default policy turns badges off
    let policy = try notify.run(["settings", "--default", "--badges", "off"])
    #expect(
      policy.stdout
        == "default for apps you have not set: alerts on, sounds on, badges off, quiet hours: held\nwake lead (every app): 60 s\n"
    )
    // Then an app that did not set badges follows it, and --all-apps lists every app known
    #expect(try notify.run(["schedule", "--in", "1h", "--app", "mail", "x"]).status == 0)
    let all = try #require(try json(["settings", "--all-apps"]) as? [[String: Any]])
    #expect(all.map { $0["app"] as? String } == ["chat", "mail"])
    #expect(all.map { $0["badges"] as? Bool } == [false, false])
    #expect(all.map { $0["sounds"] as? Bool } == [false, true])
    // And a switch set back on wins over the policy, and an app can be let through quiet hours
    #expect(try notify.run(["settings", "--badges", "on"]).stdout.contains("badges on (set)"))
    let through = try #require(try json(["settings", "--break-quiet", "on"]) as? [String: Any])
    #expect(through["breaksQuietHours"] as? Bool == true)
    #expect(through["set"] as? [String: Bool] == ["sounds": false, "badges": true, "breaksQuietHours": true])
  }

  @Test("scheduling a notification whose only kinds are switched off warns, and still schedules it")
  func scheduleWarns() throws {
    // Given sounds off for chat
    #expect(try notify.run(["settings", "--sounds", "off"]).status == 0)
    // When a sound-only notification is scheduled
    let soundOnly = try notify.run(["schedule", "--in", "1h", "--id", "ding", "--sound", "default"])
    // Then it is scheduled, with a warning naming the switch and the fix
    #expect(soundOnly.status == 0, "\(soundOnly.stderr)")
    #expect(soundOnly.stderr.contains("app 'chat' has sounds switched off"), "\(soundOnly.stderr)")
    #expect(soundOnly.stderr.contains("notify settings --app chat --sounds on"))
    #expect(soundOnly.stdout == "ding\n")
    // And one with text as well is not warned about
    let withText = try notify.run(["schedule", "--in", "1h", "--sound", "default", "hello"])
    #expect(withText.status == 0 && withText.stderr.isEmpty, "\(withText.stderr)")
  }

  @Test(
    "--wake off keeps an app's notifications from waking the machine; --wake-lead is every app's, within bounds"
  )
  func wakeSwitchAndLead() throws {
    // Given an app nobody set
    let folder = TemporaryFolder()
    let notify = CommandRunner(environment: ["NOTIFY_DB": folder.file("n.db"), "NOTIFY_APP": "chat"])
    // When the user does not let it wake the machine
    let off = try notify.run(["settings", "--wake", "off"])
    #expect(
      off.stdout == "chat: alerts on, sounds on, badges on, quiet hours: held, wake off (set)\n",
      "\(off.stdout)")
    let chat = try #require(
      try JSONSerialization.jsonObject(with: Data(notify.run(["settings", "--json"]).stdout.utf8))
        as? [String: Any])
    #expect(chat["wake"] as? Bool == false && chat["set"] as? [String: Bool] == ["wake": false])
    // And schedule --wake says so, and stores it
    let scheduled = try notify.run(["schedule", "--in", "1h", "--wake", "--id", "w", "x"])
    #expect(scheduled.status == 0)
    #expect(
      scheduled.stderr.contains("app 'chat' may not wake the machine: 'w' fires when the machine is awake"),
      "\(scheduled.stderr)")
    // When the lead is set, it is every app's, and shown with the policy
    #expect(try notify.run(["settings", "--wake-lead", "2m"]).status == 0)
    let policy = try #require(
      try JSONSerialization.jsonObject(
        with: Data(notify.run(["settings", "--default", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(policy["wakeLead"] as? Int == 120 && policy["wake"] as? Bool == true)
    // And a lead past 10 minutes, or a bad one, is refused (65) and leaves it as it was
    for bad in ["11m", "-1m", "soon"] {
      let refused = try notify.run(["settings", "--wake-lead", bad])
      #expect(refused.status == 65, "\(bad): \(refused.stderr)")
      #expect(refused.stderr.contains("--wake-lead"), "\(refused.stderr)")
    }
    #expect(try notify.run(["settings", "--wake-lead", "0s"]).status == 0)
    let zero = try #require(
      try JSONSerialization.jsonObject(
        with: Data(notify.run(["settings", "--default", "--json"]).stdout.utf8)) as? [String: Any])
    #expect(zero["wakeLead"] as? Int == 0)
  }
}
