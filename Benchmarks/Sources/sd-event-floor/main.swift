// The floor for BENCHMARKS.md: what an sd-event CLOCK_REALTIME timer with 1 µs accuracy
// costs from its due instant to a line written on stdout, with nothing else in between.
//   usage: sd-event-floor START_USEC SPACING_USEC COUNT [BURST]
// When instant i = START + i * SPACING comes (i < COUNT), writes BURST lines (default 1),
// "i * BURST + k\n" for k in 0..<BURST, one write(2) each, from that one wake-up.
import CSdEvent
import Glibc

/// Prints on stderr.
func warn(_ text: String) {
  let bytes = Array(text.utf8)
  _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 4 || arguments.count == 5, let start = UInt64(arguments[1]),
  let spacing = UInt64(arguments[2]), let count = Int(arguments[3]),
  let burst = arguments.count == 5 ? Int(arguments[4]) : 1, burst >= 1
else {
  warn("usage: sd-event-floor START_USEC SPACING_USEC COUNT [BURST]\n")
  exit(64)
}

final class State {
  var index = 0
  let start: UInt64
  let spacing: UInt64
  let count: Int
  let burst: Int
  init(start: UInt64, spacing: UInt64, count: Int, burst: Int) {
    self.start = start
    self.spacing = spacing
    self.count = count
    self.burst = burst
  }
  var due: UInt64 { start + UInt64(index) * spacing }
}

var event: OpaquePointer?
guard sd_event_new(&event) >= 0 else { exit(70) }
let state = State(start: start, spacing: spacing, count: count, burst: burst)
var source: OpaquePointer?
let result = sd_event_add_time(
  event, &source, CLOCK_REALTIME, state.due, 1,
  { source, _, userdata in
    let state = Unmanaged<State>.fromOpaque(userdata!).takeUnretainedValue()
    for k in 0..<state.burst {
      var line = Array("\(state.index * state.burst + k)\n".utf8)
      _ = write(1, &line, line.count)
    }
    state.index += 1
    if state.index == state.count { return sd_event_exit(sd_event_source_get_event(source), 0) }
    sd_event_source_set_time(source, state.due)
    return sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT))
  }, Unmanaged.passUnretained(state).toOpaque())
guard result >= 0 else { exit(70) }
exit(sd_event_loop(event))
