import Foundation
import Hummingbird
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage

/// `/v1/incidents`: `GET` lists the incidents' records (the JSON of `purchase-sli incidents --format
/// json`, from the same encoder), behind the read keys like every read; `POST /v1/incidents/{id}/acknowledge`
/// keeps who took one on, with an admin key only (a read key is the one kept in more places; without admin
/// keys configured nobody acknowledges over HTTP and `purchase-sli incidents acknowledge` works on the
/// database). `app` picks the records of one app, as `serve --alert-apps` keeps them.
struct IncidentsController {
    let store: any PurchaseStore
    let policy: SLOPolicy
    /// What the books' alert contexts link to.
    let links: PageLinks
    let definitions: [DashboardDefinition]
    let admin: AdminAccess
    let maximumBodyBytes: Int
    let bodyTimeoutSeconds: Int64
    /// The receiving clock (milliseconds since the epoch): what `now` and relative times are read against.
    let nowMillis: @Sendable () -> Int64
    let logger: Logger

    /// The longest acknowledgement body read: an owner and a note at their longest, every character escaped.
    static let maximumAcknowledgementBytes = 16 << 10

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/v1/incidents") { request, _ in try await list(request) }
        router.post("/v1/incidents/{id}/acknowledge") { request, context in
            try await acknowledge(request, id: context.parameters.get("id") ?? "")
        }
    }

    private func list(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        let app = try Self.app(parameters["app"].map(String.init))
        let now = nowMillis() / .millisPerSecond
        let listed = IncidentBook.listedRange(at: now - now.floorDividedBy(.secondsPerMinute).remainder)
        let from = try Self.time(parameters["from"].map(String.init), named: "from", nowSeconds: now) ?? listed.from
        let to = try Self.time(parameters["to"].map(String.init), named: "to", nowSeconds: now) ?? listed.to
        guard from < to else { throw IngestError.badRequest("from must be before to") }
        let statuses: Set<IncidentRecord.Status>?
        do {
            statuses = try IncidentRecord.Status.named(parameters.getAll("status"))
        } catch {
            throw IngestError.badRequest("status: \(error)")
        }
        let book = try await self.book(app: app)
        let records = try await book.records(from: from, to: to, statuses: statuses)
        return Response.json(.ok, IncidentListOutput.json(records, from: from, to: to, statuses: statuses, app: app))
    }

    private func acknowledge(_ request: Request, id: String) async throws -> Response {
        try admin.check(request)
        guard IncidentReport.startSeconds(ofID: id) != nil else {
            throw IngestError.badRequest("id: expected an incident id as the alerts show it, like 20261112-0703-3fa2c1")
        }
        let app = try Self.app(request.uri.queryParameters["app"].map(String.init))
        try admin.requireJSON(request)
        let body = try await collectBody(
            of: request, limit: min(maximumBodyBytes, Self.maximumAcknowledgementBytes), timeoutSeconds: bodyTimeoutSeconds)
        let given = try JSONRequestBody.decode(
            Acknowledgement.self, from: body,
            example: "{\"owner\":\"Ana (payments on-call)\",\"note\":\"grant server fixed\"}",
            typeMismatch: { path, _ in "\(path): expected a string" })
        let book = try await self.book(app: app)
        let now = nowMillis() / .millisPerSecond
        let record: IncidentRecord
        do {
            record = try await book.acknowledge(id: id, owner: given.owner, note: given.note ?? "", at: now)
        } catch let failure as IncidentBook.Failure {
            guard let field = failure.field else { throw IngestError.notFound(failure.reason) }
            throw IngestError.badRequest("\(field): \(failure.reason)")
        }
        logger.notice(
            "incident acknowledged", metadata: ["id": "\(record.id)", "owner": "\(record.acknowledgement?.owner ?? "")"])
        return Response.json(.ok, IncidentListOutput.json(record) + "\n")
    }

    /// The body of an acknowledgement.
    private struct Acknowledgement: Decodable {
        var owner: String
        var note: String?
    }

    private func book(app: String?) async throws -> IncidentBook {
        IncidentBook(context: links.linking(try await AlertContext(store: store, policy: policy, app: app), definitions: definitions))
    }

    /// The `app` parameter, checked as events' app field is; nil when absent (every app).
    private static func app(_ text: String?) throws -> String? {
        guard let text else { return nil }
        do throws(EventValidationError) {
            guard !text.isEmpty else { throw EventValidationError(field: "app", reason: "must not be empty") }
            try EventValidator.checkIdentifier(text, .app, maximumLength: EventDimension.app.maximumLength!)
        } catch {
            throw IngestError.badRequest("app: \(error.reason)")
        }
        return text
    }

    /// The time `text` gives, to its minute; nil when absent.
    private static func time(_ text: String?, named name: String, nowSeconds: Int64) throws -> Int64? {
        guard let text else { return nil }
        guard let time = TimeArgument(text, nowSeconds: nowSeconds) else {
            throw IngestError.badRequest("\(name): expected \(TimeArgument.forms)")
        }
        return time.seconds - time.seconds.floorDividedBy(.secondsPerMinute).remainder
    }
}
