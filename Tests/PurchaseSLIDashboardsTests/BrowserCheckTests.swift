import Foundation
import PurchaseSLITestSupport
import Testing

/// Chromium on PATH, or nil.
private let chromium: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .flatMap { directory in ["chromium", "chromium-browser"].map { "\(directory)/\($0)" } }
    .first { FileManager.default.isExecutableFile(atPath: $0) }

/// CI sets this so that a missing browser fails the run instead of skipping the check.
private let browserRequired = ProcessInfo.processInfo.environment["PURCHASE_SLI_REQUIRE_BROWSER"] == "1"

/// Runs a command in the package root without blocking a cooperative thread; returns its exit status
/// (nil when a signal ended it) and what it printed (both streams).
private func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32?, output: String) {
    let (termination, output) = try await ChildProcess.run(
        URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: environment, currentDirectory: packageRoot)
    guard case .exit(let status) = termination else { return (nil, output) }
    return (status, output)
}

/// Loads pages in headless Chromium (scripts/browser-check.sh, scripts/browser_check.py): no console
/// error, no request but the page itself, a screenshot of each. Skipped when Chromium is not installed,
/// unless PURCHASE_SLI_REQUIRE_BROWSER=1 (as .ci/run sets), when it fails instead.
@Suite(.serialized, .enabled(if: chromium != nil || browserRequired, "chromium is not installed (apt-get install chromium); browser check skipped"))
struct BrowserCheckTests {
    @Test func chromiumIsInstalled() throws {
        _ = try #require(chromium, "chromium is required (PURCHASE_SLI_REQUIRE_BROWSER=1) but not on PATH")
    }

    /// The checker fails a page that requests anything or logs a console error: a CSP violation (a style
    /// whose hash is not allowed), an image from a host, an image from disk.
    @Test func theCheckCatchesRequestsAndConsoleErrors() async throws {
        _ = try #require(chromium)
        let directory = try TemporaryDirectory()
        let page = directory.file("bad.html")
        try """
        <!DOCTYPE html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-AAAA'">
        <style>p{color:red}</style></head>
        <body><p>bad</p><img src="http://example.com/pixel.png" alt=""><img src="pixel.png" alt=""></body></html>
        """.write(toFile: page, atomically: true, encoding: .utf8)
        let (status, output) = try await run(["python3", "scripts/browser_check.py", "--screenshots", directory.file("shots"), page])
        #expect(status == 1, "\(output)")
        #expect(output.contains("FAIL bad (light): network request: http://example.com/pixel.png"), "\(output)")
        #expect(output.contains("network request: file://\(directory.path)/pixel.png"), "\(output)")
        #expect(output.contains("console error (security): Applying inline style violates"), "\(output)")
        #expect(FileManager.default.fileExists(atPath: directory.file("shots/bad-phone.png")))
    }

    /// The sample logs' pages (rollout week, outage, payment detour) load without a console error or a request; the
    /// screenshots stay in out/browser-check/screenshots for people to look at.
    /// The check's own deadline grows with the pages it loads (scripts/browser_check.py); this limit only
    /// stops a hung run.
    @Test(.timeLimit(.minutes(30)))
    func theSampleLogDashboardsLoadCleanly() async throws {
        let executable = try #require(builtExecutable, "purchase-sli is not built next to the tests")
        let (status, output) = try await run(
            ["bash", "scripts/browser-check.sh", "out/browser-check"], environment: ["PURCHASE_SLI": executable.path])
        #expect(status == 0, "\(output)")
        for set in ["rollout", "outage", "detour"] {
            for page in ["index", "oncall", "rollout"] {
                #expect(output.contains("out/browser-check/\(set)/\(page).html: ok"), "\(set)/\(page): \(output)")
                for view in ["light", "dark", "phone"] {
                    let shot = "\(packageRoot)/out/browser-check/screenshots/\(set)-\(page)-\(view).png"
                    let size = (try? FileManager.default.attributesOfItem(atPath: shot)[.size] as? Int) ?? 0
                    #expect(size > 10_000, "\(shot): \(size) bytes")
                }
            }
        }
    }
}
