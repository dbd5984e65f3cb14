import Foundation
import PurchaseSLICore
import Testing

/// The encoder every JSON answer is written by: keys in the order of declaration, an absent optional as
/// `null` (or left out when wrapped in ``JSONOmittedIfAbsent``), text and numbers as ``JSONText`` writes
/// them, and JSON that a standard parser reads back as the value.
@Suite struct JSONTextEncoderTests {
    private struct Labelled: Encodable {
        struct Span: Encodable {
            let from: JSONTime
            let to: JSONTime?
        }

        let zebra: String
        let apple: Int64
        let missing: String?
        let rate: Double?
        let share: Double
        let flags: [Bool]
        let span: Span
        let labels: JSONMembers<String>
        let note: JSONOmittedIfAbsent<String>
        let cause: JSONOmittedIfAbsent<String>
    }

    private static let value = Labelled(
        zebra: "z\"\\\n\u{1}\u{2028}é", apple: -3, missing: nil, rate: nil, share: 0.25, flags: [true, false],
        span: .init(from: JSONTime(1_794_650_400), to: nil), labels: JSONMembers([("productID", "coins_100"), ("actionType", "purchase")]),
        note: JSONOmittedIfAbsent(nil), cause: JSONOmittedIfAbsent("late"))

    @Test("members in the order of declaration, null for an absent optional, a JSONOmittedIfAbsent without a value left out")
    func writesTheDeclaredShape() {
        #expect(
            JSONTextEncoder.text(Self.value)
                == #"{"zebra":"z\"\\\n\u0001\u2028é","apple":-3,"missing":null,"rate":null,"share":0.25,"flags":[true,false],"#
                + #""span":{"from":"2026-11-14T10:00:00Z","to":null},"labels":{"productID":"coins_100","actionType":"purchase"},"cause":"late"}"#)
    }

    @Test("text and numbers as JSONText writes them", arguments: ["", "plain", "quote\" back\\slash", "tab\tnew\nline", "\u{7F}\u{0}", "ü 🚀"])
    func textIsQuotedAsJSONTextQuotes(text: String) {
        #expect(JSONTextEncoder.text(text) == JSONText.quoted(text))
        #expect(JSONTextEncoder.text([text]) == JSONText.array([text]))
    }

    @Test(
        "doubles as JSONText writes them: whole numbers without a fraction, null when not finite",
        arguments: [0, 1, -2.5, 1e20, 0.1, .infinity, .nan])
    func numbersAreWrittenAsJSONTextNumbers(number: Double) {
        #expect(JSONTextEncoder.text(number) == JSONText.number(number))
    }

    @Test("a time with milliseconds keeps them; whole seconds have none")
    func timesAreRFC3339() {
        #expect(JSONTextEncoder.text(JSONTime(millis: 1_794_650_400_250)) == #""2026-11-14T10:00:00.250Z""#)
        #expect(JSONTextEncoder.text(JSONTime(millis: 1_794_650_400_000)) == #""2026-11-14T10:00:00Z""#)
    }

    @Test("what it writes, a standard parser reads back as the value")
    func parsesBack() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(JSONTextEncoder.text(Self.value).utf8)) as? [String: Any])
        #expect(object["zebra"] as? String == "z\"\\\n\u{1}\u{2028}é")
        #expect(object["apple"] as? Int == -3)
        #expect(object["missing"] is NSNull)
        #expect((object["labels"] as? [String: String]) == ["productID": "coins_100", "actionType": "purchase"])
        #expect(object["note"] == nil)
        #expect(object["cause"] as? String == "late")
    }

    @Test("a member encoded twice keeps its first place and its last value")
    func aRepeatedKeyIsReplaced() {
        let members = JSONMembers([("a", 1), ("b", 2), ("a", 3)])
        #expect(JSONTextEncoder.text(members) == #"{"a":3,"b":2}"#)
    }

    @Test("an array of nothing, an object of nothing")
    func emptyContainers() {
        #expect(JSONTextEncoder.text([String]()) == "[]")
        #expect(JSONTextEncoder.text(JSONMembers<String>([])) == "{}")
    }
}
