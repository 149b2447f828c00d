import Foundation

/// How long a claim holds its occurrence for a firer that is alive but does not hand it
/// over (stopped with Ctrl-Z or SIGSTOP, or stuck): past the lease another firer takes the
/// claim over, as it does a dead firer's, and `cancel` removes a claim not yet handed over
/// at any time. The owner confirms its claim before each hand-off (renewing it when it is
/// older than `renewAfter`) and skips one it has lost, so a firer that resumes never hands
/// over what another firer took or the user cancelled.
public enum ClaimLease {
  /// 60 s: a live firer hands a claim over within its batch budget (10 s for the daemon,
  /// 25 s for `fire-due`), and a stalled sink gives its claims back.
  public static let duration: TimeInterval = 60
  /// An owner renews a claim it is about to hand over once it is this old.
  public static let renewAfter: TimeInterval = 5

  /// Whether a live owner's claim taken at `claimedAt` may be taken over at `now`.
  public static func isExpired(claimedAt: Date, now: Date) -> Bool {
    now.timeIntervalSince(claimedAt) > duration
  }

  /// When a live owner's claim taken at `claimedAt` may be taken over.
  public static func expiry(claimedAt: Date) -> Date { claimedAt + duration }
}
