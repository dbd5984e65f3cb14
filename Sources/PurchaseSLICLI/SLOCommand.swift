import ArgumentParser
import Foundation
import PurchaseSLIAnalysis

/// `purchase-sli slo`: the policy's objectives and alert rules in OpenSLO v1, both ways.
struct SLOCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slo",
        abstract: "Write the policy's objectives as OpenSLO v1 documents, or read OpenSLO v1 into the policy format.",
        subcommands: [Export.self, Import.self])

    /// `slo export`.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the objectives and burn-rate rules of the policy as OpenSLO v1 YAML documents.",
            discussion: """
                One Service (purchases), the AlertNotificationTargets page and ticket, and per objective an SLI \
                (ratioMetric: good = success and 409 already granted, total = valid events of its action, metric \
                source type purchase-sli), an SLO (Occurrences over its window), and per burn-rate rule an \
                AlertCondition (burnrate gte its threshold, lookbackWindow the long window, alertAfter the short one) \
                with its AlertPolicy. An app's own objectives (apps.<id>.objectives) follow, their metric sources \
                naming the app beside the action. What OpenSLO has no field for (budget share, owner, runbook, \
                weight, the fast test) is in purchase-sli.dev/ annotations, so that slo import reads the same policy back.

                Examples:
                  purchase-sli slo export --format openslo > purchases.openslo.yaml
                  purchase-sli slo export --policy dashboards/slos.yaml | head -20
                """)

        /// Output formats.
        enum Format: String, ExpressibleByArgument, CaseIterable {
            case openslo
        }

        @OptionGroup var policyOptions: PolicyOptions

        @Option(help: "Output format.")
        var format: Format = .openslo

        func run() throws {
            let policy = try exitingOnFailure { try policyOptions.load() }
            print(OpenSLO.documents(of: policy), terminator: "")
        }
    }

    /// `slo import`.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Read OpenSLO v1 documents (SLO, SLI, AlertPolicy, AlertCondition, Service) and print them as the policy's objectives and rules.",
            discussion: """
                Each SLO must count the events of one action by Occurrences (a ratioMetric whose metric sources \
                name an actionType) over a rolling window of days or a calendar month; its AlertPolicies' burnrate \
                conditions become the burn-rate rules, the same for every SLO. An SLO whose metric sources also \
                name an app is that app's own objective (apps.<id>.objectives). What the policy cannot say is refused \
                with the file, the document and the field. The output is the objectives, apps.<id>.objectives, \
                burnRateRules and fastBurn keys of a policy file: put them in dashboards/slos.yaml (the other keys \
                keep their defaults).

                Example:
                  purchase-sli slo import purchases.openslo.yaml > slos.yaml
                """)

        @Argument(help: ArgumentHelp("OpenSLO v1 YAML files (several documents each, separated by ---).", valueName: "file"))
        var files: [String]

        func run() throws {
            let output = try exitingOnFailure { () throws -> String in
                let texts = try files.map { file -> (name: String, text: String) in
                    guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure(message: "\(file): cannot be read") }
                    return (file, String(decoding: data, as: UTF8.self))
                }
                do {
                    return try OpenSLOImport.policy(from: texts).objectivesAndRulesYAML
                } catch let failure as OpenSLOImport.Failure {
                    throw CommandFailure(message: failure.description)
                }
            }
            print("# Read from OpenSLO v1 (\(files.joined(separator: ", "))) by purchase-sli slo import.")
            print(output, terminator: "")
        }
    }
}
