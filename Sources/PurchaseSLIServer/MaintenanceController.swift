import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStorage

/// `/v1/maintenance`: `GET` lists the maintenance windows (the policy's and the stored ones, as `purchase-sli
/// maintenance list --format json`), `POST` declares one (a JSON ``MaintenanceDeclaration``; 201 with it),
/// `DELETE /v1/maintenance/{id}` removes a stored one. Behind the read keys like every read; declaring and
/// removing need read keys to be configured at all, since a window silences burn-rate alerts, and are
/// refused from another site's page (a JSON body only, no `Sec-Fetch-Site: cross-site`), since a browser
/// resends the key it keeps for the pages.
struct MaintenanceController {
    let store: any PurchaseStore
    /// The policy's own windows, listed with the stored ones.
    let policyWindows: [MaintenanceWindow]
    /// Whether read keys are configured (the middleware has checked the request's).
    let keysConfigured: Bool
    let maximumBodyBytes: Int
    let bodyTimeoutSeconds: Int64
    let logger: Logger

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/v1/maintenance") { _, _ in try await list() }
        router.post("/v1/maintenance") { request, _ in try await declare(request) }
        router.delete("/v1/maintenance/{id}") { request, context in
            try refuseCrossSite(request)
            return try await remove(context.parameters.get("id") ?? "")
        }
    }

    private func list() async throws -> Response {
        let store = store
        let stored = try await runBlocking { try store.maintenanceWindows() }
        return Self.json(.ok, MaintenanceOutput.json(MaintenanceCalendar(policyWindows + stored).windows))
    }

    private func declare(_ request: Request) async throws -> Response {
        try requireKeys()
        try refuseCrossSite(request)
        // JSON only: a browser sends it cross-site only after a CORS preflight this server never grants, so a
        // page elsewhere cannot post a form that declares a window with the key a browser keeps for the pages.
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw IngestError.unsupportedMediaType("expected Content-Type: application/json")
        }
        let body = try await collectBody(of: request, limit: min(maximumBodyBytes, 64 << 10), timeoutSeconds: bodyTimeoutSeconds)
        let declaration: MaintenanceDeclaration
        do {
            declaration = try JSONDecoder().decode(MaintenanceDeclaration.self, from: Data(body))
        } catch let DecodingError.keyNotFound(key, _) {
            throw IngestError.badRequest("\(key.stringValue): required field is missing")
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
            throw IngestError.badRequest("\(Self.path(context)): \(context.debugDescription)")
        } catch {
            throw IngestError.badRequest(
                "expected a JSON object such as {\"from\":\"2026-12-01T02:00:00Z\",\"to\":\"2026-12-01T04:00:00Z\",\"reason\":\"…\"}")
        }
        let now = wallClockMillis() / 1000
        let window: MaintenanceWindow
        do {
            window = try declaration.window(id: MaintenanceWindow.newID(), createdSeconds: now, source: .stored, nowSeconds: now)
        } catch let error as MaintenanceWindowError {
            throw IngestError.badRequest(error.description)
        }
        let store = store
        let added = try await runBlocking { try store.add(window) }
        guard added else { throw IngestError.conflict("a window named \(window.id) exists; DELETE /v1/maintenance/\(window.id) first") }
        logger.notice(
            "maintenance window declared",
            metadata: ["id": "\(window.id)", "from": "\(RFC3339.format(seconds: window.startSeconds))", "reason": "\(window.reason)"])
        return Self.json(.created, MaintenanceOutput.json(window) + "\n")
    }

    private func remove(_ id: String) async throws -> Response {
        try requireKeys()
        let store = store
        guard let removed = try await runBlocking({ try store.removeMaintenanceWindow(id: id) }) else {
            throw IngestError.notFound(
                id.hasPrefix("policy-") ? "\(id) is declared in the policy file: remove it there" : "no maintenance window \(id)")
        }
        logger.notice("maintenance window removed", metadata: ["id": "\(removed.id)", "reason": "\(removed.reason)"])
        return Self.json(.ok, MaintenanceOutput.json(removed) + "\n")
    }

    /// Refuses a change while no read key is configured: anyone could otherwise silence the alerts.
    private func requireKeys() throws {
        guard keysConfigured else {
            throw IngestError.forbidden("declaring or removing maintenance windows needs read keys (serve --read-keys); none is configured")
        }
    }

    /// Refuses a request a browser says another site made (`Sec-Fetch-Site: cross-site`).
    private func refuseCrossSite(_ request: Request) throws {
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site == "cross-site" {
            throw IngestError.forbidden("a request another site's page made cannot change maintenance windows")
        }
    }

    private static func path(_ context: DecodingError.Context) -> String {
        context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }

    private static func json(_ status: HTTPResponse.Status, _ body: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
