/// The names of the scheduler's D-Bus interface, version 1 (README "D-Bus service"): the
/// version is in the bus name, the interface and the object path, so that a version 2 can
/// be served beside it (the D-Bus API design guide).
public enum SchedulerInterface {
  /// The well-known bus name, the interface name and the error prefix.
  public static let name = "io.github.notify.Scheduler1"
  /// The object path.
  public static let path = "/io/github/notify/Scheduler1"
  /// The interface's `Version` property, raised by each compatible addition: 2 added
  /// `SetCategories`, `GetCategories` and the `category` request key.
  public static let version: UInt32 = 2
  /// The prefix of every error the service replies with (`...Error.LimitReached`).
  public static let errorPrefix = name + ".Error."
}
