import Foundation
import Hummingbird
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage

/// `GET /v1/query`: the same JSON as `purchase-sli query --format json`, and with `of=charges` as
/// `purchase-sli query --of charges --format json`.
/// Answers of events stream in pieces of 1,000 rows; a query that would answer more than `maximumRows` rows is
/// a 400 that says how to narrow it.
struct QueryController {
    let store: any PurchaseStore
    let maximumRows: Int
    /// The rules that judge a charge granted or not, for `of=charges`.
    let reconciliation: SLOPolicy.ReconciliationRule
    /// The receiving clock (milliseconds since the epoch): what `now` and relative times are read against.
    let nowMillis: @Sendable () -> Int64

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/v1/query") { request, _ in try await query(request) }
    }

    private func query(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        guard let from = parameters["from"].map(String.init), let to = parameters["to"].map(String.init) else {
            throw IngestError.badRequest("from and to are required, e.g. /v1/query?from=now-1d&to=now&by=productID")
        }
        switch parameters["of"].map(String.init) ?? "events" {
        case "events": guard parameters["at"] == nil else { throw IngestError.badRequest("at applies to of=charges") }
        case "charges":
            return try await charges(
                from: from, to: to, at: parameters["at"].map(String.init), by: parameters["by"].map(String.init),
                filters: parameters.getAll("where"), step: parameters["step"].map(String.init))
        case let other: throw IngestError.badRequest("of: expected events or charges, got \"\(other)\"")
        }
        var query: CountQuery
        do {
            query = try CountQuery(
                from: from, to: to, by: parameters["by"].map(String.init), filters: parameters.getAll("where"),
                step: parameters["step"].map(String.init), nowSeconds: nowMillis() / .millisPerSecond)
        } catch {
            throw IngestError.badRequest(error.message)
        }
        query.maximumRows = maximumRows
        let output: QueryOutput
        do {
            output = QueryOutput(query: query, answer: try await CountQuerying(store: store).events(query))
        } catch let error as StorageError where error.isInvalidQuery {
            throw IngestError.badRequest(error.description)
        }
        // Formatting 100,000 rows takes a core for a few hundred milliseconds: made a chunk at a time, each
        // written (and awaited) before the next, so that large answers take turns with /healthz.
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody { writer in
                for chunk in output.jsonChunks(rowsPerChunk: 1000) {
                    try await writer.write(ByteBuffer(string: chunk))
                }
                try await writer.finish(nil)
            })
    }

    /// `of=charges`: the stores' charges and refunds counted per group, in one piece (a row per group and
    /// step, bounded by `maximumRows`).
    private func charges(from: String, to: String, at: String?, by: String?, filters: [String], step: String?) async throws -> Response {
        let query: ChargeCountQuery
        do {
            query = try ChargeCountQuery(
                from: from, to: to, at: at, by: by, filters: filters, step: step, nowSeconds: nowMillis() / .millisPerSecond)
        } catch {
            throw IngestError.badRequest(error.message)
        }
        let output = ChargeCountOutput(query: query, rows: try await CountQuerying(store: store).charges(query, rule: reconciliation))
        guard output.rows.count <= maximumRows else {
            throw IngestError.badRequest(
                "the answer has \(output.rows.count) rows, more than \(maximumRows); narrow it with a larger step, fewer by dimensions or a where")
        }
        let json = output.json
        return Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
    }
}
