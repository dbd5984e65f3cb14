import HTTPTypes
import Hummingbird

/// The guard of the routes that change what the service keeps (maintenance windows, acknowledgements):
/// an admin key (`serve --admin-keys`) and no request a browser says another site's page made, since a
/// browser resends the key it keeps for the pages. Without admin keys configured every change is refused,
/// even on 127.0.0.1 with no key at all: any local process, and a web page through DNS rebinding, reaches
/// loopback.
struct AdminAccess: Sendable {
    /// The keys that may change it.
    let keys: AccessKeys
    /// What the routes change, for the refusals: "declaring or removing maintenance windows".
    let change: String
    /// What a read key may do there instead: "a read key only lists them".
    let readKeyMay: String
    /// How to change it without the service: "purchase-sli maintenance works on the database".
    let offline: String

    /// Refuses `request` (403) unless it presents an admin key and no browser says another site made it.
    func check(_ request: Request) throws {
        guard keys.isEnabled else {
            throw IngestError.forbidden("\(change) needs an admin key (serve --admin-keys); none is configured (\(offline))")
        }
        guard let presented = ReadAccessMiddleware<ServerRequestContext>.presentedKey(request), keys.match(presented) != nil else {
            throw IngestError.forbidden("\(change) needs an admin key (Authorization: Bearer KEY); \(readKeyMay)")
        }
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site == "cross-site" {
            throw IngestError.forbidden("\(change) is refused from a request another site's page made")
        }
    }

    /// Refuses a body other than JSON (415): a browser sends one cross-site only after a CORS preflight this
    /// server never grants, so a page elsewhere cannot post a form with the key a browser keeps for the pages.
    func requireJSON(_ request: Request) throws {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            throw IngestError.unsupportedMediaType("expected Content-Type: application/json")
        }
    }
}
