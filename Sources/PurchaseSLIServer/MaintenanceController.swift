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
/// `DELETE /v1/maintenance/{id}` removes a stored one. Listing is behind the read keys like every read;
/// declaring and removing need an admin key (`serve --admin-keys`), since a window silences burn-rate
/// alerts: a read key (the one Prometheus scrapes with) only lists, and without admin keys no window is
/// declared or removed over HTTP (the `maintenance` command works on the store). Both are refused from
/// another site's page (a JSON body only, no `Sec-Fetch-Site: cross-site`), since a browser resends the
/// key it keeps for the pages. A declaration is checked by ``MaintenanceScheduling`` (400 naming the
/// field, 409 beyond the most windows kept or for a taken id, 422 beyond the share of 28 days).
struct MaintenanceController {
    let store: any PurchaseStore
    /// The policy's own windows, listed with the stored ones.
    let policyWindows: [MaintenanceWindow]
    /// Who may declare and remove windows.
    let admin: AdminAccess
    let maximumBodyBytes: Int
    let bodyTimeoutSeconds: Int64
    /// The receiving clock (milliseconds since the epoch): what `now` and relative times are read against.
    let nowMillis: @Sendable () -> Int64
    let logger: Logger

    func addRoutes(to router: Router<some RequestContext>) {
        router.get("/v1/maintenance") { _, _ in try await list() }
        router.post("/v1/maintenance") { request, _ in try await declare(request) }
        router.delete("/v1/maintenance/{id}") { request, context in
            try admin.check(request)
            return try await remove(context.parameters.get("id") ?? "")
        }
    }

    private func list() async throws -> Response {
        let windows = try await MaintenanceScheduling(store: store, policyWindows: policyWindows).windows()
        return Response.json(.ok, MaintenanceOutput.json(windows))
    }

    private func declare(_ request: Request) async throws -> Response {
        try admin.check(request)
        try admin.requireJSON(request)
        let body = try await collectBody(of: request, limit: min(maximumBodyBytes, 64 << 10), timeoutSeconds: bodyTimeoutSeconds)
        let declaration = try JSONRequestBody.decode(
            MaintenanceDeclaration.self, from: body,
            example: "{\"from\":\"2026-12-01T02:00:00Z\",\"to\":\"2026-12-01T04:00:00Z\",\"reason\":\"…\"}",
            typeMismatch: { path, context in "\(path): \(context.debugDescription)" })
        let now = nowMillis() / .millisPerSecond
        let scheduling = MaintenanceScheduling(store: store, policyWindows: policyWindows)
        let window: MaintenanceWindow
        do {
            window = try await scheduling.declare(declaration, id: MaintenanceWindow.newID(), nowSeconds: now)
        } catch let error as MaintenanceWindowError {
            throw IngestError.badRequest(error.description)
        } catch let refusal as MaintenanceRefusal {
            if let id = refusal.takenID { throw IngestError.conflict("a window named \(id) exists; DELETE /v1/maintenance/\(id) first") }
            throw refusal.isOverridable
                ? IngestError.unprocessable("\(refusal); send \"force\": true to declare it anyway") : IngestError.conflict(refusal.description)
        }
        logger.notice(
            "maintenance window declared",
            metadata: ["id": "\(window.id)", "from": "\(RFC3339.format(seconds: window.startSeconds))", "reason": "\(window.reason)"])
        return Response.json(.created, MaintenanceOutput.json(window) + "\n")
    }

    private func remove(_ id: String) async throws -> Response {
        guard let removed = try await MaintenanceScheduling(store: store, policyWindows: policyWindows).remove(id: id) else {
            throw IngestError.notFound(
                id.hasPrefix("policy-") ? "\(id) is declared in the policy file: remove it there" : "no maintenance window \(id)")
        }
        logger.notice("maintenance window removed", metadata: ["id": "\(removed.id)", "reason": "\(removed.reason)"])
        return Response.json(.ok, MaintenanceOutput.json(removed) + "\n")
    }
}
