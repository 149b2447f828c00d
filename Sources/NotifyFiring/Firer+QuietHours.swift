import Foundation
import NotifyCore

extension Firer {
  /// Held occurrences a release showed at `at` (in the summary `summaryID`, if one), to be
  /// recorded.
  struct ShownRelease {
    var held: [HeldNotification]
    var at: Date
    var summaryID: String?
    /// The bubble the sink showed them in (`DeliveryReceipt.bubble`).
    var bubble: ServerBubbleID?
  }

  /// Shows what quiet hours held for the apps they no longer hold (quiet ended, or the user
  /// let the app break through): one by one, or as one summary per app with more than a few
  /// (`QuietRelease`). Returns whether some stay held, for apps quiet hours still hold.
  func releaseHeld(_ report: inout BatchReport) -> Bool {
    recordUnrecordedReleases()
    guard let apps = try? currentOutlook().heldApps, !apps.isEmpty else { return false }
    let now = clock.now()
    let settings = Dictionary(apps.map { ($0, settingsInForce(app: $0)) }) { first, _ in first }
    let (releasable, stillHeld) = QuietRelease.releasable(settings, quiet: isQuiet(at: now))
    if let held = try? store.claimHeld(apps: releasable.keys.sorted(), owner: identity, now: now),
      !held.isEmpty
    {
      report.releasedFromQuiet += show(held, settings: releasable, at: now)
    }
    return stillHeld
  }

  /// When to look at what quiet hours hold again after a wake-up that leaves some held
  /// (`QuietRelease.nextLook`); nil when none are. Unreadable quiet hours count as not quiet:
  /// the look comes at once, and shows them.
  func releaseDeadline(holding: Bool) -> Date? {
    guard holding else { return nil }
    let quiet = (try? store.quietHours()) ?? QuietHours()
    return QuietRelease.nextLook(holding: true, quiet: quiet, at: clock.now(), in: clock.zones.local)
  }

  /// Records the releases a busy store refused earlier; those it refuses again wait for the
  /// next wake (or, when the firer stops, for the firer that takes its held rows over, which
  /// finds them in the hand-off journal).
  func recordUnrecordedReleases() {
    let waiting = unrecordedReleases
    unrecordedReleases = []
    for shown in waiting { recordRelease(shown) }
  }

  /// Records a release the sink took; a store that refuses keeps it in memory, still claimed
  /// by this firer, so that it is recorded later and never shown again.
  private func recordRelease(_ shown: ShownRelease) {
    do {
      try store.markReleased(shown.held, at: shown.at, summaryID: shown.summaryID, bubble: shown.bubble)
    } catch {
      unrecordedReleases.append(shown)
      logger.error(
        "showed \(shown.held.count) held for quiet hours but could not record it yet; trying again at the next wake: \(error)"
      )
    }
  }

  /// Hands the release steps to the sink in order, each under its app's `settings` (read
  /// once, as the apps were found releasable); a step the sink refuses goes back to the
  /// store with everything after it; what the app cancelled since the claim is left out. A
  /// step the sink took is never shown again: it is noted at once in the hand-off journal (a
  /// crash before it is recorded leaves the note to the next firer), then recorded (a busy
  /// store leaves it to `recordUnrecordedReleases`). Returns how many held occurrences came
  /// out.
  private func show(_ held: [HeldNotification], settings: [String: NotificationSettings], at now: Date) -> Int
  {
    var shown = 0
    let steps = QuietRelease.plan(held)
    // Looked up as they are shown, once per app: a category changed while they were held
    // shows its new buttons.
    let categories = categories(for: held.map(\.notification))
    // The bubble each thread shows after the steps so far (`ThreadSummary.after`): a thread's
    // held ones come out one after another into it, as a burst of the thread would.
    var threads: [ThreadKey: ThreadBubble] = [:]
    for (position, step) in steps.enumerated() {
      // A stopping firer leaves the rest held, for the next one.
      if isStopRequested() {
        try? store.unclaimHeld(Self.heldOf(steps[position...]))
        break
      }
      // From the confirmation to the note, a cancel leaves these to this firer.
      let planned = Self.heldOf(steps[position...position])
      let outcome = withHandOffLock({ try store.beginRelease(planned, owner: identity) }) {
        show(step, planned, settings: settings, categories: categories, threads: &threads, at: now)
      }
      switch outcome {
      case .cancelled:
        continue
      case .refused:
        try? store.unclaimHeld(Self.heldOf(steps[position...]))
        return shown
      case .shown(let release, let app):
        recordRelease(release)
        shown += release.held.count
        logger.info(
          "showed \(release.held.count) held for quiet hours",
          metadata: ["app": "\(app)", "id": "\(release.summaryID ?? release.held[0].notification.id)"])
      }
    }
    return shown
  }

  /// What became of one step of a release.
  private enum StepOutcome {
    /// The app cancelled all of it since it was claimed.
    case cancelled
    /// The sink did not take it: it and the steps after it go back.
    case refused
    /// The sink took it (noted in the journal), to be recorded.
    case shown(ShownRelease, app: String)
  }

  /// Shows one release step (the held occurrences `planned`), under their hand-off locks.
  /// One of a thread replaces its thread's bubble (`threads`, what this release's earlier
  /// steps left, else what the claim read), and leaves it there for the next.
  private func show(
    _ step: QuietRelease.Step, _ planned: [HeldNotification], settings: [String: NotificationSettings],
    categories: [String: [NotificationCategory]?], threads: inout [ThreadKey: ThreadBubble], at now: Date
  ) -> StepOutcome {
    // The app may have cancelled some since they were claimed. A store that cannot be read
    // does not hold them back.
    var ones = (try? store.keepHeld(planned, owner: identity)) ?? planned
    guard !ones.isEmpty else { return .cancelled }
    let thread = ThreadKey(ones[0].notification)
    if case .each = step, let thread, let shown = threads[thread] { ones[0].thread = shown }
    let notification: LocalNotification
    var summaryID: String?
    if case .summary(let app, _) = step {
      let id = "quiet-" + String(UInt64.random(in: 0..<(1 << 48)), radix: 16)
      summaryID = id
      notification = QuietRelease.summary(app: app, ones, id: id, at: now)
    } else {
      notification = ones[0].notification
    }
    let prepared = preparation(
      notification, settings: settings[notification.app] ?? .allowAll, quiet: false, at: now, version: nil,
      categories: categories[notification.app] ?? [NotificationCategory]())
    // One shown on its own replaces its bubble; a summary is a new one.
    let delivery = delivery(
      notification, occurrence: ones.count == 1 ? ones[0].occurrence : 1, fireDate: ones.last!.fireDate,
      late: true, at: now, replacing: summaryID == nil ? ones[0].bubble : nil,
      thread: summaryID == nil ? ones[0].thread : nil, prepared)
    var bubble: ServerBubbleID?
    switch hand(delivery) {
    case .taken(_, let receipt):
      bubble = receipt.bubble
      if summaryID == nil, let thread,
        let next = ThreadSummary.after(ones[0].thread, id: notification.id, shownAs: receipt.bubble)
      {
        threads[thread] = next
      }
    case .uncertain:
      break
    case .refused(let error):
      logger.warning("could not show what quiet hours held; trying again at the next wake: \(error)")
      return .refused
    case .fault(let fault):
      logger.warning("could not show what quiet hours held; trying again at the next wake: \(fault)")
      return .refused
    }
    // One write(2): from here on a crash cannot show it again.
    do {
      try store.noteReleased(ones, at: now, summaryID: summaryID, owner: identity)
    } catch {
      logger.warning("could not note a release; recording it at once instead: \(error)")
    }
    return .shown(
      ShownRelease(held: ones, at: now, summaryID: summaryID, bubble: bubble), app: notification.app)
  }

  /// The held occurrences `steps` stand for.
  private static func heldOf(_ steps: ArraySlice<QuietRelease.Step>) -> [HeldNotification] {
    steps.flatMap { step -> [HeldNotification] in
      switch step {
      case .each(let one): [one]
      case .summary(_, let all): all
      }
    }
  }
}
