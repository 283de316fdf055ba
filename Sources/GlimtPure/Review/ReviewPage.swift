/// A year page's HTML: the same skeleton for every year, its script builds the page from the
/// year's data file. Every file it names is beside it: the page opens from `file://` and fetches
/// nothing.
enum ReviewPage {
    static func html(year: Int, person: String?) -> String {
        let whose = person.map { " (\(escaped($0)))" } ?? ""
        return """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>glimt-pure review: \(year)\(whose)</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="stylesheet" href="assets/review.css"></head>
        <body>
        <noscript>This page needs JavaScript (it runs from your own disk, and fetches nothing).</noscript>
        <main id="app" aria-live="polite"></main>
        <script src="data/\(year).js"></script>
        <script src="assets/choices.js"></script>
        <script src="assets/review.js"></script>
        </body></html>

        """
    }

    /// Text for HTML: a person's name may hold anything.
    static func escaped(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
