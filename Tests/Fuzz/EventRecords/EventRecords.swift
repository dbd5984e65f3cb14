import FuzzSupport
import PurchaseSLICore

/// Framer, parser and validator on arbitrary bytes: no trap, no unbounded work, and the same records
/// whether the body arrives whole or in chunks of any size.
@_cdecl("LLVMFuzzerTestOneInput")
public func eventRecordsFuzzTarget(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = FuzzInput(start, count)
    let validator = EventValidator(nowMillis: 1_795_000_000_000, maximumAgeMillis: 30 * 86_400_000)
    let whole = records(of: input.bytes, chunkLengths: [input.bytes.count], validator: validator)
    let chunked = records(of: input.bytes, chunkLengths: input.chunkLengths, validator: validator)
    if whole != chunked {
        fuzzFailure("records differ when the input is split: \(whole) against \(chunked)")
    }
    return 0
}

/// One record as the service would report it: its position and the event or the error.
private struct Outcome: Equatable {
    var position: RecordFramer.Position
    var description: String
}

/// Frames `bytes` fed in chunks of the given lengths (cycled), validating each record.
private func records(
    of bytes: UnsafeRawBufferPointer, chunkLengths: some Sequence<Int>, validator: EventValidator
) -> [Outcome] {
    let limit = 4096
    var framer = RecordFramer(maximumRecordBytes: limit)
    var outcomes: [Outcome] = []
    let emit = { (record: RecordFramer.Record) in
        switch record {
        case .bytes(let recordBytes, let position):
            if recordBytes.count > limit { fuzzFailure("a record of \(recordBytes.count) bytes passed the limit") }
            switch validator.validate(record: recordBytes) {
            case .success(let validated):
                outcomes.append(Outcome(position: position, description: "\(validated.event) \(validated.warnings)"))
            case .failure(let error):
                outcomes.append(Outcome(position: position, description: "\(error)"))
            }
        case .rejected(let error, let position):
            outcomes.append(Outcome(position: position, description: "\(error)"))
        }
    }
    var offset = 0
    for length in chunkLengths {
        guard offset < bytes.count else { break }
        let end = min(bytes.count, offset + length)
        framer.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), emit: emit)
        offset = end
    }
    framer.finish(emit: emit)
    return outcomes
}

/// The program's entry point, under the name SwiftPM links as `main`: hands control to libFuzzer.
@_cdecl("FuzzEventRecords_main")
public func fuzzEventRecordsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, eventRecordsFuzzTarget)
}
