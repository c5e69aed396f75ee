import Foundation
import Hummingbird
import MultipartKit
import TallyLanguages

extension FormFields {
    /// A multipart form read whole: its text fields, and its files by field. For forms whose file
    /// is small (a receipt, at most 10 MB); a large file streams to disk instead (`FileUpload`).
    init(multipart body: ByteBuffer, contentType: String) throws {
        guard let boundary = FileUpload.parameter("boundary", in: contentType) else {
            throw HTTPError(.badRequest, message: t("The form arrived damaged; try sending it again."))
        }
        let parser = MultipartParser(boundary: boundary)
        var fields: [String: String] = [:]
        var files: [String: Data] = [:]
        var name: String?
        var isFile = false
        var part = Data()
        parser.onHeader = { field, value in
            guard field.lowercased() == "content-disposition" else { return }
            name = FileUpload.parameter("name", in: value)
            isFile = FileUpload.parameter("filename", in: value) != nil
        }
        parser.onBody = { buffer in part.append(contentsOf: buffer.readableBytesView) }
        parser.onPartComplete = {
            if let name {
                if isFile { files[name] = part } else { fields[name] = String(decoding: part, as: UTF8.self) }
            }
            (name, isFile, part) = (nil, false, Data())
        }
        do { try parser.execute(body) } catch {
            throw HTTPError(.badRequest, message: t("The form arrived damaged; try sending it again."))
        }
        self.init(fields: fields, files: files)
    }

    /// The file sent in `name`, when one was chosen.
    func file(_ name: String) -> Data? { files[name] }
}
