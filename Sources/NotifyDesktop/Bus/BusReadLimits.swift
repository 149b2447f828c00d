/// Bounds on what `BusMessage.readValues` takes from a caller: a message can be 128 MiB of
/// nested arrays, and a service reads it before it can say no.
package struct BusReadLimits: Sendable {
  /// The longest string, in bytes; a longer one is refused before it is copied.
  package var stringBytes: Int
  /// The most elements of any one array.
  package var arrayCount: Int
  /// The most values in the whole message, containers included.
  package var totalValues: Int
  /// The deepest nesting of containers.
  package var depth: Int

  package init(stringBytes: Int, arrayCount: Int, totalValues: Int, depth: Int) {
    self.stringBytes = stringBytes
    self.arrayCount = arrayCount
    self.totalValues = totalValues
    self.depth = depth
  }
}

/// A message whose contents break `BusReadLimits` or could not be read.
package struct BusValueError: Error, CustomStringConvertible {
  /// What was wrong, for the caller (`"a string of more than 65536 bytes"`).
  package var description: String

  package init(_ description: String) { self.description = description }
}
