import Foundation
import PurchaseSLICore
import Testing

@testable import PurchaseSLIDecoding

/// Foundation's reading of a JSON text, as a ``JSONValue`` (nil when it refuses the text).
private func reference(_ text: String) -> JSONValue? {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return nil }
    func convert(_ value: Any) -> JSONValue {
        switch value {
        case is NSNull: return .null
        case let string as String: return .string(string)
        case let number as NSNumber where String(cString: number.objCType) == "c": return .bool(number.boolValue)
        case let number as NSNumber: return .number(number.doubleValue)
        case let array as [Any]: return .array(array.map(convert))
        case let object as [String: Any]:
            return .object(object.map { JSONValue.Member(key: $0.key, value: convert($0.value)) }.sorted { $0.key < $1.key })
        default: fatalError("unexpected \(type(of: value))")
        }
    }
    return convert(object)
}

private func parsed(_ text: String) -> Result<JSONValue, JSONSyntaxError> {
    Array(text.utf8).withUnsafeBytes { bytes in Result { () throws(JSONSyntaxError) in try JSONValueParser.parse(bytes) } }
}

@Suite("The JSON reader of New Relic and OTLP records: Foundation's verdicts in one linear pass, nesting bounded")
struct JSONValueParserTests {
    @Test(
        "the same value as JSONSerialization, or both refuse",
        arguments: [
            #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#, #"  [1, -0.5, 2e3, 1E-2, 0]  "#, #""plain""#, "12", "-0", "true",
            #""\u00e9\ud83d\ude00 \" \\ \/ \b\f\n\r\t""#, #""é😀""#, "{}", "[]", #"{"":""}"#, "[[[[[]]]]]",
            "", " ", "{", "[01]", "[1.]", "[.5]", "[1e]", "[+1]", "[-]", "tru", "nul", "[true false]",
            #"{"a" 1}"#, #"{a:1}"#, "{'a':1}", "[1] 2", "\"raw\ttab\"", #""\x""#, #""\u12""#, "[NaN]", "[Infinity]", "\"unterminated",
            #"{"a":1}}"#, "]", "[\"a\"\"b\"]", "\u{1}",
        ])
    func sameAsFoundation(text: String) {
        switch (parsed(text), reference(text)) {
        case let (.success(mine), theirs?): #expect(mine == theirs, "\(text)")
        case (.failure, nil): break
        case let (mine, theirs): Issue.record("\(text): \(mine) vs Foundation \(String(describing: theirs))")
        }
    }

    @Test("refused where Foundation guesses or bends RFC 8259: a repeated key, a trailing comma, invalid UTF-8, a lone surrogate, nesting past 64")
    func stricterThanFoundation() throws {
        for trailingComma in ["[1,]", #"{"a":1,}"#] {
            #expect(throws: JSONSyntaxError.self) { try Array(trailingComma.utf8).withUnsafeBytes { try JSONValueParser.parse($0) } }
        }
        #expect(throws: JSONSyntaxError.self) { try Array(#"{"k":1,"k":2}"#.utf8).withUnsafeBytes { try JSONValueParser.parse($0) } }
        #expect(throws: JSONSyntaxError.self) { try ([0x22, 0xC3, 0x28, 0x22] as [UInt8]).withUnsafeBytes { try JSONValueParser.parse($0) } }
        #expect(throws: JSONSyntaxError.self) { try Array(#""\ud800x""#.utf8).withUnsafeBytes { try JSONValueParser.parse($0) } }
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try Array(deepest.utf8).withUnsafeBytes { try JSONValueParser.parse($0) } }
        let deeper = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        guard case .failure(let error) = parsed(deeper) else {
            Issue.record("65 levels read")
            return
        }
        #expect(error.description == "invalid JSON at byte 65: nested deeper than 64 arrays and objects")
        // An attacker's nesting costs one pass: 100,000 open brackets are refused at the 65th.
        guard case .failure(let deep) = parsed(String(repeating: "[", count: 100_000)) else {
            Issue.record("read")
            return
        }
        #expect(deep.offset == 64)
    }

    @Test("an object of 20,000 keys is read, and a key repeated at its end is refused")
    func manyKeys() {
        let keys = (0..<20_000).map { "\"k\($0)\":\($0)" }
        guard case .success(.object(let members)) = parsed("{" + keys.joined(separator: ",") + "}") else {
            Issue.record("not read")
            return
        }
        #expect(members.count == 20_000)
        guard case .failure(let error) = parsed("{" + keys.joined(separator: ",") + ",\"k17\":0}") else {
            Issue.record("read")
            return
        }
        #expect(error.message == "the key \"k17\" appears more than once in an object")
    }

    @Test(
        "errors name what was expected and the byte",
        arguments: [
            ("[1,]", "invalid JSON at byte 4: unexpected ']' where a value was expected"),
            (#"{"a" 1}"#, "invalid JSON at byte 6: expected ':' after an object key"),
            ("\"a\tb\"", "invalid JSON at byte 3: a raw control character in a string (escape it)"),
            ("[1] 2", "invalid JSON at byte 5: unexpected content after the JSON value"),
            ("[1e999]", "invalid JSON at byte 2: a number too large for a double"),
        ])
    func errors(text: String, message: String) {
        guard case .failure(let error) = parsed(text) else {
            Issue.record("\(text) read")
            return
        }
        #expect(error.description == message)
    }
}
