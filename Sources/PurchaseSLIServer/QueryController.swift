import Foundation
import Hummingbird
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage

/// `GET /v1/query`: the same JSON as `purchase-sli query --format json`.
struct QueryController {
    let store: any BucketStore

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/v1/query") { request, _ in try await query(request) }
    }

    private func query(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        guard let from = parameters["from"].map(String.init), let to = parameters["to"].map(String.init) else {
            throw IngestError.badRequest("from and to are required, e.g. /v1/query?from=now-1d&to=now&by=productID")
        }
        let query: CountQuery
        do {
            query = try CountQuery(
                from: from, to: to, by: parameters["by"].map(String.init), filters: parameters.getAll("where"),
                step: parameters["step"].map(String.init), nowSeconds: wallClockMillis() / 1000)
        } catch {
            throw IngestError.badRequest(error.message)
        }
        let store = store
        let json = try await runBlocking {
            query.isAboutErrors
                ? QueryOutput(query: query, errorRows: try store.errorCounts(query)).json
                : QueryOutput(query: query, rows: try store.counts(query)).json
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }
}
