import Hummingbird
import NIOCore

/// A request's whole body, within `limit` bytes and `timeoutSeconds`.
/// - Throws: ``IngestError`` (413 or 408).
func collectBody(of request: Request, limit: Int, timeoutSeconds: Int64) async throws -> [UInt8] {
    try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
        group.addTask {
            do {
                return Array(buffer: try await request.body.collect(upTo: limit))
            } catch let error as HTTPError where error.status == .contentTooLarge {
                throw IngestError.tooLarge("body exceeds the limit of \(limit) bytes")
            } catch is NIOTooManyBytesError {
                // A chunked body, whose size is known only once it is read.
                throw IngestError.tooLarge("body exceeds the limit of \(limit) bytes")
            }
        }
        group.addTask {
            try await Task.sleep(for: .seconds(timeoutSeconds))
            return nil
        }
        defer { group.cancelAll() }
        guard let body = try await group.next() ?? nil else { throw IngestError.bodyTimeout(seconds: timeoutSeconds) }
        return body
    }
}
