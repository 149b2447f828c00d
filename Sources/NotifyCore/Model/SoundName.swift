/// The sound a notification asks for. See SPEC.md §4.
public enum SoundName: Hashable, Sendable {
  /// Silent (the default).
  case none
  /// The desktop's default message sound.
  case `default`
  /// A file name looked up in the app's sound folders (or, when no folder holds it, a
  /// name of the freedesktop sound theme: `alarm-clock-elapsed`).
  case file(String)
  /// A name the freedesktop sound theme has: what a `.file` name resolves to when no
  /// folder of the app's holds it and the theme does (`SoundLibrary.resolve`). Given and
  /// stored names are `.file` until then.
  case themed(String)

  /// Parses the CLI / JSON spelling: `none`, `default` or a file name.
  public init(_ text: String) {
    switch text {
    case "none": self = .none
    case "default": self = .default
    default: self = .file(text)
    }
  }

  /// The CLI / JSON spelling.
  public var name: String {
    switch self {
    case .none: "none"
    case .default: "default"
    case .file(let name), .themed(let name): name
    }
  }
}

/// The freedesktop urgency level.
public enum Urgency: String, CaseIterable, Hashable, Sendable {
  case low, normal, critical

  /// The value of the freedesktop `urgency` hint (a byte).
  public var level: UInt8 {
    switch self {
    case .low: 0
    case .normal: 1
    case .critical: 2
    }
  }
}
