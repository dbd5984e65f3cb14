import ArgumentParser
import Foundation
import PurchaseSLICore
import PurchaseSLISimulation
import PurchaseSLIStores

/// `purchase-sli simulate`: realistic NDJSON traffic with incidents.
struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Print realistic NDJSON purchase events, optionally with an incident.",
        discussion: """
            Traffic follows the time of day, spans several products, plans, offers, app versions and \
            feature-flag variants, and includes late and duplicated events. The same options always print \
            the same events.

            Scenarios:
            \(Scenario.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))

            \(Scenario.timingRule)

            Example: purchase-sli simulate --scenario outage --days 3 --start 2026-11-14 | purchase-sli ingest -
            """)

    @Option(help: ArgumentHelp("Traffic pattern: \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "name"))
    var scenario: String = Scenario.steady.rawValue

    @Option(help: "Length of the run in days.")
    var days: Int = 3

    @Option(
        help: ArgumentHelp(
            "Start of the run: RFC 3339 time or UTC date (default: midnight UTC, --days days before today).", valueName: "time"))
    var start: String?

    @Option(help: "Seed of the random generator.")
    var seed: UInt64 = 1

    @Option(help: "Average purchase, restore and retry attempts per minute (events are about twice that).")
    var rate: Double = SimulationParameters.defaultAttemptsPerMinute

    @Option(
        help: ArgumentHelp(
            "Also write the App Store's server notification of each charge into this directory (apple-notifications.ndjson, signed by a test chain whose root is apple-test-root.pem).",
            valueName: "dir"))
    var storeNotifications: String?

    @Option(
        help: ArgumentHelp(
            "Name this app in every event (its bundle id or package name), and in the store notifications (default: none, and \(Self.bundleID) in the notifications).",
            valueName: "id"))
    var app: String?

    @Option(
        help: ArgumentHelp(
            "Names of products, builds, OS releases and offers: \(Catalog.allCases.map(\.rawValue).joined(separator: ", ")) (the same traffic under a large catalog's names: each product as 40 SKUs, each older app version in 16 builds, each OS version in 6 releases, each offer in 8 campaigns; tens of thousands of series).",
            valueName: "name"))
    var catalog: String = Catalog.standard.rawValue

    func validate() throws {
        guard Catalog(rawValue: catalog) != nil else {
            throw ValidationError("--catalog: expected one of \(Catalog.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(catalog)\".")
        }
        guard Scenario(rawValue: scenario) != nil else {
            throw ValidationError("--scenario: expected one of \(Scenario.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(scenario)\".")
        }
        guard (1...366).contains(days) else { throw ValidationError("--days must be from 1 to 366, got \(days).") }
        guard rate.isFinite, rate > 0, rate <= 10_000 else { throw ValidationError("--rate must be above 0 and at most 10000 attempts a minute.") }
        if let app { try AppOption.check(app) }
        if let start, TimeArgument(start, nowSeconds: WallClock.system.nowSeconds) == nil {
            throw ValidationError("--start: expected \(TimeArgument.forms), got \"\(start)\".")
        }
    }

    func run() throws {
        let nowSeconds = WallClock.system.nowSeconds
        let startSeconds =
            start.flatMap { TimeArgument($0, nowSeconds: nowSeconds)?.seconds }
            ?? (nowSeconds - nowSeconds % .secondsPerDay - Int64(days) * .secondsPerDay)
        let parameters = SimulationParameters(
            scenario: Scenario(rawValue: scenario)!, startMillis: startSeconds * .millisPerSecond, days: days, seed: seed,
            attemptsPerMinute: rate, app: app, catalog: Catalog(rawValue: catalog)!)
        var output = BufferedOutput()
        for event in TrafficSimulator(parameters) {
            output.write(event.jsonLine)
            output.write("\n")
        }
        output.flush()
        if let storeNotifications {
            try exitingOnFailure { try writeNotifications(of: TrafficSimulator(parameters), into: storeNotifications) }
        }
    }

    /// The bundle id of the simulated app.
    static let bundleID = "com.example.purchasesli"

    /// Writes the run's charges as signed App Store notifications, and the test root that verifies them.
    private func writeNotifications(of simulator: TrafficSimulator, into directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let from = Date(timeIntervalSince1970: Double(simulator.parameters.startMillis) / .millisPerSecond - .secondsPerDay)
        let until = Date(timeIntervalSince1970: Double(simulator.parameters.endMillis) / .millisPerSecond + 400 * .secondsPerDay)
        let validity = from...until
        let chain = try AppStoreSigningChain(validity: validity)
        var lines: [UInt8] = []
        for notification in SimulatedNotification.notifications(of: simulator.storeCharges, bundleID: bundleID) {
            lines += try StoreNotificationEncoder.appleBody(notification, chain: chain)
            lines.append(UInt8(ascii: "\n"))
        }
        let notifications = directory + "/apple-notifications.ndjson"
        let root = directory + "/apple-test-root.pem"
        guard FileManager.default.createFile(atPath: notifications, contents: Data(lines)),
            FileManager.default.createFile(atPath: root, contents: Data(chain.rootPEM.utf8))
        else { throw CommandFailure(message: "--store-notifications: cannot write into \(directory)") }
        printError(
            "wrote \(notifications) and \(root); store them with: purchase-sli ingest-store --apple-root-ca \(root) "
                + "--apple-bundle-id \(bundleID) \(notifications)")
    }

    /// The bundle id of the notifications: the app's, else ``bundleID``.
    private var bundleID: String { app ?? Self.bundleID }
}

/// Standard output written in large blocks (print per line would dominate the run time).
struct BufferedOutput {
    private var buffer: [UInt8] = []

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    mutating func flush() {
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(1, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
