import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIDashboards
import PurchaseSLIRendering
import PurchaseSLIStorage
import Testing

/// Text an attacker can put in any event field: markup that would open a script, an element or an
/// attribute if it were not escaped, a link scheme, text that is already escaped, terminal and
/// bidirectional control characters, chat mentions and Markdown.
let hostileCorpus = [
    "<!channel> <@U123> <https://evil.example|click>",
    "[click](https://evil.example) ![x](https://evil.example/x.png)",
    "**bold** _it_ `code` # heading | table",
    "\u{202E}gnp.exe\u{202C} \u{2066}x\u{2069}",
    "bell\u{07} esc\u{1B}[31m red\r\nnew line",
    "\"quotes\" \\ back\\slash </script><script>alert(1)</script>",
    "\"><svg onload=alert(1)>",
    "</title><script>alert(1)</script>",
    "javascript:alert(1)",
    "' onmouseover='alert(1)",
    "&lt;script&gt;",
    "</style><style>body{display:none}</style>",
    "<img src=x onerror=alert(1)>",
    // A prepended mark (U+0600) before a special character, or a combining one (U+0301) after it, makes one
    // Character of the two; the page is read by scalar, so they must be escaped as the plain ones are.
    "\u{0600}<meta http-equiv=refresh content=0;url=https://evil.example/>",
    "=\u{0301}HYPERLINK(\"https://evil.example\")",
    "\"\u{0301}><svg onload=alert(1)>\u{0600}<b\u{0301}>",
]

/// The corpus in every free-text and id field that reaches a page (productID, planID, groupID, offerID,
/// appVersion, platform, osVersion, variant, errorDescription; actionType must be a token), rendered on
/// every shipped page and on a page with a table of every dimension, while an outage makes the alerts
/// quote the fields too.
@Suite(.hostileFixture) struct HostileTextTests {
    let pages: [String: String]

    init() throws {
        pages = try RenderedFixture.get().pages
    }

    @Test func nothingButOurOwnMarkupReachesAPage() {
        // The shipped dashboards, the every-dimension page, the weekly review, the index, and the report of
        // each incident they show (whose text names the hostile slices too).
        #expect(pages.count - pages.keys.filter { $0.hasPrefix("incident-") }.count == 5)
        #expect(pages.keys.contains { $0.hasPrefix("incident-") })
        for (name, page) in pages.sorted(by: { $0.key < $1.key }) {
            let problems = MarkupCheck.problems(in: page)
            #expect(problems.isEmpty, "\(name): \(problems.count) problems, first: \(problems.prefix(5).joined(separator: "\n"))")
            #expect(page.range(of: "<script", options: .caseInsensitive) == nil, "\(name)")
            #expect(page.range(of: "<img", options: .caseInsensitive) == nil, "\(name)")
            #expect(page.range(of: #"<[^>]*\son[a-z]+\s*="#, options: .regularExpression) == nil, "\(name): an event handler in a tag")
            #expect(page.range(of: "href=\"javascript", options: .caseInsensitive) == nil, "\(name)")
            #expect(page.components(separatedBy: "<style>").count == 2 && page.components(separatedBy: "</style>").count == 2, "\(name)")
            #expect(page.components(separatedBy: "<title>").count == page.components(separatedBy: "</title>").count, "\(name)")
        }
    }

    /// A mark that makes one `Character` with the `<` beside it escapes nothing: the on-call page shows the
    /// `<meta>` refresh of a product as text (a browser would follow it), no page holds a `<meta` of its own
    /// beyond the shell's, and the tables' CSV files quote the formula whose `=` carries an accent.
    @Test func aPrependedOrCombiningMarkEscapesNothing() throws {
        let refresh = "\u{0600}<meta http-equiv=refresh content=0;url=https://evil.example/>"
        let oncall = try #require(pages["oncall.html"])
        #expect(oncall.utf8.firstRange(of: HTML.escape(refresh).utf8) != nil, "the on-call page does not show the product")
        #expect(oncall.utf8.firstRange(of: "\u{0600}&lt;meta http-equiv=refresh content=0;url=https://evil.example/&gt;".utf8) != nil)
        for (name, page) in pages {
            // The shell's: charset, Content-Security-Policy, viewport, referrer (no refresh asked for here).
            #expect(page.utf8.split(separator: "<meta".utf8, omittingEmptySubsequences: false).count == 5, "\(name)")
            #expect(page.utf8.firstRange(of: "<svg onload".utf8) == nil && page.utf8.firstRange(of: "<b\u{0301}".utf8) == nil, "\(name)")
        }
        let every = try #require(pages["every-dimension.html"])
        let files = TableCSV.attach(to: every, pageName: "every-dimension.html").files
        #expect(files.contains { $0.text.utf8.firstRange(of: "\n\"'=\u{0301}HYPERLINK(".utf8) != nil })
        for file in files {
            for start in ["\n=", ",=", "\n\"=", ",\"="] {
                #expect(file.text.utf8.firstRange(of: start.utf8) == nil, "\(file.name): a cell starts with =")
            }
        }
    }

    @Test func controlAndBidirectionalCharactersNeverReachAPage() {
        for (name, page) in pages {
            let bad = page.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                    || (0x2066...0x2069).contains($0.value)
            }
            #expect(bad.isEmpty, "\(name): \(bad.map { String($0.value, radix: 16) })")
        }
    }

    @Test func everyHostileValueIsShownEscapedOnce() throws {
        let every = try #require(pages["every-dimension.html"])
        for text in hostileCorpus {
            #expect(every.contains(HTML.escape(text)), "\(text.debugDescription) is not on the page, escaped")
        }
        // Written out by hand, not by the function under test:
        for escaped in [
            "&quot;&gt;&lt;svg onload=alert(1)&gt;", "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;",
            "&#39; onmouseover=&#39;alert(1)", "&amp;lt;script&amp;gt;", "&lt;img src=x onerror=alert(1)&gt;",
            "&lt;/style&gt;&lt;style&gt;body{display:none}&lt;/style&gt;", "\u{FFFD}gnp.exe\u{FFFD} \u{FFFD}x\u{FFFD}",
            "&lt;!channel&gt; &lt;@U123&gt; &lt;https://evil.example|click&gt;",
        ] {
            #expect(every.contains(escaped), "\(escaped)")
        }
        for (name, page) in pages {
            // Escaped twice would show the reader "&amp;quot;" instead of a quote.
            for twice in ["&amp;quot;", "&amp;#39;", "&amp;amp;", "&amp;gt;&amp;lt;"] {
                #expect(!page.contains(twice), "\(name): \(twice)")
            }
        }
    }

    @Test func theAlertsAndTheRolloutQuoteTheHostileValuesEscaped() throws {
        let oncall = try #require(pages["oncall.html"])
        let alerts = try #require(oncall.between("<h2>Alerts firing</h2>", "</section>"))
        #expect(alerts.contains("<span class=\"status bad\">PAGE</span>"))
        #expect(hostileCorpus.contains { alerts.contains(HTML.escape($0)) }, "the alert quotes no error description")
        let rollout = try #require(pages["every-dimension.html"]?.between("<h3>Rollout of ", "</h3>"))
        #expect(rollout == "\(HTML.escape(hostileCorpus[0])) against \(HTML.escape(hostileCorpus[1]))")
    }
}

extension Trait where Self == FixtureTrait {
    /// A day of traffic whose every free-text and id field holds ``hostileCorpus``, an attempt every
    /// 20 s and every purchase failing in the last hour, rendered on the shipped pages and on a page with
    /// a table and a chart of every dimension, the top errors and a rollout between two hostile versions.
    static var hostileFixture: Self {
        FixtureTrait { directory in
            let end = seconds("2026-11-16T12:00:00Z")
            let store = try SQLiteBucketStore(path: directory.file("hostile.sqlite"))
            let corpus = hostileCorpus
            let count = corpus.count
            var events: [PurchaseEvent] = []
            var index = 0
            for time in stride(from: end - 86_400, to: end, by: 20) {
                defer { index += 1 }
                func field(_ offset: Int) -> String { corpus[(index + offset) % count] }
                let action: ActionType = index % 7 == 6 ? .retry : .purchase
                let outage = time >= end - 3600 && action == .purchase
                let result: ResultType = outage || index % 50 == 3 ? .failure : index % 31 == 5 ? .cancel : .success
                for (suffix, type) in [("s", ResultType.start), ("r", result)] {
                    events.append(
                        PurchaseEvent(
                            eventID: "\(suffix)\(index)", timestampMillis: (time + (type == .start ? 0 : 4)) * 1000,
                            productID: field(0), planID: field(1), groupID: field(2), offerID: field(3), actionType: action,
                            resultType: type, statusCode: action == .retry && index % 2 == 0 ? 409 : nil,
                            // The first value is also a version arriving in the second half of the day.
                            appVersion: time >= end - 43_200 && index % 3 == 0 ? corpus[0] : field(4), platform: field(5),
                            osVersion: field(6), variant: field(7),
                            errorDescription: type == .start || result == .success ? nil : field(8)))
                }
            }
            _ = try await store.record(events, receivedAtMillis: end * 1000)
            // Text people declare: maintenance of retries (one in progress, one the day before, each reason from
            // the corpus) and a paused release of the hostile version, on the banners, cards, bands, markers
            // and the weekly review.
            for (offset, reason) in corpus.enumerated() {
                let start = offset % 2 == 0 ? end - 1800 : end - 86_400 + Int64(offset) * 600
                try await MaintenanceWindowRepository(store.sql).record(
                    MaintenanceWindow(
                        id: "mw-\(offset)", startSeconds: start, endSeconds: start + 3600, actions: ["retry"], reason: reason,
                        createdSeconds: end - 60))
            }
            try await RolloutActionRepository(store.sql).record(
                RolloutAction(
                    store: .apple, app: "", candidate: corpus[0], releaseStartSeconds: end - 43_200, verdict: "rollback", isDryRun: false,
                    outcome: .paused, status: 200, detail: corpus[5], step: 2, timeSeconds: end - 7200, attempts: 1))
            let dimensions: [EventDimension] = [.productID, .planID, .groupID, .offerID, .appVersion, .platform, .osVersion, .variant]
            let everyDimension = DashboardDefinition(
                title: "Every dimension", file: "every-dimension.html", summary: "a table and a chart of each",
                panels: dimensions.flatMap { dimension -> [DashboardDefinition.Panel] in
                    [
                        .table(title: nil, by: dimension, actionType: nil, limit: 100),
                        .chart(title: nil, metric: .rate(.successRate), actionType: "purchase", by: dimension, stepSeconds: nil),
                    ]
                } + [.topErrors(actionType: nil, windowSeconds: 86_400, limit: 100), .rollout(candidate: corpus[0], baseline: corpus[1])])
            let context = try await DashboardContext(store: store, policy: try shippedPolicy(), atSeconds: end, rangeSeconds: 86_400)
            return await RenderedFixture(store: store, pages: try renderPages(try shippedDefinitions() + [everyDimension], context: context))
        }
    }
}
