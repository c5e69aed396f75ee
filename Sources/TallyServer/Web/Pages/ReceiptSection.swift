import Foundation
import TallyCore
import TallyLanguages

/// An expense's receipt on the pages: a small copy in the history row, the receipt on the
/// entry's page (the whole photo one tap away) with what attaches, replaces or removes it, and
/// the camera button of the quick entry.
struct ReceiptSection {
    var ledger: UUID
    var entry: SpendingEntry
    /// What the entry is called on the page ("Groceries"): the photo's alternative text.
    var title: String
    /// Why the last receipt sent was refused.
    var refusal: String?

    /// The camera's outline, drawn in the text's colour.
    static let camera = HTML(unsafe: """
        <svg class="camera" viewBox="0 0 24 24" aria-hidden="true" focusable="false">\
        <path d="M4 8h3l2-3h6l2 3h3v11H4z"/><circle cx="12" cy="13" r="3.5"/></svg>
        """)

    func render(_ context: PageContext) -> HTML {
        let (file, small) = (SitePath.entryReceipt.link(ledger, entry.id), SitePath.entryReceipt.link(ledger, entry.id) + "?size=thumbnail")
        let shown: HTML = switch entry.receipt {
        case .none:
            "<p class=\"help\">\(t("No receipt yet: take a photo of it, or choose a photo or a PDF."))</p>"
        case .some(.pdf):
            "<p><a href=\"\(file)\" class=\"button\" download>\(t("Download the receipt (PDF)"))</a></p>"
        case .some:
            """
            <p><a href="\(file)" class="receipt-link" target="_blank" rel="noopener">\
            <img src="\(small)" alt="\(t("Receipt: \(title)"))" class="receipt-photo"></a></p>
            """
        }
        let invalid = refusal == nil ? HTML("") : HTML(unsafe: #" aria-invalid="true""#)
        let remove: HTML = entry.receipt == nil || entry.deletedAt != nil ? "" : """
            <form method="post" action="\(SitePath.removeEntryReceipt.link(ledger, entry.id))" \
            data-confirm="\(t("Remove the receipt of \(title)?"))">\(Layout.csrfField(context))\
            <button type="submit" class="delete">\(t("Remove the receipt"))</button></form>
            """
        return """
        <section class="card receipt" aria-labelledby="receipt-title">
        <h2 id="receipt-title">\(t("Receipt"))</h2>
        \(shown)
        <div class="row">
        <form method="post" action="\(file)" enctype="multipart/form-data" class="row" data-receipt>\(Layout.csrfField(context))
        <label for="receipt" class="button receipt-pick">\(Self.camera) \(entry.receipt == nil ? t("Attach a photo or PDF") : t("Replace it"))</label>
        <input id="receipt" name="receipt" type="file" accept="image/*,application/pdf" class="visually-hidden" required \
        aria-describedby="receipt-error"\(invalid)>
        <button type="submit">\(t("Attach"))</button>
        </form>
        \(remove)
        </div>
        <p class="field-error" id="receipt-error" aria-live="polite">\(refusal ?? "")</p>
        </section>
        """
    }

    /// The small copy at the start of a history row, or a mark for a PDF: the whole receipt is
    /// on the entry's page.
    static func thumbnail(ledger: UUID, entry: SpendingEntry, title: String) -> HTML {
        switch entry.receipt {
        case .none:
            return ""
        case .some(.pdf):
            return "<span class=\"receipt-mark\" title=\"\(t("Receipt (PDF)"))\">PDF</span>"
        case .some:
            let small = SitePath.entryReceipt.link(ledger, entry.id) + "?size=thumbnail"
            return "<img src=\"\(small)\" alt=\"\(t("Receipt: \(title)"))\" class=\"receipt-thumb\" loading=\"lazy\" width=\"40\" height=\"40\">"
        }
    }

    /// The quick entry's camera: a photo of the receipt taken as the expense is added.
    static func pick(error: String?) -> HTML {
        let invalid = error == nil ? HTML("") : HTML(unsafe: #" aria-invalid="true""#)
        return """
        <label for="add-receipt" class="button receipt-pick" title="\(t("Photo of the receipt"))">\(camera)\
        <span class="visually-hidden">\(t("Photo of the receipt (optional)"))</span></label>
        <input id="add-receipt" name="receipt" type="file" accept="image/*" capture="environment" class="visually-hidden" \
        aria-describedby="receipt-error"\(invalid)>
        """
    }
}
