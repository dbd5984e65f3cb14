import PurchaseSLICore
import Testing

/// What the framer emitted, in a form tests can compare.
private enum Framed: Equatable {
    case record(String, line: Int, index: Int)
    case rejected(String, line: Int, index: Int)
}

/// Frames `input` fed in chunks of `chunkSize` bytes.
private func frame(_ input: String, chunkSize: Int = .max, maximumRecordBytes: Int = 1 << 20) -> [Framed] {
    var framer = RecordFramer(maximumRecordBytes: maximumRecordBytes)
    var output: [Framed] = []
    let emit: (RecordFramer.Record) -> Void = { record in
        switch record {
        case let .bytes(bytes, position):
            output.append(.record(String(decoding: bytes, as: UTF8.self), line: position.line, index: position.index))
        case let .rejected(error, position):
            output.append(.rejected(error.reason, line: position.line, index: position.index))
        }
    }
    let bytes = Array(input.utf8)
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + min(chunkSize, bytes.count))
        bytes[start..<end].withUnsafeBytes { framer.feed($0, emit: emit) }
        start = end
    }
    framer.finish(emit: emit)
    return output
}

@Suite struct RecordFramerTests {
    @Test(arguments: [1, 2, 3, 7, 1 << 20])
    func splitsNDJSONAtAnyChunkSize(chunkSize: Int) {
        let input = "{\"a\":1}\n\n  \r\n{\"b\":\"x\\ny\"}\r\n{\"c\":3}"
        #expect(
            frame(input, chunkSize: chunkSize) == [
                .record("{\"a\":1}", line: 1, index: 0),
                .record("{\"b\":\"x\\ny\"}\r", line: 4, index: 1),
                .record("{\"c\":3}", line: 5, index: 2),
            ])
    }

    @Test(arguments: [1, 2, 5, 1 << 20])
    func splitsAJSONArrayAtAnyChunkSize(chunkSize: Int) {
        let input = "[\n {\"a\":\"],[\"},\n {\"b\":[1,2]} ,{\"c\":{\"d\":\"\\\"\"}}\n]\n"
        #expect(
            frame(input, chunkSize: chunkSize) == [
                .record("\n {\"a\":\"],[\"}", line: 2, index: 0),
                .record("\n {\"b\":[1,2]} ", line: 3, index: 1),
                .record("{\"c\":{\"d\":\"\\\"\"}}\n", line: 3, index: 2),
            ])
    }

    /// Found by the fuzzer: whitespace of an empty array split across chunks read as a missing element.
    @Test(arguments: [1, 2, 1 << 20])
    func acceptsAnEmptyArray(chunkSize: Int) {
        #expect(frame(" [ \n\t ] ", chunkSize: chunkSize).isEmpty)
    }

    @Test func reportsMissingArrayElementsAndUnterminatedArrays() {
        #expect(
            frame("[{\"a\":1},,{\"b\":2}") == [
                .record("{\"a\":1}", line: 1, index: 0),
                .rejected("missing array element", line: 1, index: 1),
                .rejected(
                    "the JSON array is broken at element 2 (the input ended before the array's ']'): element 2 and every element "
                        + "after it were not read; fix them and send them again (events already counted are skipped as duplicates)",
                    line: 1, index: 2),
            ])
    }

    /// Found by the fuzzer: content after the array, arriving in several chunks, was reported once per chunk.
    @Test(arguments: [1, 2, 1 << 20])
    func reportsContentAfterTheArrayOnce(chunkSize: Int) {
        #expect(
            frame("[{\"a\":1}] x\n]] y {}", chunkSize: chunkSize) == [
                .record("{\"a\":1}", line: 1, index: 0),
                .rejected("unexpected content after the closing ']'", line: 1, index: 1),
            ])
    }

    /// Past a structural error, where elements end cannot be told: the element and every one after it are
    /// one reject that says so, the elements before it are read, and nothing after it is guessed at.
    @Test(
        arguments: [
            ("[{\"a\":1},\n{\"b\":\"x},\n{\"c\":3},\n{\"d\":4}]", 1, 2, "a string not closed before a line break or control character on line 2"),
            ("[{\"a\":1},{\"b\":2}},{\"c\":3}]", 1, 1, "a '}' that closes no '{' on line 1"),
            ("[{\"a\":1},\n{\"b\":[2}, {\"c\":3}]", 1, 2, "a '}' that closes no '{' on line 2"),
            ("[{\"a\":1},\n{\"b\":2]]", 1, 2, "a ']' that closes no '[' on line 2"),
            ("[{\"a\":1},{\"b\":\"x}, {\"c\":3}]", 1, 1, "the input ended before the array's ']'"),
        ] as [(String, Int, Int, String)])
    func aBrokenArrayRejectsTheRestAsOne(input: String, index: Int, line: Int, what: String) {
        for chunkSize in [3, 1 << 20] {
            let framed = frame(input, chunkSize: chunkSize)
            #expect(framed.first == .record("{\"a\":1}", line: 1, index: 0))
            #expect(framed.dropFirst().map { if case .rejected(_, let line, let index) = $0 { [line, index] } else { [] } } == [[line, index]])
            guard case .rejected(let reason, _, _) = framed.last else { continue }
            #expect(reason.contains("broken at element \(index) (\(what))"), "\(reason)")
            #expect(reason.contains("element \(index) and every element after it were not read"))
        }
    }

    @Test func skipsAByteOrderMarkBeforeNDJSON() {
        #expect(
            frame("\u{FEFF}{\"a\":1}\n{\"b\":2}\n") == [
                .record("{\"a\":1}", line: 1, index: 0), .record("{\"b\":2}", line: 2, index: 1),
            ])
    }

    @Test(arguments: [3, 1 << 20])
    func rejectsLongLinesWithoutLosingTheNext(chunkSize: Int) {
        let long = "{\"x\":\"" + String(repeating: "a", count: 600) + "\"}"
        let input = "{\"a\":1}\n" + long + "\n{\"b\":2}\n"
        #expect(
            frame(input, chunkSize: chunkSize, maximumRecordBytes: 256) == [
                .record("{\"a\":1}", line: 1, index: 0),
                .rejected("longer than the limit of 256 bytes", line: 2, index: 1),
                .record("{\"b\":2}", line: 3, index: 2),
            ])
    }

    @Test func skipsAByteOrderMarkBeforeAnArray() {
        #expect(frame("\u{FEFF}[{\"a\":1}]") == [.record("{\"a\":1}", line: 1, index: 0)])
    }
}
