import NotifyCore
import NotifyDesktop
import NotifySound
import NotifyStore
import NotifyZones

/// This version of notify, as `notify --version` prints it with the store schema it writes.
public enum NotifyVersion {
  public static let number = "0.2.0"
}
