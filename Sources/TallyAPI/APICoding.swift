import Foundation
import TallyCore

/// The API's JSON, for the server and its clients alike: instants in ISO 8601 (read with or without
/// fractional seconds, as browsers' `toISOString()` writes them), keys sorted for stable output.
public enum APICoding {
    public static let decoder = makeDecoder()

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            if let date = InternetTime.instant(text) { return date }
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: "\(text) is not an ISO 8601 time such as 2025-03-30T08:15:00Z."))
        }
        return decoder
    }

    /// Every answer's writer (see `WireEncoder`).
    public static let encoder = WireEncoder()
}
