import ArgumentParser
import PurchaseSLICore

/// The `--app` option of the commands that can show one app of a store several apps write to.
struct AppOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only this app: the events naming it in their app field and the store notifications of this bundle id or package name.",
            valueName: "id"))
    var app: String?

    func validate() throws {
        if let app { try Self.check(app) }
    }

    /// Throws a `ValidationError` naming `option` unless `app` is an app id as events may carry it.
    static func check(_ app: String, option: String = "app") throws {
        do throws(EventValidationError) {
            guard !app.isEmpty else { throw EventValidationError(field: "app", reason: "must not be empty") }
            try EventValidator.checkIdentifier(app, .app, maximumLength: EventDimension.app.maximumLength!)
        } catch {
            throw ValidationError("--\(option): \(error.reason), got \"\(app)\".")
        }
    }
}
