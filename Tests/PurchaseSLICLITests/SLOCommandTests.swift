import Foundation
import PurchaseSLIAnalysis
import PurchaseSLITestSupport
import Testing

/// `slo export` writes documents the OpenSLO v1 JSON schemas accept (checked by scripts/validate_openslo.py
/// against the vendored schemas), and `slo import` reads them back into the same policy.
@Suite struct SLOCommandTests {
    @Test(arguments: ["dashboards/slos.yaml", "docs/examples/revenue-slos.yaml"])
    func theExportPassesTheSchemaAndImportsBackTheSame(_ policyFile: String) async throws {
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let policyPath = packageRoot + "/" + policyFile
        let (exported, documents) = try await ChildProcess.run(executable, ["slo", "export", "--format", "openslo", "--policy", policyPath])
        #expect(exported == .exit(0), "\(documents)")
        let file = try directory.write("purchases.openslo.yaml", documents)
        let python = URL(fileURLWithPath: "/usr/bin/env")
        let validator = packageRoot + "/scripts/validate_openslo.py"
        let (valid, report) = try await ChildProcess.run(python, ["python3", validator, file])
        #expect(valid == .exit(0), "the OpenSLO v1 schemas refuse the export: \(report)")
        // The check can fail: a document the schema refuses is named.
        let broken = try directory.write(
            "broken.yaml", documents.replacingOccurrences(of: "budgetingMethod: Occurrences", with: "budgetingMethod: Events"))
        let (invalid, refusal) = try await ChildProcess.run(python, ["python3", validator, broken])
        #expect(invalid == .exit(1) && refusal.contains("document 5: spec/budgetingMethod: 'Events' is not one of"), "\(refusal)")

        let (imported, text) = try await ChildProcess.run(executable, ["slo", "import", file])
        #expect(imported == .exit(0), "\(text)")
        let original = try SLOPolicy(yaml: String(contentsOfFile: policyPath, encoding: .utf8))
        let read = try SLOPolicy(yaml: text)
        #expect(read.objectives == original.objectives && read.rules == original.rules && read.fastBurn == original.fastBurn, "\(text)")
    }

    @Test func aDocumentThePolicyCannotSayIsRefusedWithItsPlace() async throws {
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let file = try directory.write(
            "latency.yaml",
            """
            apiVersion: openslo/v1
            kind: SLO
            metadata: {name: latency}
            spec:
              service: api
              indicatorRef: latency
              timeWindow: [{duration: 1d, isRolling: true}]
              budgetingMethod: Timeslices
              objectives: [{target: 0.99, timeSliceTarget: 0.9, timeSliceWindow: 1m}]
            """)
        let (status, output) = try await ChildProcess.run(executable, ["slo", "import", file])
        #expect(status == .exit(1), "\(output)")
        #expect(
            output.contains(
                "error: \(file), document 1 (SLO latency): spec.budgetingMethod: expected Occurrences (purchase-sli counts events), got Timeslices"),
            "\(output)")
    }
}
