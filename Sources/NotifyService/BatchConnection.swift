import NotifyCore
import NotifyStore

/// The store connection a large batch is written on, off the service's thread: on the
/// `FileWorker`'s thread (its jobs run one at a time), opened on the first large batch, so
/// an idle daemon holds no second connection. Each commit is on the disk before it
/// returns (`eachCommit`): the call is answered after it.
final class BatchConnection: @unchecked Sendable {
  // Safe: `opened` is read and written only by `store()`, which runs in the worker's jobs,
  // one at a time (or on the one thread of a caller without a worker: `CallAnswer.wait`).
  private var opened: SQLiteStore?
  private let path: String

  /// The connection to the store at `path`, opened on first use.
  init(path: String) {
    self.path = path
  }

  /// The connection; opened now on first use.
  func store() throws(NotifyError) -> SQLiteStore {
    if let opened { return opened }
    let store = try SQLiteStore(path: path, durability: .eachCommit)
    opened = store
    return store
  }
}
