/// One format's reading of decompressed bytes into decoded records, fed in chunks of any size.
protocol RecordSource {
    /// Reads the next chunk, handing out every record it completes.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (DecodedRecord) throws -> Void) throws
    /// Signals the end of input, handing out the last records.
    mutating func finish(emit: (DecodedRecord) throws -> Void) throws
}
