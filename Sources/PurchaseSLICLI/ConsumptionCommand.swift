import ArgumentParser
import Foundation
import PurchaseSLIAnalysis
import PurchaseSLIApplication
import PurchaseSLICore
import PurchaseSLIOutbound
import PurchaseSLIRendering
import PurchaseSLIStores

/// `purchase-sli consumption`: the answers the ledger supports to the App Store's consumption requests,
/// drafted, and sent with an App Store Server API key.
struct ConsumptionCommand: AsyncParsableCommand {
    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    /// Where the answers go.
    enum Environment: String, ExpressibleByArgument, CaseIterable {
        case production, sandbox
    }

    static let configuration = CommandConfiguration(
        commandName: "consumption",
        abstract: "Draft (and with --send, send) the answers to the App Store's CONSUMPTION_REQUEST notifications received in [from, to).",
        discussion: """
            When a customer asks Apple for a refund, the App Store sends CONSUMPTION_REQUEST and waits up to 12 \
            hours for Send Consumption Information. Each answer says what the app's events tell of the purchase: \
            deliveryStatus DELIVERED when an event granted it; else UNDELIVERED_SERVER_OUTAGE when the app last \
            saw the grant server fail (5xx) or not answer, UNDELIVERED_OTHER otherwise, with consumptionPercentage \
            0 and refundPreference GRANT_FULL. Without --send nothing is sent (a dry run). --send signs each \
            request with the App Store Server API key (ES256 JWT, aud appstoreconnect-v1, bid the bundle id) and \
            PUTs /inApps/v2/transactions/consumption/{transactionId}; it needs --customer-consented (Apple refuses \
            an answer without the customer's consent), and answers only requests of --bundle-id still within \
            their 12 hours.

            Examples:
              purchase-sli consumption --from now-12h --to now
              purchase-sli consumption --from now-12h --to now --send --customer-consented \\
                --key-file AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --issuer-id 57246542-96fe-1a63-e053-0824d011072a \\
                --bundle-id com.example.app
            """)

    @OptionGroup var store: StoreOptions
    @OptionGroup var policyOptions: PolicyOptions
    @OptionGroup var timeZone: TimeZoneOption

    @Option(help: ArgumentHelp("Start of the range (inclusive): when the request was received.", valueName: "time"))
    var from: String

    @Option(help: ArgumentHelp("End of the range (exclusive).", valueName: "time"))
    var to: String

    @Option(help: "Output format.")
    var format: Format = .table

    @Flag(help: "Send the answers (default: a dry run that only drafts them).")
    var send = false

    @Flag(help: "The customers consented to share consumption data with Apple (your terms say so): required with --send.")
    var customerConsented = false

    @Flag(help: "You gave a free sample, trial or description of the content before its purchase (sampleContentProvided).")
    var sampleContentProvided = false

    @Option(help: ArgumentHelp("The App Store Server API private key (.p8) from App Store Connect.", valueName: "file"))
    var keyFile: String?

    @Option(help: ArgumentHelp("The key's id.", valueName: "id"))
    var keyID: String?

    @Option(help: ArgumentHelp("The issuer id of the key's team.", valueName: "id"))
    var issuerID: String?

    @Option(help: ArgumentHelp("The app's bundle id: only its requests are answered (the token's bid claim).", valueName: "id"))
    var bundleID: String?

    @Option(help: "The App Store Server API environment.")
    var environment: Environment = .production

    @Option(help: ArgumentHelp("Call this base URL instead of Apple's (a test server).", valueName: "url"))
    var apiURL: String?

    func validate() throws {
        _ = try range(nowSeconds: WallClock.system.nowSeconds)
        guard send else { return }
        guard customerConsented else {
            throw ValidationError("--send needs --customer-consented: Apple refuses an answer whose customerConsented is not true.")
        }
        for (value, option) in [(keyFile, "--key-file"), (keyID, "--key-id"), (issuerID, "--issuer-id"), (bundleID, "--bundle-id")]
        where value?.isEmpty ?? true {
            throw ValidationError("--send needs \(option).")
        }
        if let apiURL, OutboundHTTP.absoluteURL(apiURL) == nil {
            throw ValidationError("--api-url: expected an http or https URL, got \"\(apiURL)\".")
        }
    }

    private func range(nowSeconds: Int64) throws -> (from: Int64, to: Int64) {
        let range = (
            try TimeArgument.minute(from, option: "from", nowSeconds: nowSeconds), try TimeArgument.minute(to, option: "to", nowSeconds: nowSeconds)
        )
        guard range.0 < range.1 else { throw ValidationError("--from must be before --to.") }
        return range
    }

    func run() async throws {
        let output = try await exitingOnFailure { () async throws -> String in
            let nowMillis = WallClock.system.nowMillis
            let (from, to) = try range(nowSeconds: nowMillis / .millisPerSecond)
            let policy = try policyOptions.load()
            let answers = try await store.openStore().consumptionAnswers(
                fromMillis: from * .millisPerSecond, toMillis: to * .millisPerSecond, rule: policy.reconciliation)
            let (rows, failed) = try await HTTPClientTransport.withTransport { transport in
                await answerEach(answers, client: send ? try await makeClient(transport: transport) : nil, nowMillis: nowMillis)
            }
            let text =
                format == .json ? ConsumptionOutput.jsonLines(rows) : ConsumptionOutput.text(rows, now: nowMillis, zone: try timeZone.zone(policy))
            guard failed == 0 else {
                print(text, terminator: "")
                throw CommandFailure(message: "\(failed) answer\(failed == 1 ? "" : "s") not taken by the App Store")
            }
            return text
        }
        print(output, terminator: "")
    }

    /// Sends each answer with `client` (nil: a dry run) and says what became of it; how many failed.
    private func answerEach(
        _ answers: [ConsumptionAnswer], client: AppStoreServerAPIClient?, nowMillis: Int64
    ) async -> (rows: [ConsumptionOutput.Row], failed: Int) {
        var rows: [ConsumptionOutput.Row] = []
        var failed = 0
        for answer in answers {
            let body = answer.body(sampleContentProvided: sampleContentProvided)
            var outcome = "not sent (dry run)"
            if let client {
                if answer.request.notification.appID != client.bundleID {
                    outcome = "not sent: another app's (\(answer.request.notification.appID))"
                } else if answer.answerByMillis <= nowMillis {
                    outcome = "not sent: past the 12 h Apple allows"
                } else {
                    do {
                        let reply = try await client.sendConsumption(transactionID: answer.transactionID, body: JSONTextEncoder.text(body))
                        outcome = reply.isAccepted ? "sent: \(reply.status)" : "refused: \(reply.status) \(reply.body)"
                        if !reply.isAccepted { failed += 1 }
                    } catch {
                        outcome = "failed: \(error)"
                        failed += 1
                    }
                }
            }
            rows.append(ConsumptionOutput.Row(answer: answer, body: body, outcome: outcome))
        }
        return (rows, failed)
    }

    /// The client of the key the options name, calling over `transport`.
    private func makeClient(transport: any OutboundTransport) async throws -> AppStoreServerAPIClient {
        guard let keyFile, let keyID, let issuerID, let bundleID else { throw CommandFailure(message: "--send needs the key's options") }
        guard let pem = FileManager.default.contents(atPath: keyFile) else { throw CommandFailure(message: "--key-file: cannot read \"\(keyFile)\"") }
        let base =
            apiURL.flatMap(URL.init(string:))
            ?? (environment == .production ? AppStoreServerAPIClient.productionURL : AppStoreServerAPIClient.sandboxURL)
        do {
            return try await AppStoreServerAPIClient(
                keyPEM: String(decoding: pem, as: UTF8.self), keyID: keyID, issuerID: issuerID, bundleID: bundleID, baseURL: base,
                transport: transport)
        } catch {
            throw CommandFailure(message: "--key-file: \(error)")
        }
    }
}
