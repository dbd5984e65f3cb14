/// Splits a stream of whitespace-separated JSON objects (one pretty-printed document, or JSON Lines of
/// them as the OpenTelemetry Collector's file exporter writes) into documents, fed in chunks of any
/// size. It follows strings and brackets only; each document's own syntax is checked by its parser.
struct JSONDocumentSplitter {
    /// What the splitter hands out.
    enum Piece {
        /// A whole document's bytes (valid during the callback) and the line it starts on.
        case document(UnsafeRawBufferPointer, line: Int)
        /// A document longer than the limit, skipped, and the line it starts on.
        case tooLong(line: Int)
        /// Content outside any document (not `{`), skipped to the end of its line.
        case stray(line: Int)
        /// The input ended inside a document.
        case unterminated(line: Int)
    }

    let maximumDocumentBytes: Int
    private var document: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var line = 1
    private var documentLine = 1
    private var isTooLong = false
    private var isSkippingLine = false

    init(maximumDocumentBytes: Int) {
        self.maximumDocumentBytes = maximumDocumentBytes
    }

    /// Reads the next chunk, handing out every piece it completes. A document's bytes are copied a run
    /// at a time (up to its end or the chunk's), not byte by byte.
    mutating func feed<Failure: Error>(_ chunk: UnsafeRawBufferPointer, emit: (Piece) throws(Failure) -> Void) throws(Failure) {
        let (quote, backslash, newline) = (UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(0x0A))
        var runStart: Int?  // where the document's bytes in this chunk begin, while one is open
        if depth > 0 { runStart = 0 }
        var index = 0
        while index < chunk.count {
            let byte = chunk[index]
            index += 1
            if byte == newline { line += 1 }
            if depth == 0 {
                if isSkippingLine {
                    if byte == newline { isSkippingLine = false }
                    continue
                }
                if JSONWhitespace.contains(byte) { continue }
                guard byte == UInt8(ascii: "{") else {
                    isSkippingLine = true
                    try emit(.stray(line: line))
                    continue
                }
                documentLine = line
                isTooLong = false
                runStart = index - 1
            }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == backslash {
                    escaped = true
                } else if byte == quote {
                    inString = false
                } else {
                    // The rest of a plain run of the string, at a byte's cost each.
                    while index < chunk.count, chunk[index] != quote, chunk[index] != backslash, chunk[index] != newline { index += 1 }
                }
                continue
            }
            switch byte {
            case quote: inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    try keep(chunk, from: runStart ?? 0, to: index, emit: emit)
                    runStart = nil
                    if !isTooLong {
                        try document.span.withUnsafeBytes { (bytes) throws(Failure) in try emit(.document(bytes, line: documentLine)) }
                    }
                    document.removeAll(keepingCapacity: true)
                }
            default: break
            }
        }
        if let runStart, depth > 0 { try keep(chunk, from: runStart, to: chunk.count, emit: emit) }
    }

    /// Adds `chunk[from..<to]` to the open document, or, past the limit, drops the document and says so
    /// once.
    private mutating func keep<Failure: Error>(
        _ chunk: UnsafeRawBufferPointer, from start: Int, to end: Int, emit: (Piece) throws(Failure) -> Void
    ) throws(Failure) {
        guard !isTooLong else { return }
        if document.count + (end - start) > maximumDocumentBytes {
            isTooLong = true
            document.removeAll()
            try emit(.tooLong(line: documentLine))
        } else {
            document.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[start..<end]))
        }
    }

    /// Signals the end of input: a document left open is reported.
    mutating func finish<Failure: Error>(emit: (Piece) throws(Failure) -> Void) throws(Failure) {
        if depth > 0, !isTooLong { try emit(.unterminated(line: documentLine)) }
        document = []
        depth = 0
    }
}
