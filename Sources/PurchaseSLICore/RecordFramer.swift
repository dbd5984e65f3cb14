#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a stream of bytes into event records: NDJSON lines, or the elements of a JSON array.
///
/// The format is chosen from the first non-blank byte (`[` means a JSON array). Feed it chunks of any
/// size; it hands out each complete record once, with its position, and keeps only an unfinished tail,
/// so memory stays bounded by ``maximumRecordBytes`` whatever the input size. Pure: no I/O.
public struct RecordFramer {
    /// Where a record stands in its input.
    public struct Position: Sendable, Hashable {
        /// 1-based line on which the record starts.
        public var line: Int
        /// 0-based ordinal of the record among the non-blank records (NDJSON lines or array elements).
        public var index: Int

        /// Creates a position.
        public init(line: Int, index: Int) {
            self.line = line
            self.index = index
        }
    }

    /// One record, or a problem at a position in the input.
    public enum Record {
        /// The record's bytes, valid only during the callback.
        case bytes(UnsafeRawBufferPointer, Position)
        /// A record that cannot be parsed, with the reason.
        case rejected(EventValidationError, Position)
    }

    /// `broken`: the array's structure was lost at an element (a closing bracket that matches no opening
    /// one, a raw control character inside a string), or content followed its closing bracket; that
    /// element or content and the rest were rejected as one, and nothing more is read.
    private enum Mode { case undecided, lines, array, arrayEnded, broken }

    /// Records longer than this are rejected without being buffered.
    public let maximumRecordBytes: Int
    private var mode = Mode.undecided
    private var tail: [UInt8] = []
    private var line = 1
    private var recordLine = 1
    private var nextIndex = 0
    private var isSkippingLongRecord = false
    // Array state: the brackets open inside the current element, and whether the scanner is in a string.
    private var openBrackets: [UInt8] = []
    private var inString = false
    private var escaped = false
    private var elementHasContent = false

    /// Creates a framer that rejects records over `maximumRecordBytes`.
    public init(maximumRecordBytes: Int = 1 << 20) {
        self.maximumRecordBytes = maximumRecordBytes
    }

    /// Feeds the next chunk of input and emits every record it completes. O(chunk size).
    ///
    /// After `emit` throws, the framer is fed no more. Typed throws rather than `rethrows`: Swift 6.3
    /// compiles a `rethrows` method that throws out of `Array.withUnsafeBytes` so that the error and the
    /// method's `self` come back corrupt (a crash on the first record past a limit).
    public mutating func feed<Failure: Error>(_ chunk: UnsafeRawBufferPointer, emit: (Record) throws(Failure) -> Void) throws(Failure) {
        var start = 0
        if mode == .undecided {
            start = try decideMode(chunk, emit: emit)
            if mode == .undecided { return }
        }
        switch mode {
        case .lines: try feedLines(chunk, from: start, emit: emit)
        case .array, .arrayEnded: try feedArray(chunk, from: start, emit: emit)
        case .undecided, .broken: break
        }
    }

    /// Signals the end of input; emits the final unterminated record or a structural error.
    public mutating func finish<Failure: Error>(emit: (Record) throws(Failure) -> Void) throws(Failure) {
        switch mode {
        case .undecided, .arrayEnded, .broken:
            return
        case .lines:
            if !isSkippingLongRecord, !tail.isEmpty { try emitTail(emit) }
        case .array:
            let position = Position(line: recordLine, index: nextIndex)
            if elementHasContent || !openBrackets.isEmpty {
                try emit(.rejected(Self.restNotRead(from: nextIndex, because: "the input ended before the array's ']'"), position))
                nextIndex += 1
            } else {
                try emit(
                    .rejected(
                        EventValidationError(field: "json", reason: "unterminated JSON array: input ended before ']'"), position))
            }
        }
        tail = []
    }

    private mutating func decideMode<Failure: Error>(_ chunk: UnsafeRawBufferPointer, emit: (Record) throws(Failure) -> Void) throws(Failure) -> Int {
        var offset = 0
        while offset < chunk.count {
            let byte = chunk[offset]
            if byte == 0x0A {
                line += 1
            } else if byte == UInt8(ascii: "[") {
                mode = .array
                recordLine = line
                return offset + 1
            } else if byte == 0xEF || byte == 0xBB || byte == 0xBF || byte == 0x20 || byte == 0x09 || byte == 0x0D {
                // whitespace or a UTF-8 byte-order mark before the first record
            } else {
                // NDJSON: its first record starts here, after any blank lines and byte-order mark.
                mode = .lines
                return offset
            }
            offset += 1
        }
        return offset
    }

    private mutating func feedLines<Failure: Error>(
        _ chunk: UnsafeRawBufferPointer, from start: Int, emit: (Record) throws(Failure) -> Void
    ) throws(Failure) {
        var lineStart = start
        var offset = start
        while offset < chunk.count {
            guard let newline = firstNewline(in: chunk, from: offset) else { break }
            if isSkippingLongRecord {
                isSkippingLongRecord = false
            } else if tail.isEmpty {
                try emitLine(UnsafeRawBufferPointer(rebasing: chunk[lineStart..<newline]), emit)
            } else {
                if tail.count + newline - lineStart > maximumRecordBytes {
                    try rejectLong(emit)
                } else {
                    tail.append(contentsOf: chunk[lineStart..<newline])
                    try emitTail(emit)
                }
            }
            tail.removeAll(keepingCapacity: true)
            line += 1
            offset = newline + 1
            lineStart = offset
        }
        guard lineStart < chunk.count, !isSkippingLongRecord else { return }
        if tail.count + chunk.count - lineStart > maximumRecordBytes {
            try rejectLong(emit)
            tail.removeAll()
            isSkippingLongRecord = true
        } else {
            tail.append(contentsOf: chunk[lineStart...])
        }
    }

    private func firstNewline(in chunk: UnsafeRawBufferPointer, from offset: Int) -> Int? {
        guard offset < chunk.count, let found = memchr(chunk.baseAddress! + offset, 0x0A, chunk.count - offset) else {
            return nil
        }
        return chunk.baseAddress!.distance(to: UnsafeRawPointer(found))
    }

    private mutating func emitTail<Failure: Error>(_ emit: (Record) throws(Failure) -> Void) throws(Failure) {
        let record = tail
        try record.span.withUnsafeBytes { (bytes) throws(Failure) in try emitLine(bytes, emit) }
    }

    private mutating func emitLine<Failure: Error>(_ bytes: UnsafeRawBufferPointer, _ emit: (Record) throws(Failure) -> Void) throws(Failure) {
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return }
        if bytes.count > maximumRecordBytes {
            try rejectLong(emit)
            return
        }
        let position = Position(line: line, index: nextIndex)
        nextIndex += 1
        try emit(.bytes(bytes, position))
    }

    private mutating func rejectLong<Failure: Error>(_ emit: (Record) throws(Failure) -> Void) throws(Failure) {
        let position = Position(line: mode == .lines ? line : recordLine, index: nextIndex)
        nextIndex += 1
        try emit(.rejected(.recordTooLong(limit: maximumRecordBytes), position))
    }

    private mutating func feedArray<Failure: Error>(
        _ chunk: UnsafeRawBufferPointer, from start: Int, emit: (Record) throws(Failure) -> Void
    ) throws(Failure) {
        var elementStart = start
        var offset = start
        while offset < chunk.count {
            let byte = chunk[offset]
            if byte == 0x0A { line += 1 }
            if mode == .arrayEnded {
                if byte != 0x20 && byte != 0x09 && byte != 0x0D && byte != 0x0A {
                    let position = Position(line: line, index: nextIndex)
                    try emit(
                        .rejected(
                            EventValidationError(field: "json", reason: "unexpected content after the closing ']'"), position))
                    mode = .broken
                    tail = []
                    return
                }
                offset += 1
                elementStart = offset
                continue
            }
            if inString {
                if byte < 0x20 {
                    // A raw control character (a line break, most often) cannot be in a JSON string: the
                    // string was never closed, and where elements end can no longer be told.
                    try breakArray(
                        "a string not closed before a line break or control character", onLine: byte == 0x0A ? line - 1 : line, emit)
                    return
                }
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): openBrackets.append(byte)
                case UInt8(ascii: "}") where openBrackets.last == UInt8(ascii: "{"), UInt8(ascii: "]") where openBrackets.last == UInt8(ascii: "["):
                    openBrackets.removeLast()
                case UInt8(ascii: "}"):
                    try breakArray("a '}' that closes no '{'", onLine: line, emit)
                    return
                case UInt8(ascii: "]") where openBrackets.isEmpty:
                    try finishElement(chunk, elementStart..<offset, isLast: true, emit)
                    mode = .arrayEnded
                    offset += 1
                    elementStart = offset
                    continue
                case UInt8(ascii: "]"):
                    try breakArray("a ']' that closes no '['", onLine: line, emit)
                    return
                case UInt8(ascii: ",") where openBrackets.isEmpty:
                    try finishElement(chunk, elementStart..<offset, isLast: false, emit)
                    offset += 1
                    elementStart = offset
                    continue
                default: break
                }
            }
            if !elementHasContent, byte != 0x20, byte != 0x09, byte != 0x0D, byte != 0x0A {
                elementHasContent = true
                recordLine = line
            }
            offset += 1
        }
        guard mode == .array, elementStart < chunk.count else { return }
        if tail.count + chunk.count - elementStart > maximumRecordBytes {
            if !isSkippingLongRecord { try rejectLong(emit) }
            isSkippingLongRecord = true
            tail.removeAll()
        } else if !isSkippingLongRecord {
            tail.append(contentsOf: chunk[elementStart...])
        }
    }

    /// Rejects the element being read and every one after it as one record, and ignores the rest of
    /// the input: past a structural error, where elements end cannot be told.
    private mutating func breakArray<Failure: Error>(_ what: String, onLine errorLine: Int, _ emit: (Record) throws(Failure) -> Void) throws(Failure)
    {
        let position = Position(line: recordLine, index: nextIndex)
        mode = .broken
        tail = []
        try emit(.rejected(Self.restNotRead(from: nextIndex, because: "\(what) on line \(errorLine)"), position))
        nextIndex += 1
    }

    /// The reject that stands for the elements from `index` on, which were not read.
    private static func restNotRead(from index: Int, because reason: String) -> EventValidationError {
        EventValidationError(
            field: "json",
            reason: "the JSON array is broken at element \(index) (\(reason)): element \(index) and every element after it "
                + "were not read; fix them and send them again (events already counted are skipped as duplicates)")
    }

    private mutating func finishElement<Failure: Error>(
        _ chunk: UnsafeRawBufferPointer, _ range: Range<Int>, isLast: Bool, _ emit: (Record) throws(Failure) -> Void
    ) throws(Failure) {
        defer {
            tail.removeAll(keepingCapacity: true)
            elementHasContent = false
        }
        if isSkippingLongRecord {
            isSkippingLongRecord = false
            return
        }
        let position = Position(line: recordLine, index: nextIndex)
        if !elementHasContent {
            // `[]` is an empty array; `[,` or `,,` or `,]` is a missing element.
            if isLast && nextIndex == 0 { return }  // the tail, if any, is whitespace
            nextIndex += 1
            try emit(.rejected(EventValidationError(field: "json", reason: "missing array element"), position))
            return
        }
        nextIndex += 1
        if tail.isEmpty {
            try emit(.bytes(UnsafeRawBufferPointer(rebasing: chunk[range]), position))
        } else if tail.count + range.count > maximumRecordBytes {
            try emit(.rejected(.recordTooLong(limit: maximumRecordBytes), position))
        } else {
            tail.append(contentsOf: chunk[range])
            let record = tail
            try record.span.withUnsafeBytes { (bytes) throws(Failure) in try emit(.bytes(bytes, position)) }
        }
    }
}
