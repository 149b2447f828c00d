import Foundation

/// A firer for every app (the daemon, `fire-due`) leaves the scheduled notifications of an
/// app that fires them itself while it runs to that app, so the app decides how they are
/// presented (`PresentationOptions`). It takes an occurrence over once it is `grace` late:
/// the app died without saying so, or hangs.
public enum RunningAppDeferral {
  /// How late an occurrence of a running app may be before a firer for every app takes it.
  public static let grace: TimeInterval = 2

  /// The instant from which a firer for every app takes an occurrence of a running app
  /// that is due at `fireDate`.
  public static func takeOver(dueAt fireDate: Date) -> Date { fireDate + grace }

  /// Occurrences of a running app due at or before this instant are taken at `now`.
  public static func dueBy(now: Date) -> Date { now - grace }
}
