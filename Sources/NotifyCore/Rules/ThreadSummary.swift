import Foundation

/// How a thread shows as one bubble, as pure decisions: which bubble a delivery of
/// a thread replaces, the count line its body carries, and the thread's bubble after it.
///
/// A delivery of thread T of app A replaces T's bubble while it is on screen (the store
/// knows its server id: a closed bubble's is forgotten). The bubble then stands for one more
/// notification; its body is the latest text and a count line in the app's words
/// (`LocalNotification.threadSummary`, `%u` the count, the latest included; `"%u new"` by
/// default):
///
/// ```swift
/// ThreadSummary.line(count: 3, format: nil)                  // "3 new"
/// ThreadSummary.line(count: 3, format: "%u messages from alice")  // "3 messages from alice"
/// ThreadSummary.line(count: 1, format: nil)                  // nil: a new bubble has no line
/// ```
public enum ThreadSummary {
  /// The count line when the app sets none.
  public static let defaultFormat = "%u new"
  /// The longest format accepted, in characters.
  public static let formatLimit = 100

  /// The count a delivery of notification `id` shows when it replaces `previous` (nil: a
  /// new bubble): one more than the bubble stood for, or as many when it shows `id` already
  /// (a notification delivered again, replaced or repeating, is not one more).
  /// A bubble that is most likely closed (`ThreadBubble.likelyClosed`) counts from 1 again.
  public static func count(replacing previous: ThreadBubble?, id: String) -> Int {
    guard let previous, !previous.likelyClosed else { return 1 }
    return previous.latestID == id ? previous.count : previous.count + 1
  }

  /// The count line for a bubble that stands for `count` notifications, in `format` (the
  /// default when nil); nil when it stands for one only.
  public static func line(count: Int, format: String?) -> String? {
    guard count > 1 else { return nil }
    var text = ""
    var percent = false
    for character in format ?? defaultFormat {
      if percent {
        percent = false
        switch character {
        case "u": text += String(count)
        case "%": text += "%"
        default: text += "%" + String(character)
        }
      } else if character == "%" {
        percent = true
      } else {
        text.append(character)
      }
    }
    return percent ? text + "%" : text
  }

  /// The body's text with its count line under it (the line alone when there is no text).
  public static func body(_ text: String, count: Int, format: String?) -> String {
    guard let line = line(count: count, format: format) else { return text }
    return text.isEmpty ? line : text + "\n" + line
  }

  /// The thread's bubble after notification `id` was delivered to replace `previous`
  /// (nil: a new bubble) and the server showed it as `shown`. The bubble goes on (one more)
  /// when the server answered with the bubble replaced; otherwise `shown` is a new bubble
  /// (the server restarted, or forgot the old one). Nil when nothing was shown on a server:
  /// the thread's bubble is then left as it was.
  public static func after(_ previous: ThreadBubble?, id: String, shownAs shown: ServerBubbleID?)
    -> ThreadBubble?
  {
    guard let shown else { return nil }
    guard let previous, previous.bubble == shown else {
      return ThreadBubble(bubble: shown, latestID: id, count: 1)
    }
    return ThreadBubble(bubble: shown, latestID: id, count: count(replacing: previous, id: id))
  }

  /// The notification whose bubble `next` took over from `previous`: it no longer has a
  /// bubble of its own (its server id now names the thread's latest). Nil when none did.
  public static func handedOver(from previous: ThreadBubble?, to next: ThreadBubble) -> String? {
    guard let previous, previous.bubble == next.bubble, previous.latestID != next.latestID else { return nil }
    return previous.latestID
  }

  /// Whether a thread's bubble, last shown at `shownAt` by a process that is no longer
  /// running (`shownByRunning` false), is most likely closed at `now`: nobody listened for
  /// the server's `NotificationClosed` since that process stopped (`fire-due`, `notify now`,
  /// an app that exited), so the store cannot know, and bubbles expire within seconds on
  /// most servers. The same window as taking over a left bubble
  /// (`ShownBubble.takeOverWindow`): within it the bubble is taken as still up. A bubble
  /// whose process still runs is heard: the store knows when it closes. Nil `shownAt` (a
  /// bubble recorded before this was kept): heard.
  public static func likelyClosed(shownAt: Date?, shownByRunning: Bool, now: Date) -> Bool {
    guard let shownAt, !shownByRunning else { return false }
    return now.timeIntervalSince(shownAt) > ShownBubble.takeOverWindow
  }

  /// Checks a summary format: at most `formatLimit` characters, no control characters,
  /// and `%` only as `%u` (the count) or `%%`.
  public static func validate(format: String) throws(NotifyError) {
    var problem: String?
    if format.isEmpty || format.count > formatLimit {
      problem = "must be 1 to \(formatLimit) characters"
    } else if format.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
      problem = "must not contain control characters"
    } else {
      var percent = false
      for character in format {
        if percent {
          guard character == "u" || character == "%" else {
            problem = "may use % only as %u (the count) or %%"
            break
          }
          percent = false
        } else if character == "%" {
          percent = true
        }
      }
      if percent { problem = "may use % only as %u (the count) or %%" }
    }
    guard let problem else { return }
    throw NotifyError(
      .invalidData, "invalid thread summary '\(Escaper.visible(format, limit: 40))': it \(problem)",
      fix: "give a format like \"%u new\" or \"%u messages from alice\"")
  }
}
