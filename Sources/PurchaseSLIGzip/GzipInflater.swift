import CZlib

/// Why a gzip stream could not be inflated.
public struct GzipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, e.g. `truncated gzip stream`.
    public let message: String
    /// The output limit that was exceeded, when that is the error.
    public let exceededLimit: Int?

    /// Creates an error.
    public init(message: String, exceededLimit: Int? = nil) {
        self.message = message
        self.exceededLimit = exceededLimit
    }

    public var description: String { message }

    /// The input ended before the gzip trailer.
    public static let truncated = GzipError(message: "truncated gzip stream: input ended before the gzip trailer")

    /// The inflated output would exceed a limit.
    public static func outputLimitExceeded(_ limit: Int) -> GzipError {
        GzipError(message: "decompressed data exceeds the limit of \(limit) bytes", exceededLimit: limit)
    }
}

/// Streaming gzip decompression with zlib that treats a truncated or corrupt stream as an error.
///
/// Several concatenated gzip members (as `cat a.gz b.gz` makes) are inflated one after another.
/// Memory stays bounded by the output chunk size, whatever the input size.
public final class GzipInflater {
    /// Output is handed out in chunks of at most this many bytes.
    public let chunkSize: Int
    /// Inflating more than this many bytes in total throws; nil means no limit.
    public let maximumOutputBytes: Int?
    private let stream: UnsafeMutablePointer<z_stream>
    private var output: [UInt8]
    private var isAtMemberEnd = false
    /// Total bytes produced so far.
    public private(set) var totalOutputBytes = 0

    /// Creates an inflater for gzip input.
    public init(chunkSize: Int = 256 * 1024, maximumOutputBytes: Int? = nil) throws {
        self.chunkSize = chunkSize
        self.maximumOutputBytes = maximumOutputBytes
        output = [UInt8](repeating: 0, count: chunkSize)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw GzipError(message: "zlib could not start (status \(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Whether `bytes` begin with the gzip magic number 1f 8b.
    public static func hasGzipMagic(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Inflates the next piece of input, handing each piece of output to `body`.
    public func inflate(_ input: UnsafeRawBufferPointer, body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let base = input.baseAddress, input.count > 0 else { return }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        while stream.pointee.avail_in > 0 {
            if isAtMemberEnd {
                // Another gzip member follows the one that ended.
                guard inflateReset(stream) == Z_OK else { throw GzipError(message: "zlib could not reset") }
                isAtMemberEnd = false
            }
            let status = try inflateOnce(body: body)
            if status == Z_STREAM_END {
                isAtMemberEnd = true
            }
        }
    }

    /// Checks that the input ended exactly at the end of a gzip member.
    public func finish() throws {
        if !isAtMemberEnd { throw GzipError.truncated }
    }

    private func inflateOnce(body: (UnsafeRawBufferPointer) throws -> Void) throws -> Int32 {
        var status: Int32 = Z_OK
        repeat {
            let produced: Int = try output.withUnsafeMutableBytes { buffer in
                stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(buffer.count)
                status = CZlib.inflate(stream, Z_NO_FLUSH)
                switch status {
                case Z_OK, Z_STREAM_END, Z_BUF_ERROR: break
                case Z_DATA_ERROR:
                    let detail = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
                    throw GzipError(message: "corrupt gzip stream: \(detail)")
                case Z_MEM_ERROR: throw GzipError(message: "zlib ran out of memory")
                default: throw GzipError(message: "zlib inflate failed (status \(status))")
                }
                return buffer.count - Int(stream.pointee.avail_out)
            }
            if produced > 0 {
                totalOutputBytes += produced
                if let maximumOutputBytes, totalOutputBytes > maximumOutputBytes {
                    throw GzipError.outputLimitExceeded(maximumOutputBytes)
                }
                try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<produced])) }
            }
            if status == Z_BUF_ERROR && stream.pointee.avail_in == 0 { break }
        } while status != Z_STREAM_END && (stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0)
        return status
    }
}
