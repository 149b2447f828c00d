import Foundation
import Logging
import NotifyCore
import NotifyFiring
import NotifyStore

/// What a firing loop needs to know sleep, wake and power: what its process can do to wake
/// the machine (`WakeFacts`, decided by `WakeDiagnosis`) and the loop's companions that
/// carry it out (the wake-capable timer for the earliest waking notification; logind's
/// sleep and shutdown with its delay inhibitor). One place for the daemon and an app's
/// firing service: the assembly calls `make` and hands the companions to its loop.
///
/// ```swift
/// let power = FiringPower.make(storePath: store.path)
/// let firer = Firer(store: store, sink: sink, identity: .current, wakeAbility: power.ability)
/// let loop = FiringLoop(firer: firer, configuration: .init(storePath: store.path), hooks: .init(companions: power.companions))
/// ```
package struct FiringPower {
  /// What the probe found.
  package var facts: WakeFacts
  /// What the firer can do to wake the machine.
  package var ability: WakeAbility
  /// The loop's companions.
  package var companions: [any FiringLoopCompanion]

  /// Probes this process and makes the companions: the alarm timer where the process may
  /// hold one (also without a wake alarm in the machine, where it runs as an ordinary
  /// timer and the status says so), else the user manager's waking timers where it may
  /// hold them (for the store at `storePath`); logind's watch always (it is off by itself
  /// where there is no logind).
  package static func make(storePath: String?) -> FiringPower {
    let logger = NotifyLogging.logger("notify.power")
    let facts = WakeProbe.facts()
    let verdict = WakeDiagnosis.verdict(facts)
    var companions: [any FiringLoopCompanion] = []
    switch verdict.ability.route {
    case .alarmTimer?:
      companions.append(WakeAlarmKeeper(logger: logger))
    case .userTimer? where verdict.ability.canWake:
      // (systemd refuses a waking timer where the machine has no wake alarm)
      if let storePath { companions.append(UserTimerKeeper(storePath: storePath, logger: logger)) }
    case .userTimer?, nil:
      break
    }
    companions.append(SleepWatch(logger: logger))
    return FiringPower(facts: facts, ability: verdict.ability, companions: companions)
  }

  /// What a run that exits (`notify fire-due`) may do to wake the machine: only the user
  /// manager's timers outlive it (`userTimer`), an alarm timer of its own would not. Probes
  /// this process and records what it found for `notify status` and `schedule --wake`.
  package static func fireDue(store: SQLiteStore) -> (facts: WakeFacts, ability: WakeAbility) {
    var facts = WakeProbe.facts()
    // (its own alarm timer would close with it: as far as waking goes, it has none)
    if facts.alarmClock == .works { facts.alarmClock = .exits }
    try? store.noteFireDueWake(facts)
    return (facts, WakeDiagnosis.verdict(facts).ability)
  }

  /// After a fire-due run: where the user manager may hold waking timers (`ability`), arms
  /// one for the store's earliest waking notification less the lead, or stops it when none
  /// is pending.
  package static func keepUserTimer(store: SQLiteStore, ability: WakeAbility, now: Date) {
    guard ability.route == .userTimer, ability.canWake, let outlook = try? store.wakeOutlook() else { return }
    UserTimerKeeper(storePath: store.path, logger: NotifyLogging.logger("notify.power"))
      .arm(WakePlanner.alarm(for: outlook.earliest, now: now))
  }
}
