import Foundation
import Hummingbird
import PurchaseSLICore

/// The JSON bodies the admin routes read and answer with (maintenance windows, acknowledgements).
enum JSONRequestBody {
    /// `body` decoded as `T`, or a 400 that names the field: a missing one, one of the wrong type (as
    /// `typeMismatch` says it, given the field's path), else what a body should look like (`example`).
    static func decode<T: Decodable>(
        _ type: T.Type, from body: some Sequence<UInt8>, example: String, typeMismatch: (_ path: String, DecodingError.Context) -> String
    ) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(body))
        } catch let DecodingError.keyNotFound(key, _) {
            throw IngestError.badRequest("\(key.stringValue): required field is missing")
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            throw IngestError.badRequest(typeMismatch(path, context))
        } catch {
            throw IngestError.badRequest("expected a JSON object such as \(example)")
        }
    }
}

extension Response {
    /// A response of `status` whose body is the JSON text `body`.
    static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// A response of `status` whose body is `value` as JSON (``PurchaseSLICore/JSONTextEncoder``), and
    /// `headers` besides its content type.
    static func json(_ status: HTTPResponse.Status, _ value: some Encodable, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: JSONTextEncoder.text(value))))
    }
}
