import Foundation
import Hummingbird
import MultipartKit

/// A `multipart/form-data` form with one file, read as it streams in: the file part goes to
/// `file` on disk, the other (small) fields are kept as text. A plain HTML form can upload a
/// file of gigabytes this way, with or without JavaScript.
struct FileUpload {
    var fields: [String: String] = [:]
    var fileSize: Int64 = 0

    /// The longest text field kept; longer ones are cut (the form's fields are a token and a flag).
    static let maxFieldSize = 4096

    static func receive(_ request: Request, fileField: String, to file: URL, maxSize: Int64) async throws -> FileUpload {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data"),
              let boundary = boundary(type) else {
            throw HTTPError(.unsupportedMediaType, message: "Send the file from the form on the settings page (multipart/form-data).")
        }
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw HTTPError(.serviceUnavailable, message: "The server cannot store the upload now; try again later.")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }

        let parser = MultipartParser(boundary: boundary)
        var upload = FileUpload()
        var name: String?
        var text: [UInt8] = []
        var writeError: (any Error)?
        parser.onHeader = { field, value in
            if field.lowercased() == "content-disposition" { name = Self.parameter("name", in: value) }
        }
        parser.onBody = { buffer in
            if name == fileField {
                upload.fileSize += Int64(buffer.readableBytes)
                guard upload.fileSize <= maxSize, writeError == nil else { return }
                do { try handle.write(contentsOf: buffer.readableBytesView) } catch { writeError = error }
            } else if text.count < maxFieldSize {
                text.append(contentsOf: buffer.readableBytesView.prefix(maxFieldSize - text.count))
            }
        }
        parser.onPartComplete = {
            if let name, name != fileField { upload.fields[name] = String(decoding: text, as: UTF8.self) }
            name = nil
            text = []
        }
        for try await chunk in request.body {
            do { try parser.execute(chunk) } catch {
                throw HTTPError(.badRequest, message: "The upload arrived damaged; try sending it again.")
            }
            if let writeError { throw writeError }
            guard upload.fileSize <= maxSize else {
                throw HTTPError(.contentTooLarge, message: "The file can be at most \(maxSize >> 30) GB; this one is bigger.")
            }
        }
        return upload
    }

    /// The boundary parameter of a multipart content type, quoted or not.
    private static func boundary(_ contentType: String) -> String? {
        parameter("boundary", in: contentType)
    }

    /// A `key=value` or `key="value"` parameter of a header value.
    private static func parameter(_ key: String, in header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            return pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
        }
        return nil
    }
}
