import Testing

@testable import NotifyDesktop

/// The Unity LauncherEntry signal contents, without a bus.
struct LauncherEntryTests {
  @Test(arguments: [
    // Expected paths computed independently with glib's g_str_hash (djb2, signed chars).
    ("chat", "/com/canonical/unity/launcherentry/1003908537"),
    ("notify", "/com/canonical/unity/launcherentry/1195129714"),
  ])
  func objectPathIsGlibHashOfTheURI(_ app: String, _ path: String) {
    #expect(LauncherEntry(app: app, count: 1).objectPath == path)
  }

  @Test func appURI() {
    #expect(LauncherEntry(app: "chat", count: 1).appURI == "application://chat.desktop")
  }

  @Test(arguments: [(0, false), (3, true), (99999, true)])
  func properties(_ count: Int, _ visible: Bool) {
    // Given a badge count
    let entry = LauncherEntry(app: "chat", count: count)
    // Then count is an int64 and count-visible is false only for 0
    #expect(entry.properties.map(\.key) == ["count", "count-visible"])
    #expect(entry.properties[0].value == .int64(Int64(count)))
    #expect(entry.properties[1].value == .bool(visible))
  }
}

/// Wire reason codes of NotificationClosed.
struct DismissReasonTests {
  @Test(arguments: [
    (UInt32(1), DismissReason.expired), (2, .dismissedByUser), (3, .closedByCall), (4, .undefined),
    (0, .undefined), (99, .undefined),
  ])
  func code(_ code: UInt32, _ reason: DismissReason) {
    #expect(DismissReason(code: code) == reason)
  }
}
