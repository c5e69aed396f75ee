import Foundation
import Hummingbird
import MultipartKit
import TallyLanguages

/// A `multipart/form-data` form with one file, read as it streams in: the file part goes to
/// `file` on disk, the other (small) fields are kept as text. A plain HTML form can upload a
/// file of gigabytes this way, with or without JavaScript.
struct FileUpload {
    var fields: [String: String] = [:]
    var fileSize: Int64 = 0

    /// What the form may send besides the file (its fields and every part's headers): a token
    /// and a flag need far less.
    static let maxFormSize = 64 * 1024

    /// Reads the form. `checkFields` sees the fields sent before the file (the CSRF token comes
    /// first in the form) and may refuse the upload before a byte of the file is stored.
    static func receive(_ request: Request, fileField: String, to file: URL, maxSize: Int64,
                        checkFields: @escaping ([String: String]) throws -> Void) async throws -> FileUpload {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("multipart/form-data"),
              let boundary = parameter("boundary", in: type) else {
            throw HTTPError(.unsupportedMediaType, message: t("Send the file from the form on the settings page (multipart/form-data)."))
        }
        guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else { throw HealthUpload.cannotStore() }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let lease = UploadSpace.server.lease()

        let parser = MultipartParser(boundary: boundary)
        var upload = FileUpload()
        var name: String?
        var text: [UInt8] = []
        var fileState = FilePart.notYet
        var refusal: (any Error)?
        parser.onHeader = { field, value in
            guard field.lowercased() == "content-disposition" else { return }
            name = Self.parameter("name", in: value)
            if name == fileField, fileState == .notYet {
                do { try checkFields(upload.fields); fileState = .arriving } catch { refusal = refusal ?? error }
            }
        }
        parser.onBody = { buffer in
            guard refusal == nil else { return }
            if name == fileField {
                guard fileState == .arriving else { return }
                upload.fileSize += Int64(buffer.readableBytes)
                guard upload.fileSize <= maxSize else { return }
                do {
                    try lease.take(Int64(buffer.readableBytes))
                    try handle.write(contentsOf: buffer.readableBytesView)
                } catch { refusal = HealthUpload.cannotStore() }
            } else {
                text.append(contentsOf: buffer.readableBytesView)
            }
        }
        parser.onPartComplete = {
            if name == fileField {
                if fileState == .arriving { fileState = .complete }
            } else if let name {
                upload.fields[name] = String(decoding: text, as: UTF8.self)
            }
            name = nil
            text = []
        }

        var received: Int64 = 0
        for try await chunk in request.body {
            received += Int64(chunk.readableBytes)
            do { try parser.execute(chunk) } catch {
                throw HTTPError(.badRequest, message: t("The upload arrived damaged; try sending it again."))
            }
            if let refusal { throw refusal }
            guard upload.fileSize <= maxSize else {
                throw HTTPError(.contentTooLarge, message: maxSize >= 1 << 30 ? t("The file can be at most \(Int(maxSize >> 30)) GB; this one is bigger.")
                                                                              : t("The file can be at most \(Int(maxSize >> 20)) MB; this one is bigger."))
            }
            guard received - upload.fileSize <= maxFormSize else {
                throw HTTPError(.contentTooLarge, message: t("The form sent more than a file and a few fields; send it from the settings page."))
            }
        }
        if fileState == .notYet { try checkFields(upload.fields) }
        guard fileState != .arriving else {
            throw HTTPError(.badRequest, message: t("The upload ended before the whole file arrived; try sending it again."))
        }
        return upload
    }

    private enum FilePart { case notYet, arriving, complete }

    /// A `key=value` or `key="value"` parameter of a header value.
    static func parameter(_ key: String, in header: String) -> String? {
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == key else { continue }
            return pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
        }
        return nil
    }
}
