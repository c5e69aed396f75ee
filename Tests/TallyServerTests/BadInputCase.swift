import HTTPTypes
import Testing

/// A request the API must refuse: the status it must answer, and words its problem's detail
/// must contain. Each is also shown to change nothing.
struct BadInputCase: CustomTestStringConvertible, Sendable {
    var method: HTTPRequest.Method
    var path: String
    var body: String?
    var status: HTTPResponse.Status
    /// Words the problem's detail must contain.
    var says: String
    /// The field the problem must name, when the case says.
    var field: String?

    init(method: HTTPRequest.Method, path: String, body: String?, status: HTTPResponse.Status, says: String, field: String? = nil) {
        (self.method, self.path, self.body, self.status, self.says, self.field) = (method, path, body, status, says, field)
    }

    init(_ method: HTTPRequest.Method, _ path: String, _ body: String?, _ status: HTTPResponse.Status = .badRequest, says: String,
         field: String? = nil) {
        self.init(method: method, path: path, body: body, status: status, says: says, field: field)
    }

    var testDescription: String { "\(method) \(path) \(body.map { String($0.prefix(120)) } ?? "") → \(status.code)" }
}
