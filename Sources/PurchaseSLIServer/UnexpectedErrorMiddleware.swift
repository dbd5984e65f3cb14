import Hummingbird
import Logging
import PurchaseSLICore

/// Answers an error no route turned into a response (a damaged database, a bug) with 500 and a JSON
/// body that says what failed, and logs it with the request's path: never an empty 500 nobody hears of.
struct UnexpectedErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            logger.error("request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(error)"])
            return Response.json(.internalServerError, ErrorAnswer(error: "the server could not answer: \(error)"))
        }
    }
}
