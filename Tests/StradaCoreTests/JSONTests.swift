import Testing

@testable import StradaCore

struct JSONTests {
    @Test func nestedObjectsAndArraysSurviveParseAndSerialize() throws {
        let text = #"{"a":{"b":[1,2,{"c":null}],"d":true},"e":"x\"y","f":-1.5e3}"#
        let value = try JSON(parsing: text)
        #expect(try JSON(parsing: value.serialized()) == value)
        #expect(value["a"]?["b"] == [1, 2, ["c": nil]])
        #expect(value["f"] == .number(-1500))
    }

    @Test func equalityIgnoresKeyOrderAndWhitespace() throws {
        #expect(try JSON(parsing: #"{"a":1,"b":[true]}"#) == JSON(parsing: "{ \"b\" : [ true ] ,\n \"a\" : 1.0 }"))
    }

    @Test func sortedSerializationIsByteStable() {
        let value: JSON = ["b": 1, "a": ["z": "1", "y": "2"]]
        #expect(value.serialized(sortedKeys: true) == #"{"a":{"y":"2","z":"1"},"b":1}"#)
    }

    @Test(arguments: [
        ("not json", "invalid literal"),
        ("?", "unexpected character"),
        (#"{"a":1"#, "unexpected end of input"),
        (#"{"a":1} x"#, "unexpected trailing characters"),
        (#""\ud800\u12""#, "truncated \\u escape"),
        ("[01]", "expected ',' or ']'"),
        ("\"a\u{01}\"", "control character in string"),
    ])
    func rejectsMalformedInputWithAReason(input: String, reason: String) {
        #expect(throws: JSONParseError.self) { try JSON(parsing: input) }
        do { _ = try JSON(parsing: input) } catch { #expect(error.reason == reason) }
    }

    @Test(arguments: [
        (#""\ud800""#, "\u{FFFD}"),  // JSON.stringify of a string cut inside an emoji
        (#""\udc00x""#, "\u{FFFD}x"),
        (#""a\ud83d\ude00b""#, "a😀b"),  // a pair is still one scalar
        (#""\ud83d\n""#, "\u{FFFD}\n"),  // a lone high surrogate before another escape keeps that escape
        (#""\ud83d\ud83d\ude00""#, "\u{FFFD}😀"),
    ])
    func loneSurrogateEscapesAreValidJSONAndReadAsTheReplacementCharacter(input: String, expected: String) throws {
        #expect(try JSON(parsing: input) == .string(expected))
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("42", 42), ("-7", -7), ("999999999999999", 999_999_999_999_999),
        ("12345678901234567890", 12_345_678_901_234_567_890), ("1.5", 1.5), ("-2e3", -2000), ("1E-2", 0.01),
    ])
    func numbersReadAsJavaScriptReadsThem(input: String, expected: Double) throws {
        guard case .number(let value) = try JSON(parsing: input) else {
            Issue.record("\(input) is not a number")
            return
        }
        #expect(value == expected && value.sign == expected.sign)
    }

    @Test func aNumberOutOfRangeIsRejected() {
        let error = #expect(throws: JSONParseError.self) { try JSON(parsing: "[1e400]") }
        #expect(error?.reason == "number out of range")
        #expect(throws: JSONParseError.self) { try JSON(parsing: "-") }
    }

    @Test func rejectsNestingDeeperThanTheLimit() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParseError.self) { try JSON(parsing: deep) }
        #expect((try? JSON(parsing: "[[[]]]", limits: JSONLimits(maxDepth: 3))) != nil)
    }

    @Test func rejectsInputLargerThanTheLimit() {
        #expect(throws: JSONParseError.self) {
            try JSON(parsing: "\"" + String(repeating: "x", count: 100) + "\"", limits: JSONLimits(maxBytes: 50))
        }
    }

    @Test func decodesSurrogatePairsAndEscapesLineSeparatorsForScript() throws {
        #expect(try JSON(parsing: #""\ud83d\ude00""#) == .string("😀"))
        #expect(JSON.string("a\u{2028}b\n").serialized() == #""a\u2028b\n""#)
    }
}
