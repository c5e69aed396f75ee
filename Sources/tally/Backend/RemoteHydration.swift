import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TallyCore
import TallyImport
import TallyStore

/// A Tally server's JSON API (openapi.yaml), as the signed-in holder of a personal API token.
/// The server applies every rule; this only sends millilitres and instants, and turns the
/// answers back into the values the local service gives.
struct RemoteHydration: HydrationBackend {
    let client: APIClient

    func settings() async throws -> HydrationSettings {
        try await client.send("GET", "settings", as: SettingsBody.self).settings
    }

    // MARK: - Entries

    func logDrink(_ drink: HydrationService.Drink) async throws -> EntryResult {
        let body = NewIntakeBody(id: drink.id, volumeMl: drink.volumeMl, kind: drink.kindName, at: drink.at, note: drink.note)
        return try await client.send("POST", "intakes", body: body)
    }

    func remove(volumeMl: Double, at: Date?, id: UUID?) async throws -> EntryResult {
        try await client.send("POST", "removals", body: NewRemovalBody(id: id, volumeMl: volumeMl, at: at))
    }

    /// A full id goes to the server as it is; a prefix is looked for among the entries of today
    /// (the server's) and the 30 days before, the most recent day first.
    func resolveEntryID(_ reference: String) async throws -> UUID {
        try await HydrationService.resolveEntryID(reference) { prefix in
            let hex = prefix.replacingOccurrences(of: "-", with: "").uppercased()
            guard !hex.isEmpty, hex.allSatisfy(\.isHexDigit) else { return [] }
            func matches(_ entries: [DayEntry]) -> [UUID] {
                entries.map(\.id).filter { $0.uuidString.replacingOccurrences(of: "-", with: "").hasPrefix(hex) }
            }
            let today = try await daySummary(on: nil)
            var found = matches(today.entries)
            var daysBack = 1
            while found.isEmpty && daysBack <= Self.daysSearchedForPrefixes {
                found = matches(try await entries(on: today.date.adding(days: -daysBack)))
                daysBack += 1
            }
            return Array(found.prefix(2))
        }
    }

    static let daysSearchedForPrefixes = 30

    /// Every entry of a day, following the pages.
    private func entries(on day: LocalDate) async throws -> [DayEntry] {
        var entries: [DayEntry] = []
        var cursor: String?
        repeat {
            var query = [URLQueryItem(name: "date", value: "\(day)"), URLQueryItem(name: "limit", value: "500")]
            if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
            let page = try await client.send("GET", "entries", query: query, as: EntryPageBody.self)
            entries += page.items
            cursor = page.nextCursor
        } while cursor != nil
        return entries
    }

    func deleteEntry(id: UUID) async throws -> DeletedEntry {
        try await client.send("DELETE", "entries/\(id.uuidString.lowercased())")
    }

    func editDrink(id: UUID, _ edit: HydrationService.DrinkEdit) async throws -> EntryResult {
        let body = IntakeChangeBody(volumeMl: edit.volumeMl, kind: edit.kindName, at: edit.at, note: edit.note)
        return try await client.send("PATCH", "intakes/\(id.uuidString.lowercased())", body: body)
    }

    // MARK: - Days

    func daySummary(on date: LocalDate?) async throws -> DaySummary {
        try await client.send("GET", date.map { "days/\($0)" } ?? "today")
    }

    func history(days: Int, month: YearMonth?) async throws -> HydrationHistory {
        var query = [URLQueryItem(name: "days", value: String(days))]
        if let month { query.append(URLQueryItem(name: "month", value: "\(month)")) }
        return try await client.send("GET", "history", query: query)
    }

    // MARK: - Goal and profile

    func goalStatus() async throws -> GoalStatus { try await client.send("GET", "goal") }

    func setGoal(_ choice: GoalChoice) async throws -> GoalStatus {
        let body: GoalChangeBody = switch choice {
        case .automatic: GoalChangeBody(mode: .automatic, goalMl: nil)
        case .custom(let ml): GoalChangeBody(mode: .custom, goalMl: ml)
        case .none: GoalChangeBody(mode: .none, goalMl: nil)
        }
        return try await client.send("PUT", "goal", body: body)
    }

    func calculateGoal(for profile: Profile) async throws -> GoalBreakdown {
        try await client.send("POST", "goal/calculate", body: profile)
    }

    func setProfile(_ profile: Profile?) async throws -> GoalStatus {
        if let profile { return try await client.send("PUT", "profile", body: profile) }
        return try await client.send("DELETE", "profile")
    }

    // MARK: - Drink kinds

    func drinkKinds() async throws -> [DrinkKind] { try await client.send("GET", "kinds") }

    func addDrinkKind(name: String, factor: Double) async throws -> DrinkKind {
        try await client.send("POST", "kinds", body: NewKindBody(name: name, factor: factor))
    }

    func renameDrinkKind(_ name: String, to newName: String) async throws -> DrinkKind {
        try await changeKind(named: name, KindChangeBody(name: newName))
    }

    func retireDrinkKind(_ name: String) async throws -> DrinkKind {
        try await changeKind(named: name, KindChangeBody(retired: true))
    }

    func setFactor(of name: String, to factor: Double) async throws -> DrinkKind {
        try await changeKind(named: name, KindChangeBody(factor: factor))
    }

    /// The API changes kinds by id: find the active kind of that name as the service would, and
    /// let the server judge the change (built-in kinds keep their names, factor range…).
    private func changeKind(named name: String, _ change: KindChangeBody) async throws -> DrinkKind {
        let kind = try HydrationService.activeKind(named: name, among: try await drinkKinds())
        return try await client.send("PATCH", "kinds/\(kind.id.uuidString.lowercased())", body: change)
    }

    func useFactors(_ set: DrinkFactorSet) async throws -> [DrinkKind] {
        try await client.send("PUT", "kinds/factors", body: ["set": set])
    }

    // MARK: - Settings

    func setUnit(_ unit: VolumeUnit) async throws -> HydrationSettings {
        try await client.send("PATCH", "settings", body: SettingsChangeBody(unit: unit), as: SettingsBody.self).settings
    }

    func setTimeZone(_ identifier: String) async throws -> HydrationSettings {
        try await client.send("PATCH", "settings", body: SettingsChangeBody(timeZone: identifier), as: SettingsBody.self).settings
    }

    func setPresets(_ amountsMl: [Double]?) async throws -> HydrationSettings {
        try await client.send("PUT", "presets", body: PresetsChangeBody(amountsMl: amountsMl), as: SettingsBody.self).settings
    }

    func bottle() async throws -> Bottle { try await client.send("GET", "bottle") }
    // The id makes a sip the network repeats count once.
    func sip() async throws -> BottleResult { try await client.send("POST", "bottle/sip", body: ["id": UUID()]) }
    func fillBottle() async throws -> Bottle { try await client.send("POST", "bottle/fill") }

    func adjustBottle(capacityMl: Double?, levelMl: Double?, sipMl: Double?) async throws -> Bottle {
        try await client.send("PATCH", "bottle", body: BottleChangeBody(levelMl: levelMl, capacityMl: capacityMl, sipMl: sipMl))
    }

    func importAppleHealth(_ file: URL) async throws -> AppleHealthImporter.Report {
        guard FileManager.default.fileExists(atPath: file.path) else { throw AppleHealthExport.missing(file) }
        // The server reads a big export for a while before it answers.
        let answer = try await client.exchange("POST", "import/apple-health", bodyFile: file,
                                               contentType: "application/octet-stream", timeout: 30 * 60)
        do {
            return try JSONDecoder().decode(AppleHealthImporter.Report.self, from: answer)
        } catch {
            throw RemoteFailure("The server at \(client.server) answered the import with a body this tally cannot read.")
        }
    }
}

private struct BottleChangeBody: Encodable {
    var levelMl: Double?
    var capacityMl: Double?
    var sipMl: Double?
}

// MARK: - The API's own bodies (openapi.yaml, components/schemas)

private struct NewIntakeBody: Encodable {
    var id: UUID?
    var volumeMl: Double
    var kind: String?
    var at: Date?
    var note: String?
}

private struct NewRemovalBody: Encodable {
    var id: UUID?
    var volumeMl: Double
    var at: Date?
}

private struct IntakeChangeBody: Encodable {
    var volumeMl: Double?
    var kind: String?
    var at: Date?
    /// Left out: unchanged; null: cleared.
    var note: String??

    enum CodingKeys: String, CodingKey { case volumeMl, kind, at, note }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(volumeMl, forKey: .volumeMl)
        try c.encodeIfPresent(kind, forKey: .kind)
        try c.encodeIfPresent(at, forKey: .at)
        if let note { try c.encode(note, forKey: .note) }
    }
}

private struct EntryPageBody: Decodable {
    var items: [DayEntry]
    var nextCursor: String?
}

private struct GoalChangeBody: Encodable {
    var mode: Goal.Mode
    var goalMl: Double?
}

private struct NewKindBody: Encodable {
    var name: String
    var factor: Double
}

private struct KindChangeBody: Encodable {
    var name: String?
    var factor: Double?
    var retired: Bool?
}

private struct SettingsChangeBody: Encodable {
    var unit: VolumeUnit?
    var timeZone: String?
}

private struct PresetsChangeBody: Encodable {
    var amountsMl: [Double]?
}

/// The API's Settings: the presets in force, whether they are the unit's defaults or the user's.
private struct SettingsBody: Decodable {
    var unit: VolumeUnit
    var timeZone: String
    var presetsMl: [Double]

    /// The settings as the local service keeps them. The API does not say whether presets were
    /// chosen; presets equal to the unit's defaults are taken for the defaults.
    var settings: HydrationSettings {
        let custom = presetsMl == Presets.defaults(for: unit).amountsMl ? nil : try? Presets(amountsMl: presetsMl, unit: unit)
        return HydrationSettings(unit: unit, timeZone: timeZone, customPresets: custom)
    }
}

// MARK: - HTTP

/// Sends requests to a Tally server's API with a personal API token, and turns its problems
/// into TallyErrors (the status gives the kind, `detail` the sentence) so that the CLI reports
/// them exactly as it reports the local service's.
struct APIClient: Sendable {
    /// As the user wrote it, without trailing slashes: messages name it.
    let server: String
    let token: String
    private let base: URL

    init(server: String, token: String) throws {
        var trimmed = server.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil else {
            throw TallyError.invalid(
                "\"\(server)\" is not a server address such as https://tally.example.com or http://127.0.0.1:8080.")
        }
        let token = token.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty, token.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 }) else {
            throw TallyError(.unauthorized, "That API token is not valid: a token is one word such as tally_…; create one with `tally token create`.")
        }
        self.server = trimmed
        self.token = token
        self.base = url
    }

    /// Requests answered quickly or not at all: a CLI should not hang on a dead server.
    static let timeout: TimeInterval = 30

    func send<Answer: Decodable>(_ method: String, _ path: String, query: [URLQueryItem] = [],
                                 body: (any Encodable)? = nil, as _: Answer.Type = Answer.self) async throws -> Answer {
        let data = try await exchange(method, path, query: query, body: try body.map { try Self.encoder.encode($0) },
                                      contentType: "application/json")
        do {
            return try Self.decoder.decode(Answer.self, from: data)
        } catch {
            throw RemoteFailure(
                "The server at \(server) answered \(method) /api/v1/\(path) with a body this tally cannot read: check that it is a Tally server of this version.")
        }
    }

    /// One request with a body of any type; the answer's body as it came, once it is a success.
    /// One request: `body` from memory, or `bodyFile` streamed from disk (an export to import).
    func exchange(_ method: String, _ path: String, query: [URLQueryItem] = [], body: Data? = nil, bodyFile: URL? = nil,
                  contentType: String, timeout: TimeInterval = Self.timeout) async throws -> Data {
        var components = URLComponents(url: base.appendingPathComponent("api/v1/" + path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        var request = URLRequest(url: components.url!, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue("tally-cli", forHTTPHeaderField: "User-Agent")
        if body != nil || bodyFile != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        request.httpBody = body

        let data: Data
        let response: URLResponse
        do {
            if let bodyFile {
                (data, response) = try await Self.session.upload(for: request, fromFile: bodyFile)
            } else {
                (data, response) = try await Self.session.data(for: request)
            }
        } catch {
            throw RemoteFailure("Cannot reach the server at \(server): \(Self.reason(error)).")
        }
        guard let http = response as? HTTPURLResponse else {
            throw RemoteFailure("The server at \(server) did not answer over HTTP.")
        }
        guard (200..<300).contains(http.statusCode) else {
            throw problem(status: http.statusCode, data, method: method, path: path)
        }
        return data
    }

    /// The error of an answer that is not a success: a TallyError with the problem's sentence
    /// when the server says what is wrong, as the local service would have.
    private func problem(status: Int, _ data: Data, method: String, path: String) -> any Error {
        struct Problem: Decodable { var detail: String? }
        guard let detail = (try? JSONDecoder().decode(Problem.self, from: data))?.detail?
                .trimmingCharacters(in: .whitespacesAndNewlines), !detail.isEmpty else {
            let reason = HTTPURLResponse.localizedString(forStatusCode: status)
            return RemoteFailure(
                "The server at \(server) answered \(method) /api/v1/\(path) with \(status) (\(reason)) and no explanation; check that it is a Tally server.")
        }
        switch status {
        case 400, 413, 422: return TallyError.invalid(detail)
        case 401, 403: return TallyError(.unauthorized, detail)
        case 404: return TallyError.notFound(detail)
        case 409: return TallyError.conflict(detail)
        case 429: return TallyError(.tooManyRequests, detail)
        case 503: return TallyError(.busy, detail)
        case 400..<500: return TallyError.invalid(detail)
        default: return RemoteFailure(detail)
        }
    }

    /// Why a request got no answer, in words (URLError's own descriptions are terse on Linux).
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? URLError else { return trimmedDescription(error) }
        switch error.code {
        case .cannotConnectToHost: return "the connection was refused"
        case .timedOut: return "it did not answer within \(Int(timeout)) seconds"
        case .cannotFindHost, .dnsLookupFailed: return "its host name is not known"
        case .notConnectedToInternet: return "this machine is not connected to a network"
        case .networkConnectionLost: return "the connection was lost"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            return "the TLS connection failed (\(trimmedDescription(error)))"
        default: return trimmedDescription(error)
        }
    }

    private static func trimmedDescription(_ error: any Error) -> String {
        var text = error.localizedDescription.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 2
        return URLSession(configuration: configuration)
    }()

    /// Instants as ISO 8601; fractional seconds only when there are some (the API reads both).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            let whole = date.timeIntervalSinceReferenceDate.rounded(.down) == date.timeIntervalSinceReferenceDate
            try container.encode(whole ? date.formatted(.iso8601)
                                       : date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = try? Date(text, strategy: .iso8601) { return date }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not an ISO 8601 time."))
        }
        return decoder
    }()
}

/// A failure that is no rule of Tally's: the server cannot be reached, fails, or does not speak
/// its API. The CLI prints the sentence and exits with 6.
struct RemoteFailure: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
