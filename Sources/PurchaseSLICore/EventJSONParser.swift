/// A byte-level parser for one flat JSON event object.
///
/// It reads the known fields of the event format and skips (but fully checks) everything else, so it
/// accepts and rejects exactly the documents that a conforming JSON parser does, while allocating only
/// the strings that it keeps. Tests hold it to Foundation's `JSONSerialization` on generated and
/// hostile input. O(n) in the record's length.
public enum EventJSONParser {
    /// Nesting deeper than this inside an event is rejected.
    public static let maximumDepth = 512

    /// Parses one record (an NDJSON line or an array element) into its known fields.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> RawEvent {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw JSONSyntaxError(offset: 0, message: "empty record")
        }
        var scanner = JSONScanner(base: base, count: bytes.count)
        return try scanner.parseEventObject()
    }

    /// Parses one flat object into its known fields and, besides, the values of `extraKeys` (nil where
    /// absent; of a repeated one, the last): a New Relic event's `eventType` and `uuid`, at the cost of
    /// the event format's own parsing.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer, extraKeys: [String]
    ) throws(JSONSyntaxError) -> (event: RawEvent, extras: [JSONFieldValue?]) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            throw JSONSyntaxError(offset: 0, message: "empty record")
        }
        var scanner = JSONScanner(base: base, count: bytes.count)
        scanner.extraKeys = extraKeys.map { Array($0.utf8) }
        scanner.extraValues = Array(repeating: nil, count: extraKeys.count)
        let event = try scanner.parseEventObject()
        return (event, scanner.extraValues)
    }
}

struct JSONScanner {
    let base: UnsafePointer<UInt8>
    let count: Int
    var position = 0
    /// Keys besides the known fields whose values are read, and their values.
    var extraKeys: [[UInt8]] = []
    var extraValues: [JSONFieldValue?] = []

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    private func fail(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: position, message: message)
    }

    private var current: UInt8? { position < count ? base[position] : nil }

    private mutating func skipWhitespace() {
        while position < count {
            switch base[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func parseEventObject() throws(JSONSyntaxError) -> RawEvent {
        skipWhitespace()
        guard current == UInt8(ascii: "{") else {
            throw fail(position == count ? "empty record" : "expected a JSON object '{'")
        }
        position += 1
        var event = RawEvent()
        var seen: UInt32 = 0  // one bit per known field read so far
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
        } else {
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw fail("expected a key string") }
                let keyStart = position
                let field = try parseKey()
                let extra = field == nil && !extraKeys.isEmpty ? try extraIndex(keyFrom: keyStart) : nil
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
                position += 1
                skipWhitespace()
                if let field {
                    if seen & (1 << field.rawValue) != 0, event.repeatedField == nil { event.repeatedField = field }
                    seen |= 1 << field.rawValue
                }
                if field == .timestamp, let millis = try parseTimestampWithoutEscapes() {
                    event[.timestamp] = nil
                    event.timestampMillis = millis
                } else if let field {
                    if field == .timestamp { event.timestampMillis = nil }
                    event[field] = try parseFieldValue()
                } else if let extra {
                    extraValues[extra] = try parseFieldValue()
                } else {
                    try skipValue()
                }
                skipWhitespace()
                guard let separator = current else { throw fail("unterminated object: expected ',' or '}'") }
                position += 1
                if separator == UInt8(ascii: "}") { break }
                guard separator == UInt8(ascii: ",") else {
                    position -= 1
                    throw fail("expected ',' or '}' after a value")
                }
            }
        }
        skipWhitespace()
        guard position == count else { throw fail("unexpected content after the event object") }
        return event
    }

    /// Which of ``extraKeys`` the key that starts at `start` (its opening quote) and ends before
    /// `position` is, if any.
    private func extraIndex(keyFrom start: Int) throws(JSONSyntaxError) -> Int? {
        let key = UnsafeBufferPointer(start: base + start + 1, count: position - start - 2)
        if !key.contains(UInt8(ascii: "\\")) { return extraKeys.firstIndex { $0.elementsEqual(key) } }
        let name = Array(try decodeEscapedString(from: start + 1, to: position - 1).utf8)
        return extraKeys.firstIndex(of: name)
    }

    /// Reads a key string and returns the known field it names, if any.
    private mutating func parseKey() throws(JSONSyntaxError) -> EventField? {
        let start = position + 1
        let hasEscapes = try scanString()
        if hasEscapes {
            let name = try decodeEscapedString(from: start, to: position - 1)
            return EventField.allCases.first { $0.name == name }
        }
        return EventField(key: UnsafeRawBufferPointer(start: base + start, count: position - 1 - start))
    }

    /// Reads a timestamp string straight from its bytes when it has no escapes and parses as RFC 3339,
    /// sparing the string; otherwise leaves `position` unchanged and returns nil.
    private mutating func parseTimestampWithoutEscapes() throws(JSONSyntaxError) -> Int64? {
        guard current == UInt8(ascii: "\"") else { return nil }
        let start = position
        guard try !scanString() else {
            position = start
            return nil
        }
        let text = UnsafeRawBufferPointer(start: base + start + 1, count: position - start - 2)
        guard let millis = RFC3339.parseMillis(bytes: text) else {
            position = start
            return nil
        }
        return millis
    }

    private mutating func parseFieldValue() throws(JSONSyntaxError) -> JSONFieldValue {
        guard let byte = current else { throw fail("expected a value") }
        switch byte {
        case UInt8(ascii: "\""):
            let start = position + 1
            let hasEscapes = try scanString()
            if hasEscapes { return .string(try decodeEscapedString(from: start, to: position - 1)) }
            let buffer = UnsafeBufferPointer(start: base + start, count: position - 1 - start)
            return .string(String(decoding: buffer, as: UTF8.self))  // scanString validated the UTF-8
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "["):
            try skipValue()
            return .array
        case UInt8(ascii: "{"):
            try skipValue()
            return .object
        default: throw fail("expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let length = literal.utf8CodeUnitCount
        guard count - position >= length,
            memcmpEqual(base + position, literal.utf8Start, length)
        else { throw fail("invalid literal") }
        position += length
    }

    /// Scans a string starting at the opening quote; leaves `position` after the closing quote.
    /// Checks escapes, control characters and UTF-8. Returns whether the string has escapes.
    private mutating func scanString() throws(JSONSyntaxError) -> Bool {
        position += 1
        var hasEscapes = false
        while position < count {
            skipPlainASCII()
            guard position < count else { break }
            let byte = base[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return hasEscapes
            } else if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                guard position + 1 < count else { break }
                switch base[position + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 2
                case UInt8(ascii: "u"):
                    guard position + 6 <= count,
                        (2..<6).allSatisfy({ hexValue(base[position + $0]) != nil })
                    else { throw fail("invalid \\u escape") }
                    position += 6
                default:
                    throw fail("invalid escape in string")
                }
            } else if byte < 0x20 {
                throw fail("control character in string")
            } else if byte < 0x80 {
                position += 1
            } else {
                guard let length = utf8SequenceLength(at: position) else { throw fail("invalid UTF-8 in string") }
                position += length
            }
        }
        throw fail("unterminated string")
    }

    /// Skips whole 8-byte words of printable ASCII that hold no quote or backslash (SWAR). The tests
    /// may report a word falsely, which only sends it to the byte-by-byte loop; they never miss one.
    @inline(__always)
    private mutating func skipPlainASCII() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= count {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let controls = (word &- ones &* 0x20) & ~word
            let special = (quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | controls | word
            if special & highs != 0 { return }
            position += 8
        }
    }

    /// Length of the valid UTF-8 sequence at `index` (first byte ≥ 0x80), or nil.
    private func utf8SequenceLength(at index: Int) -> Int? {
        let lead = base[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: return nil
        }
        guard index + length <= count else { return nil }
        let second = base[index + 1]
        guard second >= lower, second <= upper else { return nil }
        for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return nil }
        return length
    }

    /// Decodes a string with escapes between two byte offsets (already checked by ``scanString()``).
    private func decodeEscapedString(from start: Int, to end: Int) throws(JSONSyntaxError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(end - start)
        var index = start
        while index < end {
            let byte = base[index]
            guard byte == UInt8(ascii: "\\") else {
                bytes.append(byte)
                index += 1
                continue
            }
            let escape = base[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hexQuad(at: index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 6 <= end, base[index] == UInt8(ascii: "\\"), base[index + 1] == UInt8(ascii: "u")
                    else { throw JSONSyntaxError(offset: index, message: "unpaired surrogate in \\u escape") }
                    let low = hexQuad(at: index + 2)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw JSONSyntaxError(offset: index, message: "unpaired surrogate in \\u escape")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw JSONSyntaxError(offset: index - 6, message: "unpaired surrogate in \\u escape")
                }
                bytes.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            default: bytes.append(escape)  // \" \\ \/
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func hexQuad(at index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 4 | UInt32(hexValue(base[index + $1])!) }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = position
        var isNegative = false
        if current == UInt8(ascii: "-") {
            isNegative = true
            position += 1
        }
        var integer: Int64 = 0
        var integerDigits = 0
        guard let first = current, first.isASCIIDigit else { throw fail("invalid number") }
        if first == UInt8(ascii: "0") {
            position += 1
            integerDigits = 1
        } else {
            while let byte = current, byte.isASCIIDigit {
                if integerDigits < 18 { integer = integer * 10 + Int64(byte - UInt8(ascii: "0")) }
                integerDigits += 1
                position += 1
            }
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let byte = current, byte.isASCIIDigit else { throw fail("invalid number: digit expected after '.'") }
            while let byte = current, byte.isASCIIDigit { position += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let byte = current, byte.isASCIIDigit else { throw fail("invalid number: digit expected in exponent") }
            while let byte = current, byte.isASCIIDigit { position += 1 }
        }
        if isInteger && integerDigits <= 15 {
            return Double(isNegative ? -integer : integer)
        }
        let literal = String(decoding: UnsafeBufferPointer(start: base + start, count: position - start), as: UTF8.self)
        return Double(literal) ?? .nan
    }

    /// Skips one value of any type, checking its syntax, without building it.
    private mutating func skipValue() throws(JSONSyntaxError) {
        var closers: [UInt8] = []  // the closing bracket of each open container
        while true {
            skipWhitespace()
            guard let byte = current else { throw fail("expected a value") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard closers.count < EventJSONParser.maximumDepth else { throw fail("nesting too deep") }
                position += 1
                skipWhitespace()
                let closer = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if current == closer {
                    position += 1
                } else {
                    closers.append(closer)
                    if closer == UInt8(ascii: "}") { try skipKeyAndColon() }
                    continue
                }
            case UInt8(ascii: "\""): _ = try scanString()
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parseNumber()
            case UInt8(ascii: "t"): try expectLiteral("true")
            case UInt8(ascii: "f"): try expectLiteral("false")
            case UInt8(ascii: "n"): try expectLiteral("null")
            default: throw fail("expected a value")
            }
            // After a complete value: close containers or move to the next element.
            while let closer = closers.last {
                skipWhitespace()
                guard let next = current else { throw fail("unterminated array or object") }
                if next == closer {
                    position += 1
                    closers.removeLast()
                } else if next == UInt8(ascii: ",") {
                    position += 1
                    if closer == UInt8(ascii: "}") { try skipKeyAndColon() }
                    break
                } else {
                    throw fail("expected ',' or '\(Character(Unicode.Scalar(closer)))'")
                }
            }
            if closers.isEmpty { return }
        }
    }

    private mutating func skipKeyAndColon() throws(JSONSyntaxError) {
        skipWhitespace()
        guard current == UInt8(ascii: "\"") else { throw fail("expected a key string") }
        _ = try scanString()
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
        position += 1
    }
}

private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

private func memcmpEqual(_ lhs: UnsafePointer<UInt8>, _ rhs: UnsafePointer<UInt8>, _ length: Int) -> Bool {
    for index in 0..<length where lhs[index] != rhs[index] { return false }
    return true
}
