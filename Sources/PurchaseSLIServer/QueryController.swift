import Foundation
import Hummingbird
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage

/// `GET /v1/query`: the same JSON as `purchase-sli query --format json`.
/// Answers stream in pieces of 1,000 rows; a query that would answer more than `maximumRows` rows is a 400
/// that says how to narrow it.
struct QueryController {
    let store: any BucketStore
    let maximumRows: Int

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/v1/query") { request, _ in try await query(request) }
    }

    private func query(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        guard let from = parameters["from"].map(String.init), let to = parameters["to"].map(String.init) else {
            throw IngestError.badRequest("from and to are required, e.g. /v1/query?from=now-1d&to=now&by=productID")
        }
        var query: CountQuery
        do {
            query = try CountQuery(
                from: from, to: to, by: parameters["by"].map(String.init), filters: parameters.getAll("where"),
                step: parameters["step"].map(String.init), nowSeconds: wallClockMillis() / 1000)
        } catch {
            throw IngestError.badRequest(error.message)
        }
        query.maximumRows = maximumRows
        let store = store, answer = query
        let output: QueryOutput
        do {
            output = try await runBlocking {
                answer.isAboutErrors
                    ? QueryOutput(query: answer, errorRows: try store.errorCounts(answer))
                    : QueryOutput(query: answer, rows: try store.counts(answer))
            }
        } catch let error as StorageError where error.isInvalidQuery {
            throw IngestError.badRequest(error.description)
        }
        // Formatting 100,000 rows takes a core for a few hundred milliseconds: done off the cooperative
        // threads, a chunk at a time, so that three large answers do not keep /healthz waiting.
        let chunks = OffPoolIterator(output.jsonChunks(rowsPerChunk: 1000).makeIterator())
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody { writer in
            while let chunk = try await chunks.next() {
                try await writer.write(ByteBuffer(string: chunk))
            }
            try await writer.finish(nil)
        })
    }
}
