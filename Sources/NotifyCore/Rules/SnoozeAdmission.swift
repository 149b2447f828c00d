/// Whether a snooze clicked on a bubble brings its notification back: only while the
/// notification the bubble shows is still the one the app has.
///
/// A delivered one-shot is no longer pending, yet snoozing it is the normal case; what
/// ends a bubble's right to a snooze is what happened to its notification after it was
/// scheduled: a cancel, or a new schedule of its id (which replaced it). The store
/// gathers those two facts for the notification as shown (its `createdAt` names which
/// schedule it was); this decides.
public enum SnoozeAdmission {
  /// Nil when the snooze may go ahead, else why not (`notTakenEffect`), for history.
  ///
  /// - Parameters:
  ///   - id: the notification's id, for the message.
  ///   - replacedSince: a schedule of the id, newer than the one shown, is in the store.
  ///   - cancelledSince: the id was cancelled after the one shown was scheduled.
  public static func refusal(id: String, replacedSince: Bool, cancelledSince: Bool) -> NotifyError? {
    let shown = Escaper.visible(id, limit: 40)
    if replacedSince {
      return NotifyError(
        .notTakenEffect,
        "not snoozed: '\(shown)' was replaced by a new schedule of its id after this bubble's, so the snooze would bring back what was replaced",
        fix: "the new schedule stands; snooze its own bubble when it is shown")
    }
    if cancelledSince {
      return NotifyError(
        .notTakenEffect,
        "not snoozed: '\(shown)' was cancelled after this bubble was shown, so the snooze would bring back what was cancelled",
        fix: "schedule it again if it is wanted")
    }
    return nil
  }
}
