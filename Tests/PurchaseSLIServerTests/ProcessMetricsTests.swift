import Foundation
import HummingbirdTesting
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@testable import PurchaseSLIServer

/// `serve`'s own memory and files on `/metrics`, under the names of Prometheus' process collector, and
/// the allocator settings that keep its memory flat (issue 64).
@Suite struct ProcessMetricsTests {
    @Test("/metrics has the process collector's series, read from /proc at each scrape")
    func metricsShowTheProcess() async throws {
        let directory = try TemporaryDirectory()
        let app = makeApp(store: try SQLiteBucketStore(path: directory.file("db.sqlite")))
        try await app.test(.router) { client in
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                func value(_ name: String) -> Double? {
                    text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
                }
                #expect(text.contains("# TYPE process_resident_memory_bytes gauge\n"))
                #expect(text.contains("# TYPE process_cpu_seconds_total counter\n"))
                let resident = try #require(value("process_resident_memory_bytes"))
                #expect(resident > 1_000_000 && resident < (value("process_virtual_memory_bytes") ?? 0))
                let open = try #require(value("process_open_fds"))
                #expect(open >= 3 && open <= (value("process_max_fds") ?? 0))
                let started = try #require(value("process_start_time_seconds"))
                #expect(started <= Date().timeIntervalSince1970 + 1 && started > Date().timeIntervalSince1970 - 86_400 * 365)
            }
        }
    }

    @Test("the arena cap is set unless the operator's MALLOC_ARENA_MAX is")
    func theOperatorsSettingWins() {
        #expect(ProcessMemory.limitArenas(environment: ["MALLOC_ARENA_MAX": "4"]) == nil)
        #expect(ProcessMemory.limitArenas(environment: [:]) == ProcessMemory.arenas, "glibc takes M_ARENA_MAX")
    }
}
