import ArgumentParser
import Foundation
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIRendering
import PurchaseSLIStores

/// `purchase-sli ingest-store`: stores the stores' notifications from files, verified as `serve` does.
struct IngestStoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest-store",
        abstract: "Store App Store and Google Play notifications from files (a backfill from the notification history).",
        discussion: """
            Each line of a file (plain or gzip) is one notification as the store posts it: {"signedPayload": "<JWS>"} \
            (App Store Server Notifications V2, also what the App Store Server API's notification history returns) \
            or a Pub/Sub push message {"message": {"data": …, "messageId": …}} (Google Play). App Store \
            notifications are verified like serve does: ES256, the x5c chain to Apple Root CA - G3 (or \
            --apple-root-ca), valid at the notification's signedDate. A notification already stored (the same \
            notificationUUID or messageId) is skipped, so re-running is harmless. Each is recorded as received \
            when the store signed (or published) it, so that alerts evaluated at past times (alerts --at, \
            backtests, pages) see it as the live endpoint would have.
            Exit status: 0 when every line was stored or already stored, 2 when some were refused, 1 when an \
            error stopped the run.
            """)

    @OptionGroup var store: StoreOptions

    @Option(help: ArgumentHelp("Accept App Store notifications of this bundle id; repeat for several.", valueName: "id"))
    var appleBundleID: [String] = []

    @Option(help: ArgumentHelp("Trust this root certificate (PEM or DER) instead of Apple Root CA - G3; repeat for several.", valueName: "file"))
    var appleRootCA: [String] = []

    @Option(help: ArgumentHelp("Accept Google Play notifications of this package; repeat for several.", valueName: "name"))
    var googlePackage: [String] = []

    @Argument(help: ArgumentHelp("Notification files, one JSON object per line; - reads standard input.", valueName: "file"))
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Name at least one file of notifications (- for standard input).") }
        guard !appleBundleID.isEmpty || !googlePackage.isEmpty else {
            throw ValidationError("Name the apps whose notifications are accepted: --apple-bundle-id or --google-package.")
        }
    }

    func run() async throws {
        try await exitingOnFailure { try await ingest() }
    }

    private func ingest() async throws {
        let roots = try appleRootCA.isEmpty ? nil : StoreNotificationOptions.certificates(at: appleRootCA, setting: "--apple-root-ca")
        let apple: AppStoreNotificationVerifier
        do {
            apple = try AppStoreNotificationVerifier(rootCertificates: roots, bundleIDs: Set(appleBundleID))
        } catch {
            throw CommandFailure(message: "--apple-root-ca: \(error.reason)")
        }
        let google = GooglePlayNotificationDecoder(packageNames: Set(googlePackage))
        let database = try await store.openOrCreateStore(configuration: .default)
        let nowMillis = WallClock.system.nowMillis
        var stored = 0
        var duplicates = 0
        var refused = 0
        var batch: [ReceivedNotification] = []
        /// Stores the verified notifications waiting, in one transaction.
        func commit() async throws {
            let outcome = try await database.record(batch)
            stored += outcome.accepted
            duplicates += outcome.duplicates
            batch.removeAll(keepingCapacity: true)
        }
        for file in files {
            var reader = try LineReader(path: file)
            while let (firstLine, lines) = try reader.nextBatch() {
                for (offset, line) in lines.enumerated() where !line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
                    switch await Self.decode(line, apple: apple, google: google) {
                    case .success(let notification):
                        // A backfill stands for what the endpoint would have received when the store sent it.
                        batch.append(ReceivedNotification(notification, receivedMillis: min(notification.signedMillis, nowMillis)))
                    case .failure(let error):
                        refused += 1
                        if refused <= 20 {
                            printError(TerminalText.sanitized("\(file):\(firstLine + offset): \(error.httpStatus): \(error.reason)"))
                        }
                    }
                    if batch.count >= 1000 { try await commit() }
                }
            }
        }
        try await commit()
        print("stored      \(stored)\nduplicates  \(duplicates)\nrefused     \(refused)")
        if refused > 0 { throw ExitCode(2) }
    }

    private static let signedPayloadKey = Array("\"signedPayload\"".utf8)

    /// One line as the App Store's notification (it has a signedPayload) or else a Play push.
    private static func decode(
        _ line: [UInt8], apple: AppStoreNotificationVerifier, google: GooglePlayNotificationDecoder
    ) async -> Result<StoreNotification, StoreNotificationError> {
        do {
            return .success(line.firstRange(of: signedPayloadKey) != nil ? try await apple.verify(body: line) : try google.decode(body: line))
        } catch {
            return .failure(error)
        }
    }
}
