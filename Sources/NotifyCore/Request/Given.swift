/// A value as a front door received it: already typed (the library, a D-Bus integer), or as
/// text still to be read (a flag, a D-Bus string). `RequestCodec` reads the text, so that
/// every door refuses the same text with the same words.
public enum Given<Value: Hashable & Sendable>: Hashable, Sendable {
  /// A typed value.
  case value(Value)
  /// Text to read as a value.
  case text(String)
}
