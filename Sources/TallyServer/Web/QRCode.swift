import CQRencode
import Foundation
import TallyLanguages

/// A QR code of a text (an invite link), drawn as SVG by the server: no third-party service
/// sees the link. libqrencode makes the modules; this draws them as one path, with the quiet
/// zone the standard asks for.
enum QRCode {
    /// The SVG of `text` at error correction level M, or nil when the text does not fit a QR code.
    static func svg(_ text: String, title: String) -> HTML? {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let modules = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // One "h1v1h-1z" square per dark module (bit 0 of each byte), in one path.
        var path = ""
        path.reserveCapacity(width * width * 6)
        for row in 0..<width {
            for column in 0..<width where modules[row * width + column] & 1 == 1 {
                path += "M\(column + 4) \(row + 4)h1v1h-1z"
            }
        }
        let size = width + 8
        return HTML(unsafe: """
            <svg class="qr" viewBox="0 0 \(size) \(size)" role="img" aria-label="\(HTML.escape(title))" shape-rendering="crispEdges">\
            <rect width="\(size)" height="\(size)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """)
    }
}
