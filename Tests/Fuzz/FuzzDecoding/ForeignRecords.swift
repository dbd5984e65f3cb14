public import FuzzSupport
public import PurchaseSLICore
public import PurchaseSLIDecoding
import PurchaseSLIGzip

/// What the decoding pipeline made of one input: each record in order, as text, and the counts.
public struct ForeignRecords: Equatable {
    /// Each event (with its warnings) or reject, described.
    public var outcomes: [String]
    /// The events' ids.
    public var eventIDs: [String]
    /// Records read, and those of another kind.
    public var records: Int, ignored: Int
    /// How the input ended: nil, or the failure that stopped it.
    public var failure: DecodingFailure?

    /// Decodes `bytes` in `format`, fed in chunks of the given lengths, under a limit of 200 records
    /// and 4 KiB a record.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer, format: EventFormat, chunkLengths: some Sequence<Int>, compression: EventDecoder.Compression
    ) -> ForeignRecords {
        var decoder = EventDecoder(
            format: format, validator: EventValidator(nowMillis: 1_795_000_000_000, maximumAgeMillis: 30 * 86_400_000),
            limits: EventDecoder.Limits(maximumRecordBytes: 4096, maximumRecords: 200, maximumDecompressedBytes: 1 << 20),
            compression: compression)
        var outcomes: [String] = []
        var eventIDs: [String] = []
        let take = { (record: DecodedRecord) in
            switch record {
            case let .event(event, warnings):
                outcomes.append("\(event) \(warnings)")
                eventIDs.append(event.eventID)
            case .rejected(let reject): outcomes.append("\(reject)")
            case .ignored: outcomes.append("ignored")
            }
        }
        var failure: DecodingFailure?
        do {
            var offset = 0
            for length in chunkLengths {
                guard offset < bytes.count else { break }
                let end = min(bytes.count, offset + length)
                try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), emit: take)
                offset = end
            }
            try decoder.finish(emit: take)
        } catch let stopped as DecodingFailure {
            failure = stopped
        } catch {
            fuzzFailure("the decoder threw something other than a DecodingFailure: \(error)")
        }
        return ForeignRecords(
            outcomes: outcomes, eventIDs: eventIDs, records: decoder.recordsRead, ignored: decoder.ignoredRecords, failure: failure)
    }

    /// Checks the properties every foreign format holds on `input`: the records are the same however the
    /// input is split and whether it arrives gzip-compressed; each record is handed out once; an event's
    /// id is one the input names or a computed one.
    public static func check(_ input: FuzzInput, format: EventFormat) {
        let whole = decode(input.bytes, format: format, chunkLengths: [Int.max], compression: .none)
        let chunked = decode(input.bytes, format: format, chunkLengths: input.chunkLengths, compression: .none)
        if whole != chunked { fuzzFailure("records differ when the input is split: \(whole) against \(chunked)") }
        guard let compressed = try? GzipCompressor.compress(Array(input.bytes)) else { fuzzFailure("gzip failed") }
        let gzip = compressed.withUnsafeBytes { decode($0, format: format, chunkLengths: input.chunkLengths, compression: .gzip) }
        if gzip != whole { fuzzFailure("records differ when the input is gzip: \(whole) against \(gzip)") }
        if whole.failure == nil, whole.records != whole.outcomes.count {
            fuzzFailure("\(whole.records) records read, \(whole.outcomes.count) handed out")
        }
        let text = input.text
        // An id may arrive \u-escaped, and so not be in the text as such.
        for id in whole.eventIDs where !text.contains(id) && !text.contains("\\u") {
            if !id.hasPrefix(EventValidator.computedEventIDPrefix + "sha256:") { fuzzFailure("eventID \(id) is neither the input's nor computed") }
        }
    }
}
