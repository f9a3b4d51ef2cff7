import Foundation
import Testing

@testable import StradaCore

struct MessageTests {
    static let wire: JSON = [
        "id": "1", "component": "form", "event": "connect",
        "data": [
            "submitTitle": "Send", "nested": ["list": [1, ["deep": true]]], "metadata": ["url": "https://app.test/new"],
        ],
    ]

    @Test("M1 a message carries id, component, event, metadata and all of data as jsonData")
    func parsesTheWireObjectKeepingAllOfData() throws {
        let message = try Message(wire: Self.wire)
        #expect(message.id == "1")
        #expect(message.component == "form")
        #expect(message.event == "connect")
        #expect(message.metadata == Message.Metadata(url: "https://app.test/new"))
        #expect(message.dataValue == Self.wire["data"])
    }

    @Test("M6 nested objects and arrays survive to the reply wire") func nestedDataSurvivesTheRoundTripToTheReplyWire()
        throws
    {
        let message = try Message(wire: Self.wire)
        #expect(message.wire() == Self.wire)
    }

    /// What the plugin SDK builds from a message the host has read (the parsed-messages extension): the same
    /// message, replies resend the page's text, and data() reads a repeated key as the page does (last wins).
    @Test func aMessageTheHostReadIsTheMessageOfItsText() throws {
        struct Fields: Decodable, Equatable { let a: Int }
        let wire = #"{"id":"9","component":"form","event":"e","data":{"a":1,"a":2,"metadata":{"url":"u"}}}"#
        let read = Message(
            receivedID: "9", component: "form", event: "e", metadataURL: "u",
            jsonData: #"{"a":1,"a":2,"metadata":{"url":"u"}}"#, wire: wire)
        #expect(read == (try Message(wireText: wire)))
        #expect(read.wireText() == wire)
        #expect(read.data() == Fields(a: 2))
        let bare = Message(receivedID: "1", component: "form", event: "e", metadataURL: nil, jsonData: "", wire: "")
        #expect(bare.jsonData == "{}")
        #expect(bare.metadata == nil)
        #expect(bare.wireText() == #"{"id":"1","component":"form","event":"e","data":{}}"#)
    }

    @Test("M1 missing data becomes an empty object") func missingDataBecomesAnEmptyObject() throws {
        let message = try Message(wire: ["id": "2", "component": "form", "event": "submitEnabled"])
        #expect(message.jsonData == "{}")
        #expect(message.metadata == nil)
    }

    @Test(
        arguments: [
            (JSON.string("hello"), "message is not a JSON object"),
            (["component": "form", "event": "x"], "message has no string \"id\""),
            (["id": 1, "component": "form", "event": "x"], "message has no string \"id\""),
            (["id": "1", "event": "x"], "message 1 has no string \"component\""),
            (["id": "1", "component": "form"], "message 1 has no string \"event\""),
            (
                ["id": "1", "component": "form", "event": "x", "data": [1]],
                "message 1 has \"data\" that is not an object"
            ),
        ] as [(JSON, String)])
    func rejectsMalformedWireObjects(wire: JSON, reason: String) {
        #expect(throws: MalformedMessage(reason: reason)) { try Message(wire: wire) }
    }

    @Test("M5 equality compares jsonData by JSON value") func equalityComparesDataByValue() {
        let a = Message(id: "1", component: "c", event: "e", metadata: nil, jsonData: #"{"a":1,"b":{"c":[1,2]}}"#)
        let b = Message(
            id: "1", component: "c", event: "e", metadata: nil, jsonData: #"{ "b": {"c": [1, 2]}, "a": 1 }"#)
        let c = Message(id: "1", component: "c", event: "e", metadata: nil, jsonData: #"{"a":1,"b":{"c":[2,1]}}"#)
        #expect(a == b)
        #expect(a != c)
    }

    @Test("M2 replacing keeps id, component and metadata; nil keeps the value; no validation")
    func replacingKeepsIdentityAndChangesOnlyWhatIsGiven() {
        let original = Message(id: "1", component: "c", event: "e", metadata: .init(url: "u"), jsonData: "{}")
        let replaced = original.replacing(event: "f", jsonData: "not validated")
        #expect(replaced.id == "1" && replaced.component == "c" && replaced.metadata == original.metadata)
        #expect(replaced.event == "f" && replaced.jsonData == "not validated")
        #expect(original.replacing() == original)
    }
}

/// Touches the global `Strada.config`, so its tests run one at a time.
@Suite(.serialized)
struct CodecConfigurationTests {
    struct Payload: Codable, Equatable { let submitTitle: String }

    @Test("M3 M4 J1 the configured codec decodes and encodes data (snake_case)")
    func snakeCaseDecoderTurnsSubmitUnderscoreTitleIntoSubmitTitle() {
        Strada.withConfig(StradaConfig()) {
            Strada.config.codec = CodecSettings(keys: .snakeCase)
            let message = Message(
                id: "1", component: "form", event: "connect", metadata: nil, jsonData: #"{"submit_title":"Go"}"#)
            #expect(message.data() == Payload(submitTitle: "Go"))
            #expect(message.replacing(data: Payload(submitTitle: "Ok")).jsonData == #"{"submit_title":"Ok"}"#)
        }
    }

    @Test("M4 data() returns nil when the data does not fit") func dataReturnsNilWhenItDoesNotFit() {
        let message = Message(id: "1", component: "form", event: "connect", metadata: nil, jsonData: #"{"other":1}"#)
        let payload: Payload? = message.data()
        #expect(payload == nil)
    }

    @Test func codecSettingsRoundTripThroughTheirJSONForm() {
        let settings = CodecSettings(keys: .snakeCase, dates: .iso8601)
        #expect(settings.json == #"{"dates":"iso8601","keys":"snakeCase"}"#)
        #expect(CodecSettings(json: settings.json) == settings)
        #expect(CodecSettings(json: "garbage") == CodecSettings())
    }
}
