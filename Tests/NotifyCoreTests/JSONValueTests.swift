import Foundation
import Testing

@testable import NotifyCore

@Suite("JSONValue: parse and write")
struct JSONValueTests {
  @Test(
    "compact text round-trips through parse",
    arguments: [
      "null", "true", "false", "0", "-42", "9223372036854775807", "1.5", "-0.25", "\"text\"", "[]", "{}",
      "[1,\"two\",[3],{\"four\":4}]",
      "{\"a\":{\"b\":[true,null]},\"room\":\"4B\"}",
      "\"quote \\\" backslash \\\\ newline \\n tab \\t cr \\r\"",
      "\"ctl \\u0001 del \\u007f sep \\u2028\"",
      "\"ünïcødé ✓ 🎉\"",
    ])
  func roundTrip(text: String) throws {
    // Given compact JSON text; When parsed and written again
    let value = try JSONValue.parse(text)
    // Then the text is identical and parsing it again gives the same value
    #expect(value.compactText == text)
    #expect(try JSONValue.parse(value.compactText) == value)
  }

  @Test("the UTF-8 writer gives the bytes of the text writer, escapes and sorted keys included")
  func bytesAreTheText() throws {
    // Given values of every kind, with text that needs escaping and text that does not
    let values: [JSONValue] = [
      .null, .bool(true), .int(-42), .double(1.5), .double(3), .double(.infinity), .string("plain"),
      .string("quote \" backslash \\ newline \n ctl \u{01} del \u{7f} sep \u{2028} ✓ 🎉"),
      .array([.int(1), .string("two"), .array([]), .object([:])]),
      .object(["b": .int(1), "a": .object(["é\n": .string("x")]), "z": .null]),
    ]
    for value in values {
      // When written as bytes; Then they are the text's
      var bytes: [UInt8] = []
      value.write(to: &bytes)
      #expect(bytes == Array(value.compactText.utf8))
    }
    // And a record's line is its text, members in order
    var record = JSONRecord()
    record.set("id", "n\u{2029}1")
    record.set("badge", nil as Int?)
    record.set("info", .object(["k": .string("v"), "a": .bool(false)]))
    #expect(record.compactUTF8 == Array(record.compactText.utf8))
  }

  @Test("numbers keep their kind: integers stay integers, 1 is not true")
  func numberKinds() throws {
    #expect(try JSONValue.parse("1") == .int(1))
    #expect(try JSONValue.parse("true") == .bool(true))
    #expect(try JSONValue.parse("0.5") == .double(0.5))
    #expect(try JSONValue.parse("[1,true]") == .array([.int(1), .bool(true)]))
  }

  @Test("object keys are written sorted, whatever the input order")
  func sortedKeys() throws {
    #expect(try JSONValue.parse("{ \"b\" : 1, \"a\" : [ 2 , 3 ] }").compactText == "{\"a\":[2,3],\"b\":1}")
  }

  @Test("values survive Codable encoding and decoding")
  func codable() throws {
    let value = JSONValue.object([
      "n": .int(-7), "d": .double(2.5), "s": .string("x\ny"), "b": .bool(false), "z": .null,
      "a": .array([.int(1), .string("2")]),
    ])
    let data = try JSONEncoder().encode(value)
    #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
  }

  @Test("whole doubles are written without a fraction, non-finite ones as null")
  func doubles() {
    #expect(JSONValue.double(2).compactText == "2")
    #expect(JSONValue.double(.infinity).compactText == "null")
    #expect(JSONValue.double(.nan).compactText == "null")
    #expect(JSONValue.double(1e20).compactText.contains("e"))
  }

  @Test(
    "invalid JSON is invalid data with a fix",
    arguments: ["", "{", "{'a':1}", "[1 2]", "{\"a\" 1}", "nul", "{\"a\":1}x"])
  func invalid(text: String) {
    let error = #expect(throws: NotifyError.self) { try JSONValue.parse(text) }
    #expect(error?.kind == .invalidData)
    #expect(error?.fix != nil)
  }

  @Test("JSONRecord keeps insertion order and writes nil as null")
  func record() {
    var record = JSONRecord()
    record.set("id", "n1")
    record.set("badge", nil as Int?)
    record.set("count", 3)
    record.set("info", .object(["k": .string("v")]))
    #expect(record.compactText == "{\"id\":\"n1\",\"badge\":null,\"count\":3,\"info\":{\"k\":\"v\"}}")
    #expect(
      record.prettyText()
        == "{\n  \"id\": \"n1\",\n  \"badge\": null,\n  \"count\": 3,\n  \"info\": {\"k\":\"v\"}\n}")
  }
}
