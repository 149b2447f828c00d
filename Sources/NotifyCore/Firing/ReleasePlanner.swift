/// What giving back an unstarted claim does (SPEC.md §6 budgets): the claimed row returns
/// to the claimed occurrence (the first one it stood for) when nothing has moved it since;
/// otherwise the claim stays, owned by nobody, for the next firer to take over. A claim
/// whose notification was cancelled or replaced meanwhile is dropped: nothing is left to
/// deliver. Pure: the store reads the row and carries out the decision.
public enum ReleasePlanner {
  /// The claimed row as it is now.
  public struct RowState: Hashable, Sendable {
    /// Its next undelivered occurrence.
    public var nextOccurrence: Int
    /// True when it has left the pending list (no next fire instant).
    public var finished: Bool
    /// True when another pending row has taken its app and id since.
    public var idTakenByNewerRow: Bool

    /// Creates a row state.
    public init(nextOccurrence: Int, finished: Bool, idTakenByNewerRow: Bool) {
      self.nextOccurrence = nextOccurrence
      self.finished = finished
      self.idTakenByNewerRow = idTakenByNewerRow
    }
  }

  /// The decision for one claim.
  public enum Decision: Hashable, Sendable {
    /// Put the row back at `occurrence` due at the claim's instant, and delete the claim.
    case restore(occurrence: Int)
    /// Delete the claim: the notification is gone.
    case drop
    /// Keep the claim with no owner: any firer takes it over.
    case orphan
  }

  /// The decision for `claim`, given its row (nil when the row no longer exists).
  public static func decide(_ claim: Claim, row: RowState?) -> Decision {
    guard let row else { return .drop }
    guard row.nextOccurrence == claim.occurrence + 1 else { return .orphan }
    if row.finished && row.idTakenByNewerRow { return .drop }
    return .restore(occurrence: claim.occurrence - claim.coalesced)
  }
}
