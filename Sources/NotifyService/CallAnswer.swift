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

/// File work of one call: `work` runs on the worker thread (it touches no store and no
/// state of the service), `finish` on the loop's thread with its result, and says what
/// comes next: the reply, an error, or another round of work (`CallAnswer.later`).
struct FileJob {
  let work: @Sendable () -> Result<CopiedFiles, SchedulerError>
  let finish: (Result<CopiedFiles, SchedulerError>) -> Result<CallAnswer, SchedulerError>
}
