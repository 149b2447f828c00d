import Testing

@testable import NotifyCore

@Suite("JSONValue: literals and typed accessors")
struct JSONValueLiteralTests {
  @Test func literalsBuildTheSameValuesAsTheCases() {
    // Given a value written with literals
    let value: JSONValue = [
      "room": "4B", "unread": 3, "ratio": 0.5, "muted": false, "tags": ["a", 1], "none": nil,
      "nested": ["x": 1],
    ]
    // Then it is the value spelled with the cases
    #expect(
      value
        == .object([
          "room": .string("4B"), "unread": .int(3), "ratio": .double(0.5), "muted": .bool(false),
          "tags": .array([.string("a"), .int(1)]), "none": .null, "nested": .object(["x": .int(1)]),
        ]))
  }

  @Test func accessorsAnswerOnlyForTheirKind() {
    // Given an object with one member of each kind
    let value: JSONValue = [
      "s": "4B", "i": 3, "d": 2.5, "whole": 4.0, "b": true, "a": [1, 2], "o": ["k": "v"], "n": nil,
    ]
    // Then each accessor gives the member of its kind, and nil for the others
    #expect(value["s"]?.stringValue == "4B")
    #expect(value["s"]?.intValue == nil)
    #expect(value["i"]?.intValue == 3)
    #expect(value["i"]?.doubleValue == 3)
    #expect(value["i"]?.stringValue == nil)
    #expect(value["d"]?.doubleValue == 2.5)
    #expect(value["d"]?.intValue == nil)
    #expect(value["whole"]?.intValue == 4)
    #expect(value["b"]?.boolValue == true)
    #expect(value["b"]?.intValue == nil)
    #expect(value["a"]?.arrayValue == [1, 2])
    #expect(value["a"]?[1]?.intValue == 2)
    #expect(value["a"]?[2] == nil)
    #expect(value["o"]?.objectValue == ["k": "v"])
    #expect(value["o"]?["k"]?.stringValue == "v")
    #expect(value["n"]?.isNull == true)
    #expect(value["missing"] == nil)
    #expect(JSONValue.string("x")["k"] == nil)
  }

  @Test func literalUserInfoWritesTheSameJSON() {
    // Given userInfo written with literals
    let userInfo: JSONValue = ["room": "4B", "unread": 3]
    // Then its JSON is what the cases write
    #expect(userInfo.compactText == #"{"room":"4B","unread":3}"#)
  }
}
