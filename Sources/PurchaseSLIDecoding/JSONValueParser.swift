import PurchaseSLICore

/// Reads one JSON text into a ``JSONValue`` in one pass: time linear in the input, nesting at most
/// ``maximumDepth`` (so neither a deep array nor a long one costs more than its bytes), strings checked
/// as UTF-8, an object's repeated key refused rather than one of its values guessed at.
struct JSONValueParser {
    /// Deepest nesting of arrays and objects read; an OTLP export needs about 12.
    static let maximumDepth = 64

    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Parses one JSON text (whitespace around it allowed, nothing else).
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONValueParser(bytes)
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected content after the JSON value") }
        return value
    }

    mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw failure("the input ended where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case let byte: throw failure("unexpected \(Self.describe(byte)) where a value was expected")
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        var members: [JSONValue.Member] = []
        try self.members(depth: depth) { (key, parser) throws(JSONSyntaxError) in
            members.append(JSONValue.Member(key: key, value: try parser.value(depth: depth)))
        }
        return .object(members.sorted { $0.key < $1.key })
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        var values: [JSONValue] = []
        try elements(depth: depth) { (parser) throws(JSONSyntaxError) in values.append(try parser.value(depth: depth)) }
        return .array(values)
    }

    /// The members of the object at the parser (`{` next), each handed to `member` with the parser at its
    /// value, which `member` must read; a repeated key is refused. - Returns: false, having read the value,
    /// when it is not an object.
    @discardableResult
    mutating func members(depth: Int, _ member: (String, inout JSONValueParser) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            try skipValue(depth: depth - 1)
            return false
        }
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) arrays and objects") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return true
        }
        // Keys seen: a list while few (most objects), a set past 16, so a large object costs no more than its keys.
        var keys: [String] = []
        var manyKeys: Set<String> = []
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("expected a string key in an object") }
            let key = try string()
            let isRepeated = keys.count < 16 ? keys.contains(key) : !manyKeys.insert(key).inserted
            if isRepeated {
                throw JSONSyntaxError(offset: index - 1, message: "the key \(JSONText.quoted(key)) appears more than once in an object")
            }
            if keys.count < 16 {
                keys.append(key)
                if keys.count == 16 { manyKeys = Set(keys) }
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':' after an object key") }
            index += 1
            try member(key, &self)
            skipWhitespace()
            guard index < bytes.count else { throw failure("the input ended inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}' in an object") }
            index += 1
            return true
        }
    }

    /// The elements of the array at the parser, each handed to `element` with the parser at it, which
    /// `element` must read. - Returns: false, having read the value, when it is not an array.
    @discardableResult
    mutating func elements(depth: Int, _ element: (inout JSONValueParser) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "[") else {
            try skipValue(depth: depth - 1)
            return false
        }
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) arrays and objects") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return true
        }
        while true {
            try element(&self)
            skipWhitespace()
            guard index < bytes.count else { throw failure("the input ended inside an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']' in an array") }
            index += 1
            return true
        }
    }

    /// Reads and checks the value at the parser, keeping nothing.
    mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        _ = try value(depth: depth)
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        index += 1  // the opening quote
        let start = index
        // The common case: no escape, so the string is its bytes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try utf8(start..<index)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("a raw control character in a string (escape it)") }
            index += 1
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: try utf8(start..<index).unicodeScalars)
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                scalars.append(try escape())
            case ..<0x20:
                throw failure("a raw control character in a string (escape it)")
            default:
                let runStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
                    index += 1
                }
                scalars.append(contentsOf: try utf8(runStart..<index).unicodeScalars)
            }
        }
        throw failure("the input ended inside a string")
    }

    /// The bytes of `range` as text. ASCII, the common case, is taken as it is (`String(validating:)`
    /// looks up generic metadata on every call, most of the cost of a short string); anything else is
    /// validated as UTF-8.
    private func utf8(_ range: Range<Int>) throws(JSONSyntaxError) -> String {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range])
        if !slice.contains(where: { $0 >= 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let text = String(validating: slice, as: UTF8.self) else {
            throw JSONSyntaxError(offset: range.lowerBound, message: "a string that is not valid UTF-8")
        }
        return text
    }

    private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        index += 1  // the backslash
        guard index < bytes.count else { throw failure("the input ended inside a string") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hexCode()
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure("a lone UTF-16 surrogate in a \\u escape")
                }
                index += 2
                let low = try hexCode()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("a lone UTF-16 surrogate in a \\u escape") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw failure("a lone UTF-16 surrogate in a \\u escape") }
            return scalar
        default:
            index -= 1
            throw failure("an unknown escape \\\(Self.describe(byte))")
        }
    }

    private mutating func hexCode() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("expected four hexadecimal digits after \\u") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("expected four hexadecimal digits after \\u")
            }
            code = code << 4 | UInt32(digit)
            index += 1
        }
        return code
    }

    /// A number as RFC 8259 writes it: `-`? (`0` | [1-9][0-9]*) (`.` [0-9]+)? ([eE] [+-]? [0-9]+)?
    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw failure("expected a digit in a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw failure("expected a digit after a decimal point") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw failure("expected a digit in an exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text), number.isFinite else {
            throw JSONSyntaxError(offset: start, message: "a number too large for a double")
        }
        return number
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeRawBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard index + expected.count <= bytes.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw failure("expected \(word)")
        }
        index += expected.count
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    mutating func skipWhitespace() {
        while index < bytes.count, JSONWhitespace.contains(bytes[index]) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func failure(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: reason)
    }

    /// A byte as an error names it: `'x'` when printable ASCII, else its hexadecimal value.
    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
