import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Prometheus on PATH, or nil.
private let prometheus: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .map { "\($0)/prometheus" }.first { FileManager.default.isExecutableFile(atPath: $0) }

/// CI sets this so that a missing Prometheus fails the run instead of skipping the scrape.
private let prometheusRequired = ProcessInfo.processInfo.environment["PURCHASE_SLI_REQUIRE_PROMETHEUS"] == "1"

/// A real Prometheus (Debian's `prometheus`) scrapes `serve`'s `/metrics/slo` and `/metrics`: the SLI
/// series it stores are what purchase-sli computes, and every query of the shipped Grafana dashboard
/// answers. Skipped without Prometheus unless PURCHASE_SLI_REQUIRE_PROMETHEUS=1 (as .ci/run sets).
@Suite(.enabled(if: prometheus != nil || prometheusRequired, "prometheus is not installed (apt-get install prometheus); scrape test skipped"))
struct PrometheusScrapeTests {
    @Test func prometheusStoresTheSLISeriesAndAnswersEveryDashboardQuery() async throws {
        let prometheus = try #require(prometheus, "prometheus is required (PURCHASE_SLI_REQUIRE_PROMETHEUS=1) but not on PATH")
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let database = directory.file("db.sqlite")
        // Three hours of purchases ending 10 minutes ago, one in 20 failing: the 6 h window holds all of them at
        // any minute of the test.
        let now = Int64(Date().timeIntervalSince1970)
        let start = now - 3 * 3600 - 600
        var events: [PurchaseEvent] = []
        for number in 0..<(3 * 60 * 4) {
            let time: Int64 = start + Int64(number / 4) * 60 + Int64(number % 4)
            events.append(
                PurchaseEvent(
                    eventID: "e\(number)", timestampMillis: time * 1000, productID: "coins_100", planID: nil, actionType: .purchase,
                    resultType: number % 20 == 0 ? .failure : .success, errorDescription: nil))
        }
        _ = try await SQLiteBucketStore(path: database).record(events, receivedAtMillis: 0)
        let server = try ChildProcess(executable, ["serve", "--port", "0", "--db", database])
        let listening = try await server.firstMatch(of: #"listening on 127\.0\.0\.1:[0-9]+"#)
        let port = try #require(Int(listening.split(separator: ":").last!))
        let webPort = try TCPPort.free()
        let configuration = try directory.write(
            "prometheus.yml",
            """
            global: {scrape_interval: 1s, evaluation_interval: 1s}
            scrape_configs:
              - job_name: purchase-sli-slo
                metrics_path: /metrics/slo
                static_configs: [{targets: ["127.0.0.1:\(port)"]}]
              - job_name: purchase-sli
                metrics_path: /metrics
                static_configs: [{targets: ["127.0.0.1:\(port)"]}]
            """)
        let scraper = try ChildProcess(
            URL(fileURLWithPath: prometheus),
            [
                "--config.file=\(configuration)", "--storage.tsdb.path=\(directory.file("tsdb"))", "--web.listen-address=127.0.0.1:\(webPort)",
                "--log.level=warn",
            ])
        defer {
            Task { _ = await scraper.stop(SIGTERM) }
            Task { _ = await server.stop(SIGTERM) }
        }
        // 720 valid events over 6 h, 36 failed: 95 % against 99 %, a burn rate of 5.
        let burn = try await query(#"purchase_sli_slo_burn_rate{action="purchase",window="6h"}"#, port: webPort)
        #expect(burn.count == 1)
        #expect(abs((burn.first ?? 0) - 5) < 1e-9, "\(burn)")
        #expect(try await query(#"purchase_sli_slo_valid_events{action="purchase",window="6h"}"#, port: webPort) == [720])
        #expect(try await query(#"purchase_sli_slo_good_events{action="purchase",window="6h"}"#, port: webPort) == [684])
        #expect(try await query(#"purchase_sli_slo_target_ratio{action="purchase"}"#, port: webPort) == [0.99])
        let evaluatedAt = try #require(try await query("purchase_sli_slo_evaluation_timestamp_seconds", port: webPort).first)
        #expect(Int64(evaluatedAt) % 60 == 0 && abs(Int64(evaluatedAt) - now) < 3600)
        // The budget is the one the pages show at that minute.
        let expected = try await onDedicatedThread {
            try await AlertContext(store: try SQLiteBucketStore(path: database), storedMaintenance: [], policy: .default).sloSnapshot(
                at: Int64(evaluatedAt))
        }
        let left = try await query(#"purchase_sli_slo_error_budget_remaining_ratio{action="purchase"}"#, port: webPort)
        #expect(left.count == 1 && abs((left.first ?? 0) - (expected.objectives.first?.budgetRemaining ?? .nan)) < 1e-9, "\(left)")
        // Each query of the Grafana dashboard answers with at least one series.
        let dashboard =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: packageRoot + "/dashboards/grafana/purchase-sli.json"))) as? [String: Any]
        let expressions = (dashboard?["panels"] as? [[String: Any]] ?? []).flatMap { panel in
            (panel["targets"] as? [[String: Any]] ?? []).compactMap { $0["expr"] as? String }
        }
        #expect(expressions.count >= 10)
        for expression in expressions {
            #expect(!(try await query(expression, port: webPort)).isEmpty, "the dashboard's \(expression) answers nothing")
        }
    }

    /// The values of an instant query's series, once Prometheus answers with at least one (it scrapes every
    /// second; the first scrapes come a few seconds after it starts).
    private func query(_ expression: String, port: Int) async throws -> [Double] {
        var components = URLComponents(string: "http://127.0.0.1:\(port)/api/v1/query")!
        components.queryItems = [URLQueryItem(name: "query", value: expression)]
        var last = "no answer"
        for _ in 0..<120 {
            if let (data, _) = try? await URLSession.shared.data(from: components.url!),
                let body = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            {
                let result = (body["data"] as? [String: Any])?["result"] as? [[String: Any]] ?? []
                let values = result.compactMap { ($0["value"] as? [Any])?.last as? String }.compactMap(Double.init)
                if !values.isEmpty { return values.sorted() }
                last = "\(body)"
            }
            try await Task.sleep(for: .milliseconds(500))
        }
        Issue.record("\(expression): \(last)")
        return []
    }
}
