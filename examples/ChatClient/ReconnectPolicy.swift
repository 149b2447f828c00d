/// How the chat client gets back onto its server after the connection drops: a bounded
/// number of attempts in a row, the first after `firstDelay`, each later one after twice
/// the previous delay, never more than `maximumDelay`. A stay that registers again starts
/// the count anew.
struct ReconnectPolicy: Hashable, Sendable {
  /// How many attempts in a row before the client gives up (0: it never reconnects).
  var attempts: Int
  /// The delay before the first attempt.
  var firstDelay: Duration
  /// The longest delay between two attempts.
  var maximumDelay: Duration

  /// The client's default: 8 attempts, from 1 s up to 30 s apart (about two minutes).
  static let standard = ReconnectPolicy(attempts: 8, firstDelay: .seconds(1), maximumDelay: .seconds(30))

  /// The delay before attempt `attempt` (1-based), or nil past the last one.
  func delay(beforeAttempt attempt: Int) -> Duration? {
    guard attempt >= 1, attempt <= attempts else { return nil }
    var delay = firstDelay
    for _ in 1..<attempt {
      delay *= 2
      if delay >= maximumDelay { return maximumDelay }
    }
    return min(delay, maximumDelay)
  }
}
