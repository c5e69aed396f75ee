import Foundation
import Hummingbird
import TallyCore
import TallyRepositories
import TallyServices

/// The calendar feed itself (H11): its secret address is its only credential, so it needs no
/// session or token (a calendar app has neither).
struct CalendarFeedController {
    let services: APIServices

    static func path(_ secret: String) -> String { "/calendar/\(secret).ics" }

    func addRoutes(to router: Router<TallyRequestContext>) {
        router.get("calendar/:file", use: feed)
    }

    @Sendable func feed(_ request: Request, context: TallyRequestContext) async throws -> Response {
        let file = context.parameters.get("file") ?? ""
        guard file.hasSuffix(".ics"), let ics = try await services.accounts.calendarFeed(secret: String(file.dropLast(4))) else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: "There is no calendar at this address: it may have been replaced or stopped.\n")))
        }
        return Response(status: .ok, headers: [.contentType: "text/calendar; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: ics)))
    }
}
