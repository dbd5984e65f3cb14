import Foundation
import PurchaseSLITestSupport
import Testing

/// The dependency direction of CONTRIBUTING's layout, read from the sources: SwiftPM lets a target
/// import a module it does not name when the build happens to have it, so the package manifest alone
/// does not hold the line.
@Suite struct ModuleBoundaryTests {
    /// A module and the modules none of its files may import.
    static let forbidden: [(module: String, imports: [String])] = [
        // Results live in Application; Rendering and Dashboards depend on them, never the reverse.
        ("PurchaseSLIApplication", ["PurchaseSLIRendering", "PurchaseSLIDashboards", "PurchaseSLIServer", "PurchaseSLICLI"]),
        // The command line reaches stores through Application's use cases and its StoreLocation.
        ("PurchaseSLICLI", ["PurchaseSLIStorage", "PurchaseSLIPostgres"]),
        // Analysis is pure: it never reads a store.
        ("PurchaseSLIAnalysis", ["PurchaseSLIStorage", "PurchaseSLIPostgres", "PurchaseSLIApplication"]),
        ("PurchaseSLIRendering", ["PurchaseSLIStorage", "PurchaseSLIPostgres", "PurchaseSLIServer", "PurchaseSLICLI"]),
        // Pages are rendered from the data Application's DashboardContext loads: no store below them.
        ("PurchaseSLIDashboards", ["PurchaseSLIStorage", "PurchaseSLIPostgres", "PurchaseSLIServer", "PurchaseSLICLI"]),
        ("PurchaseSLICore", ["PurchaseSLIStorage", "PurchaseSLIAnalysis", "PurchaseSLIApplication", "Foundation"]),
    ]

    @Test("no file of a module imports what lies above it", arguments: forbidden)
    func noFileImportsAModuleAboveIt(_ rule: (module: String, imports: [String])) throws {
        let directory = URL(fileURLWithPath: packageRoot).appendingPathComponent("Sources/\(rule.module)")
        let files = try #require(FileManager.default.enumerator(atPath: directory.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "no sources under \(directory.path)")
        for file in files {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ").filter { !["@testable", "public", "package", "internal", "@_exported"].contains($0) }
                guard words.count == 2, words[0] == "import" else { continue }
                #expect(!rule.imports.contains(String(words[1])), "\(rule.module)/\(file) imports \(words[1])")
            }
        }
    }

    /// Panels are given data (``DashboardPageData``) and a frame: a panel that awaited would be reading.
    @Test func panelsAwaitNothing() throws {
        let directory = URL(fileURLWithPath: packageRoot).appendingPathComponent("Sources/PurchaseSLIDashboards")
        let panels = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { ($0.hasPrefix("Panel+") || $0.hasPrefix("DashboardFrame+") || $0 == "DashboardPage.swift") && $0.hasSuffix(".swift") }
        #expect(panels.count >= 12, "the panels' files were not found under \(directory.path)")
        for file in panels {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("await "), "\(file) awaits: a panel reads nothing, it is given its data")
        }
    }
}
