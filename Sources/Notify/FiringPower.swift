import Foundation
import Logging
import NotifyCore
import NotifyFiring

/// What a firing loop needs to know sleep, wake and power: what its process can do to wake
/// the machine (`WakeFacts`, decided by `WakeDiagnosis`) and the loop's companions that
/// carry it out (the wake-capable timer for the earliest waking notification; logind's
/// sleep and shutdown with its delay inhibitor). One place for the daemon and an app's
/// firing service: the assembly calls `make` and hands the companions to its loop.
///
/// ```swift
/// let power = FiringPower.make()
/// firer.wakeAbility = power.ability
/// loop.companions = power.companions
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
  /// timer and the status says so); logind's watch always (it is off by itself where there
  /// is no logind).
  package static func make() -> FiringPower {
    let logger = NotifyLogging.logger("notify.power")
    let facts = WakeProbe.facts()
    let verdict = WakeDiagnosis.verdict(facts)
    var companions: [any FiringLoopCompanion] = []
    if verdict.ability.route == .alarmTimer { companions.append(WakeAlarmKeeper(logger: logger)) }
    companions.append(SleepWatch(logger: logger))
    return FiringPower(facts: facts, ability: verdict.ability, companions: companions)
  }
}
