import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIServer
import PurchaseSLIStorage
import PurchaseSLITestSupport
import Testing

@Suite struct DashboardPagesTests {
    let directory: TemporaryDirectory
    let store: SQLiteBucketStore

    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteBucketStore(path: directory.file("db.sqlite"))
    }

    /// Two hours of purchases, one every 10 s, ending at `end`, the last 20 minutes failing.
    private func recordOutage(endingAt end: Int64) async throws {
        let events = (0..<720).map { index -> PurchaseEvent in
            let time = end - 7200 + Int64(index) * 10
            return PurchaseEvent(
                eventID: "e\(index)", timestampMillis: time * 1000, productID: "coins_100", actionType: .purchase,
                resultType: time >= end - 1200 ? .failure : .success, statusCode: time >= end - 1200 ? 503 : 200)
        }
        _ = try await store.record(events, receivedAtMillis: end * 1000)
    }

    @Test func thePublisherWritesEveryPageForItsTime() async throws {
        let end: Int64 = 1_794_657_600  // 2026-11-14T12:00:00Z
        try await recordOutage(endingAt: end)
        let definitions = try DashboardFiles.load(directory: packageRoot + "/dashboards")
        let pages = directory.file("pages")
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let publisher = DashboardPublisher(
            definitions: definitions,
            context: { [store] in try await DashboardContext(store: store, policy: .default, atSeconds: $0, rangeSeconds: 86_400) },
            directory: pages, intervalSeconds: 60, logger: logger, nowMillis: { end * 1000 })
        await publisher.publish(at: end, generatedAtSeconds: end)
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: pages))
        #expect(
            Set(files.filter { $0.hasSuffix(".html") }) == [
                "index.html", "oncall.html", "rollout.html", "report-2026-W45.html", "incident-20261114-1142-fef488.html",
            ])
        // Each page's tables as CSV beside it.
        #expect(
            files.contains { $0.hasPrefix("oncall.table-1-") && $0.hasSuffix(".csv") } && files.contains { $0.hasPrefix("report-2026-W45.table-1-") })
        let oncall = try String(contentsOfFile: pages + "/oncall.html", encoding: .utf8)
        #expect(oncall.contains("2026-11-13T12:00:00Z to 2026-11-14T12:00:00Z"))
        #expect(oncall.contains("<span class=\"status bad\">PAGE</span>"), "the outage pages")
        // Served pages reload themselves at the publisher's interval, without script.
        #expect(oncall.contains("<meta http-equiv=\"refresh\" content=\"60\">") && !oncall.contains("<script"))
    }

    /// With apps named, the publisher writes each app's set into `apps/<dir>/` and the top index lists
    /// them; the server serves what it wrote.
    @Test func thePublisherWritesEachAppsPagesWhereTheServerServesThem() async throws {
        let end: Int64 = 1_794_657_600  // 2026-11-14T12:00:00Z
        let events = ["com.example.Coins_App", "com.example.premium"].flatMap { app in
            (0..<360).map { index -> PurchaseEvent in
                let time = end - 3600 + Int64(index) * 10
                let fails = app == "com.example.Coins_App" && time >= end - 1200
                return PurchaseEvent(
                    eventID: "\(app)-\(index)", timestampMillis: time * 1000, productID: "coins_100", actionType: .purchase,
                    resultType: fails ? .failure : .success, statusCode: fails ? 503 : 200, app: app)
            }
        }
        _ = try await store.record(events, receivedAtMillis: end * 1000)
        let pages = directory.file("pages")
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let publisher = DashboardPublisher(
            definitions: try DashboardFiles.load(directory: packageRoot + "/dashboards"),
            context: { [store] in try await DashboardContext(store: store, policy: .default, atSeconds: $0, rangeSeconds: 86_400) },
            directory: pages, apps: ["com.example.Coins_App", "com.example.premium"], intervalSeconds: 60, logger: logger,
            nowMillis: { end * 1000 })
        await publisher.publish(at: end, generatedAtSeconds: end)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: pages + "/apps").sorted() == ["com.example.-43oins-5f-41pp", "com.example.premium"])
        let app = makeApp(store: store) { $0.pagesDirectory = pages }
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                let body = String(buffer: response.body)
                #expect(body.contains("<a href=\"apps/com.example.-43oins-5f-41pp/index.html\">com.example.Coins_App</a>"))
                #expect(body.contains("<a href=\"apps/com.example.premium/index.html\">com.example.premium</a>"))
            }
            try await client.execute(uri: "/apps/com.example.-43oins-5f-41pp/oncall.html", method: .get) { response in
                let body = String(buffer: response.body)
                #expect(response.status == .ok && body.contains("<title>On-call · com.example.Coins_App"))
                #expect(body.contains("<span class=\"status bad\">PAGE</span>") && body.contains("<meta http-equiv=\"refresh\" content=\"60\">"))
            }
            try await client.execute(uri: "/apps/com.example.premium/", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body).contains("No alert firing"))
            }
        }
    }

    @Test func theServerServesThePagesAtTheRootNextToTheAPI() async throws {
        let pages = directory.file("pages")
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        try Data("<!DOCTYPE html><title>index</title>".utf8).write(to: URL(fileURLWithPath: pages + "/index.html"))
        try Data("<!DOCTYPE html><title>on-call</title>".utf8).write(to: URL(fileURLWithPath: pages + "/oncall.html"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: pages + "/keys.txt"))
        try FileManager.default.copyItem(atPath: directory.file("db.sqlite"), toPath: pages + "/db.sqlite")
        try FileManager.default.createDirectory(atPath: pages + "/sub", withIntermediateDirectories: true)
        try Data("sub".utf8).write(to: URL(fileURLWithPath: pages + "/sub/index.html"))
        try Data("window,valid\r\n1 h,158\r\n".utf8).write(to: URL(fileURLWithPath: pages + "/oncall.table-1-purchase.csv"))
        // An incident of an app whose id has capitals and an underscore: its page is named so it is served.
        let incident = IncidentReport.fileName(ofID: "20261114-1142-fef488", app: "com.Example_App")
        try Data("<!DOCTYPE html><title>incident</title>".utf8).write(to: URL(fileURLWithPath: pages + "/" + incident))
        let app = makeApp(store: store) { $0.pagesDirectory = pages }
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("<title>index</title>"))
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            }
            try await client.execute(uri: "/oncall.html", method: .get) { response in
                #expect(String(buffer: response.body).contains("on-call"))
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.cacheControl] == "no-cache")
            }
            try await client.execute(uri: "/oncall.html", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/oncall.table-1-purchase.csv", method: .get) { response in
                #expect(String(buffer: response.body) == "window,valid\r\n1 h,158\r\n")
                #expect(response.headers[.contentType] == "text/csv; charset=utf-8")
            }
            try await client.execute(uri: "/" + incident, method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body).contains("<title>incident</title>"), "\(incident)")
            }
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/missing.html", method: .get) { #expect($0.status == .notFound) }
            // Nothing but the pages: not the database, not a keys file, not what is above the directory
            // (a path with `..` is a bad request).
            for uri in ["/db.sqlite", "/keys.txt", "/sub/index.html", "/sub/", "/../db.sqlite", "/%2e%2e/db.sqlite"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == (uri.contains("2e") || uri.contains("..") ? .badRequest : .notFound), "\(uri)")
                    #expect(!String(buffer: response.body).contains("secret") && !String(buffer: response.body).contains("sub"))
                }
            }
        }
    }

    /// A link in the pages directory is never followed (`passwd.html` → /etc/passwd, a link to the keys
    /// file or the database), nor is a directory or a FIFO named like a page; a large page comes whole,
    /// streamed, whatever Range is asked for.
    @Test func onlyRegularFilesInTheDirectoryAreServedNeverALink() async throws {
        let pages = directory.file("pages")
        let manager = FileManager.default
        try manager.createDirectory(atPath: pages, withIntermediateDirectories: true)
        let keys = try directory.write("keys.txt", "secret-key\n")
        let big = (0..<300_000).map { "line \($0)\n" }.joined()
        try Data(("<!DOCTYPE html>" + big).utf8).write(to: URL(fileURLWithPath: pages + "/big.html"))
        try Data("<!DOCTYPE html><title>index</title>".utf8).write(to: URL(fileURLWithPath: pages + "/index.html"))
        try manager.createSymbolicLink(atPath: pages + "/passwd.html", withDestinationPath: "/etc/passwd")
        try manager.createSymbolicLink(atPath: pages + "/keys.html", withDestinationPath: keys)
        try manager.createSymbolicLink(atPath: pages + "/db.html", withDestinationPath: directory.file("db.sqlite"))
        try manager.createSymbolicLink(atPath: pages + "/report-2026-w46.html", withDestinationPath: pages + "/index.html")
        try manager.createDirectory(atPath: pages + "/folder.html", withIntermediateDirectories: true)
        #expect(mkfifo(pages + "/fifo.html", 0o644) == 0)
        let app = makeApp(store: store) { $0.pagesDirectory = pages }
        try await app.test(.router) { client in
            for uri in ["/passwd.html", "/keys.html", "/db.html", "/report-2026-w46.html", "/folder.html", "/fifo.html"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    let body = String(buffer: response.body)
                    #expect(!body.contains("root:") && !body.contains("secret-key") && !body.contains("SQLite"), "\(uri)")
                }
            }
            try await client.execute(uri: "/big.html", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == "<!DOCTYPE html>" + big)
            }
            // Pages come whole: a Range (one past the end once answered 206 with a negative length and a
            // cut connection) is ignored, as RFC 9110 allows, and the answer says so.
            for range in ["bytes=15-24", "bytes=99999999-", "bytes=-10", "bytes=5-2"] {
                try await client.execute(uri: "/big.html", method: .get, headers: [.range: range]) { response in
                    #expect(response.status == .ok, "\(range)")
                    #expect(response.headers[.acceptRanges] == "none" && response.headers[.contentRange] == nil)
                    #expect(String(buffer: response.body) == "<!DOCTYPE html>" + big, "\(range)")
                }
            }
            try await client.execute(uri: "/", method: .get) { #expect(String(buffer: $0.body).contains("<title>index</title>")) }
        }
    }

    /// One app's pages live in `apps/<app>/` (its index at `/apps/<app>/`); nothing else below the directory
    /// is served, and neither `apps` nor an app's directory may be a link.
    @Test func anAppsPagesAreServedFromItsOwnDirectoryAndNothingElseBelow() async throws {
        let pages = directory.file("pages")
        let manager = FileManager.default
        let own = pages + "/apps/" + AppSlug.of("com.example.coins")
        try manager.createDirectory(atPath: own, withIntermediateDirectories: true)
        try Data("<!DOCTYPE html><title>coins index</title>".utf8).write(to: URL(fileURLWithPath: own + "/index.html"))
        try Data("<!DOCTYPE html><title>coins on-call</title>".utf8).write(to: URL(fileURLWithPath: own + "/oncall.html"))
        try manager.createDirectory(atPath: pages + "/apps/deep/er", withIntermediateDirectories: true)
        try Data("deeper".utf8).write(to: URL(fileURLWithPath: pages + "/apps/deep/er/index.html"))
        try Data("other".utf8).write(to: URL(fileURLWithPath: pages + "/apps/index.html"))
        // Files that exist under names the server must refuse: capitals, a hidden directory, another one.
        for (folder, file) in [("apps/Com.example", "x.html"), ("apps/.hidden", "index.html"), ("other/com.example.coins", "oncall.html")] {
            try manager.createDirectory(atPath: pages + "/" + folder, withIntermediateDirectories: true)
            try Data("other".utf8).write(to: URL(fileURLWithPath: pages + "/" + folder + "/" + file))
        }
        let outside = directory.file("outside")
        try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("secret-outside".utf8).write(to: URL(fileURLWithPath: outside + "/index.html"))
        try manager.createSymbolicLink(atPath: pages + "/apps/linked", withDestinationPath: outside)
        let app = makeApp(store: store) { $0.pagesDirectory = pages }
        try await app.test(.router) { client in
            try await client.execute(uri: "/apps/com.example.coins/oncall.html", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body).contains("coins on-call"))
            }
            try await client.execute(uri: "/apps/com.example.coins/", method: .get) { response in
                #expect(response.status == .ok && String(buffer: response.body).contains("coins index"))
                #expect(response.headers[.contentType] == "text/html; charset=utf-8" && response.headers[.cacheControl] == "no-cache")
            }
            try await client.execute(uri: "/apps/com.example.coins", method: .get) { response in
                #expect(response.status == .movedPermanently && response.headers[.location] == "/apps/com.example.coins/")
            }
            for uri in [
                "/apps/linked/index.html", "/apps/linked/", "/apps/deep/er/index.html", "/apps/index.html", "/apps/", "/apps/Com.example/x.html",
                "/apps/.hidden/index.html", "/other/com.example.coins/oncall.html",
            ] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound || response.status == .badRequest, "\(uri)")
                    let body = String(buffer: response.body)
                    #expect(!body.contains("secret-outside") && !body.contains("deeper") && !body.contains("other"), "\(uri)")
                }
            }
        }
    }

    /// `apps` itself a link to a directory outside: nothing below it is served.
    @Test func appsThatIsALinkServesNothing() async throws {
        let pages = directory.file("pages")
        let outside = directory.file("outside")
        try FileManager.default.createDirectory(atPath: outside + "/com.example.coins", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: pages, withIntermediateDirectories: true)
        try Data("secret-outside".utf8).write(to: URL(fileURLWithPath: outside + "/com.example.coins/index.html"))
        try FileManager.default.createSymbolicLink(atPath: pages + "/apps", withDestinationPath: outside)
        let app = makeApp(store: store) { $0.pagesDirectory = pages }
        try await app.test(.router) { client in
            for uri in ["/apps/com.example.coins/", "/apps/com.example.coins/index.html", "/apps/com.example.coins"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .notFound, "\(uri)")
                    #expect(!String(buffer: response.body).contains("secret-outside"))
                }
            }
        }
    }

    @Test func withoutAPagesDirectoryTheRootIsNotFound() async throws {
        let app = makeApp(store: store)
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { #expect($0.status == .notFound) }
        }
    }
}
