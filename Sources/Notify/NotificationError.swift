import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// Why a call on `LocalNotificationCenter` failed, as cases an app can switch on.
///
/// ```swift
/// do {
///   try await center.add(NotificationRequest(content: content, trigger: .after(.seconds(600))))
/// } catch .limitReached {
///   // 64 of the app's notifications fire sooner: cancel some, or fire this one sooner.
/// } catch .storeBusy {
///   // another process held the store for 5 s: try again later.
/// } catch {
///   print(error)  // what happened and what to do
/// }
/// ```
///
/// `description` says what happened and what to do; it never contains a notification's
/// body or `userInfo`.
public enum NotificationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The 64-pending limit discarded the new notification itself: 64 others of the app fire
  /// sooner (it was recorded in history as `discarded`).
  case limitReached(String)
  /// The content or trigger breaks a rule (length, JSON size, an unknown zone, an id that
  /// belongs to another app); the text names the rule.
  case invalidContent(String)
  /// A sound file named by the content is missing or not playable, where no fallback applies.
  case soundRejected(String)
  /// The id (or ids) named was not pending, not held and not on screen.
  case notFound(String)
  /// Another process held the store past the busy timeout (5 s); trying again may succeed.
  case storeBusy(String)
  /// The store cannot be opened, read or written (missing folder, permissions, a damaged file).
  case storeUnavailable(String)
  /// No notification server answered on the session bus (nothing was shown or withdrawn).
  case serverUnavailable(String)
  /// The notification server got the call but did not answer in time: the notification may
  /// have been shown all the same.
  case serverTimedOut(String)
  /// A budget ran out or another temporary failure; trying again may succeed.
  case temporary(String)
  /// notify's service refused to act for this app: the process runs in a Flatpak sandbox and
  /// named another app, in a sandbox notify cannot identify, or as another user
  /// (`io.github.notify.Scheduler1.Error.NotAllowed`).
  case notAllowed(String)
  /// The call has no equivalent where this center's calls go: inside a Flatpak sandbox they
  /// go to notify's service on the host, which has no method for it (docs/sandboxes.md
  /// in notify's repository); the text says why and what to do instead.
  case notAvailable(String)

  /// What happened and what to do.
  public var description: String {
    switch self {
    case .limitReached(let text), .invalidContent(let text), .soundRejected(let text), .notFound(let text),
      .storeBusy(let text), .storeUnavailable(let text), .serverUnavailable(let text),
      .serverTimedOut(let text), .temporary(let text), .notAllowed(let text), .notAvailable(let text):
      text
    }
  }
}

extension NotificationError {
  /// The case for an internal error. The mapping reads the error's class (`NotifyError.Kind`,
  /// the sysexits number the command line exits with, which stays the command line's business)
  /// and the few flags that tell cases of one class apart.
  package init(_ error: NotifyError) {
    let text = error.description
    switch error.kind {
    case .notTakenEffect:
      // `add` throws `.limitReached` itself, from the store's outcome.
      self = .notFound(text)
    case .usage, .invalidData:
      self = text.lowercased().contains("sound") ? .soundRejected(text) : .invalidContent(text)
    case .noInput:
      self = text.lowercased().contains("sound") ? .soundRejected(text) : .invalidContent(text)
    case .unavailable:
      self = .serverUnavailable(text)
    case .ioError:
      self = .storeUnavailable(text)
    case .temporary:
      if error.mayHaveBeenShown {
        self = .serverTimedOut(text)
      } else if text.contains("busy") || text.contains("locked") {
        self = .storeBusy(text)
      } else {
        self = .temporary(text)
      }
    }
  }
}
