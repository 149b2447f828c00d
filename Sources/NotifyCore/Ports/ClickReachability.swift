/// Whether a click on a bubble can reach its app, decided before the hand-off, once per app
/// per claim batch (the firer asks it as it prepares claims), so that the sink only reads
/// `Delivery.offersDefaultAction`. The library's interaction router implements it (a
/// desktop-entry lookup for the launch; SPEC.md §5).
public protocol ClickReachability: Sendable {
  /// Whether a click on a bubble of `app` reaches the app whatever the notification asks: a
  /// process of it is online, or its desktop entry launches it. `known` is what the claim's
  /// transaction read of the app; nil: not read, look it up.
  func reaches(app: String, known: AppReach?) -> Bool
}
