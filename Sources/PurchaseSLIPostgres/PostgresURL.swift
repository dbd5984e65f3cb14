#if PostgreSQL
import Foundation
import PostgresNIO
import PurchaseSLIStorage

/// Where a PostgreSQL store is: `postgres://user:password@host:port/database?sslmode=…` (or
/// `postgresql://`), as libpq spells it. Its description never shows the password.
public struct PostgresURL: Sendable, CustomStringConvertible {
    /// The host name or address.
    public let host: String
    /// The port (5432 unless given).
    public let port: Int
    /// The user name.
    public let username: String
    /// The password, if any.
    let password: String?
    /// The database (the user's name unless given, as libpq does).
    public let database: String
    /// `disable`, `prefer` (the default), `require` or `verify-full`.
    public let sslMode: String

    /// The TLS modes libpq names that this store supports.
    public static let sslModes = ["disable", "prefer", "require", "verify-full"]

    /// Parses a URL.
    /// - Throws: ``PostgresURLError`` naming what is wrong (never repeating the password).
    public init(_ text: String) throws {
        guard DatabaseAddress.isPostgres(text), text.contains("://"), let components = URLComponents(string: text) else {
            throw PostgresURLError("expected postgres://user:password@host:port/database, got \(Self.redacted(text))")
        }
        guard let host = components.host, !host.isEmpty else { throw PostgresURLError("\(Self.redacted(text)) names no host") }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresURLError("\(Self.redacted(text)) names no user (postgres://user:password@host/database)")
        }
        self.host = host
        port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw PostgresURLError("\(Self.redacted(text)): the port must be from 1 to 65535, got \(port)") }
        username = user.removingPercentEncoding ?? user
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? username : (path.removingPercentEncoding ?? path)
        var sslMode = "prefer"
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, Self.sslModes.contains(value) else {
                    throw PostgresURLError("sslmode must be one of \(Self.sslModes.joined(separator: ", ")), got \(item.value ?? "nothing")")
                }
                sslMode = value
            default:
                throw PostgresURLError("unknown parameter \(item.name) in \(Self.redacted(text)); only sslmode is understood")
            }
        }
        self.sslMode = sslMode
    }

    /// The URL with the password replaced by `***`: what logs, errors and pages may show.
    public var description: String {
        let user = username.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? username
        return "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
            + (sslMode == "prefer" ? "" : "?sslmode=\(sslMode)")
    }

    /// `text` for messages about a URL that does not parse: whatever stands between the scheme and the
    /// last `@` (a user and password) is `…`, and parameters (libpq's `?password=` among them) are left out.
    static func redacted(_ text: String) -> String {
        let withoutParameters = text.firstIndex(of: "?").map { String(text[..<$0]) + "?…" } ?? text
        guard let at = withoutParameters.lastIndex(of: "@") else { return withoutParameters }
        return withoutParameters.prefix { $0 != ":" } + "://…" + withoutParameters[at...]
    }

    /// The TLS settings of `sslmode`: none for `disable`; else whether the server must speak TLS
    /// (`require`, `verify-full`) and whether its certificate is verified (`verify-full` only, as libpq does).
    private var tls: (required: Bool, configuration: TLSConfiguration)? {
        guard sslMode != "disable" else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        if sslMode != "verify-full" { configuration.certificateVerification = .none }
        return (sslMode != "prefer", configuration)
    }

    /// The pool's configuration for this URL.
    func clientConfiguration() -> PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS = tls.map { $0.required ? .require($0.configuration) : .prefer($0.configuration) } ?? .disable
        return PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: mode)
    }

    /// A single connection's configuration for this URL.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let mode: PostgresConnection.Configuration.TLS =
            try tls.map {
                let context = try NIOSSLContext(configuration: $0.configuration)
                return $0.required ? .require(context) : .prefer(context)
            } ?? .disable
        return PostgresConnection.Configuration(host: host, port: port, username: username, password: password, database: database, tls: mode)
    }
}

/// A PostgreSQL URL that does not parse.
public struct PostgresURLError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String

    init(_ description: String) { self.description = description }
}
#endif
