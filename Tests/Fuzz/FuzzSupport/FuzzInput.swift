import FuzzDriver

/// The bytes libFuzzer hands a target, with the ways the targets split them into arguments.
public struct FuzzInput {
    /// The whole input.
    public let bytes: UnsafeRawBufferPointer

    /// Wraps the input of one `LLVMFuzzerTestOneInput` call.
    public init(_ start: UnsafePointer<UInt8>?, _ count: Int) {
        bytes = UnsafeRawBufferPointer(UnsafeBufferPointer(start: count == 0 ? nil : start, count: count))
    }

    /// The input as text, invalid UTF-8 repaired as any reader of a file or request would.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The input's lines as separate arguments (a command line's or a query string's values).
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// Chunk lengths taken from the input itself, so that the fuzzer explores how a stream is split
    /// as well as what it holds: each length is 1 + (byte mod 64), cycling over the input (endless: the reader stops
    /// at the end of its stream; an empty input gives one whole chunk).
    public var chunkLengths: some Sequence<Int> {
        let bytes = self.bytes
        return sequence(state: 0) { (index: inout Int) -> Int? in
            guard !bytes.isEmpty else { return Int.max }
            defer { index += 1 }
            return 1 + Int(bytes[index % bytes.count] % 64)
        }
    }
}

/// Stops the process with a message libFuzzer reports as a crash, keeping the input that caused it.
public func fuzzFailure(_ message: String) -> Never {
    fatalError("fuzz property violated: \(message)")
}

/// Runs libFuzzer on `target` with the program's arguments; the fuzz targets' entry point.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, target)
}
