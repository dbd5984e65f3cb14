import Foundation
import PurchaseSLIAnalysis
import PurchaseSLITestSupport
import Testing

/// `slo export` writes documents the OpenSLO v1 JSON schemas accept (checked by scripts/validate_openslo.py
/// against the vendored schemas), and `slo import` reads them back into the same policy.
@Suite struct SLOCommandTests {
    @Test(arguments: ["dashboards/slos.yaml", "docs/examples/revenue-slos.yaml", "docs/examples/app-slos.yaml"])
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
        #expect(
            read.objectives == original.objectives && read.appObjectives == original.appObjectives && read.rules == original.rules
                && read.fastBurn == original.fastBurn, "\(text)")
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

    /// A syntax error in the second document fails the whole import, naming the document, line and column;
    /// nothing is printed as the policy (the documents before it included).
    @Test func aSyntaxErrorInAnyDocumentFailsTheWholeImport() async throws {
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let (_, exported) = try await ChildProcess.run(
            executable, ["slo", "export", "--format", "openslo", "--policy", packageRoot + "/dashboards/slos.yaml"])
        var documents = exported.components(separatedBy: "\n---\n")
        try #require(documents.count >= 3 && !documents[0].isEmpty, "\(exported)")
        documents[1] += "\nbroken: {unclosed: [1, 2\n"
        let text = documents.joined(separator: "\n---\n")
        let brokenLine = text.prefix(upTo: try #require(text.range(of: "broken: {unclosed")).lowerBound).count(where: { $0 == "\n" }) + 1
        let file = try directory.write("broken.yaml", text)
        let (status, output) = try await ChildProcess.run(executable, ["slo", "import", file])
        #expect(status == .exit(1), "\(output)")
        let place = try #require(output.firstMatch(of: #/document (\d+), line (\d+), column (\d+): not valid YAML: /#), "\(output)")
        #expect(place.1 == "2" && (brokenLine...brokenLine + 2).contains(Int(place.2) ?? 0), "line \(brokenLine): \(output)")
        #expect(output.contains("error: \(file): document 2, line "), "\(output)")
        #expect(!output.contains("objectives:"), "nothing is imported: \(output)")
        let whole = try directory.write("whole.yaml", exported)
        #expect(try await ChildProcess.run(executable, ["slo", "import", whole]).0 == .exit(0), "the same documents unbroken import")
    }

    /// Nesting deeper than the YAML reader's 1,000 levels is a syntax error with its place, not "nothing to read".
    @Test func aDeeplyNestedFileIsRefusedWithItsPlace() async throws {
        let executable = try #require(builtExecutable)
        let directory = try TemporaryDirectory()
        let file = try directory.write("deep.yaml", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n")
        let (status, output) = try await ChildProcess.run(executable, ["slo", "import", file])
        #expect(status == .exit(1), "\(output)")
        #expect(output.contains("error: \(file): document 1, line 1, column "), "\(output)")
        #expect(output.contains("not valid YAML") && !output.contains("nothing to read"), "\(output)")
    }
}
