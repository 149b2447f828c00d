import NotifyDesktop

/// How the service answers a call: now, or once file work done off its loop is finished
/// (`FileJob`). The endpoint sends every answer from one place, on its loop's thread.
enum CallAnswer {
  /// The reply's values, now.
  case reply([BusValue])
  /// Work for the `FileWorker` first; the call is answered when it is finished.
  case later(FileJob)

  /// The reply, the jobs run on the calling thread (tests, and callers with no worker).
  func wait() throws(SchedulerError) -> [BusValue] {
    var answer = self
    while true {
      switch answer {
      case .reply(let values): return values
      case .later(let job): answer = try job.finish(job.work()).get()
      }
    }
  }
}

/// Work of one call off the loop: `work` runs on the worker thread (copying a call's files,
/// or a large batch's transaction on the worker's own store connection; it touches no state
/// of the service), `finish` on the loop's thread with its result, and says what comes
/// next: the reply, an error, or another round of work (`CallAnswer.later`).
struct FileJob {
  let work: @Sendable () -> any Sendable
  let finish: (any Sendable) -> Result<CallAnswer, SchedulerError>

  /// A job whose work gives `Output` to `finish`.
  init<Output: Sendable>(
    work: @escaping @Sendable () -> Output, finish: @escaping (Output) -> Result<CallAnswer, SchedulerError>
  ) {
    self.work = work
    // (the worker hands back what `work` returned)
    self.finish = { output in finish(output as! Output) }
  }
}
