import Foundation

/// One row of the side-by-side report: a stage timed in our engine and (when there is one) in a
/// peer, in the same run. `ratio` is ours / peer in time: under 1 means we are faster.
struct StageRecord {
    var stage: String
    var oursMs: Double?
    var peer: String?
    var peerMs: Double?
    /// GFLOP one run of the stage does (models only), for effective GFLOPS.
    var gflop: Double?
    /// GFLOPS measured directly (the sgemm yardstick), when there is no GFLOP count.
    var measuredGflops: Double?
    var peakMB: Double?
    var peerPeakMB: Double?
    var note: String?

    var ratio: Double? { oursMs.flatMap { o in peerMs.map { o / $0 } } }
    var gflops: Double? { gflop.flatMap { g in oursMs.map { g / $0 * 1000 } } ?? measuredGflops }
    var peerGflops: Double? { gflop.flatMap { g in peerMs.map { g / $0 * 1000 } } }

    func json(sgemm: Double?) -> [String: Any] {
        var d: [String: Any] = ["stage": stage]
        d["ours_ms"] = oursMs ?? NSNull()
        d["peer"] = peer ?? NSNull()
        d["peer_ms"] = peerMs ?? NSNull()
        d["ratio"] = ratio ?? NSNull()
        d["gflops"] = gflops ?? NSNull()
        d["fraction_of_sgemm"] = gflops.flatMap { g in sgemm.map { g / $0 } } ?? NSNull()
        d["peer_gflops"] = peerGflops ?? NSNull()
        d["peer_fraction_of_sgemm"] = peerGflops.flatMap { g in sgemm.map { g / $0 } } ?? NSNull()
        if let peakMB { d["peak_rss_mb"] = peakMB }
        if let peerPeakMB { d["peer_peak_rss_mb"] = peerPeakMB }
        d["note"] = note ?? NSNull()
        return d
    }
}

enum StageTable {
    /// One JSON object per line, one line per record.
    static func printJSON(_ records: [StageRecord], sgemm: Double?) {
        for r in records {
            var record = r.json(sgemm: sgemm)
            record["stage"] = r.stage.trimmingCharacters(in: .whitespaces)  // the table's indent is not part of the name
            let data = try! JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    static func printTable(_ records: [StageRecord], sgemm: Double?) {
        func f(_ v: Double?, _ format: String) -> String { v.map { String(format: format, $0) } ?? "-" }
        func pad(_ s: String, _ n: Int, left: Bool = false) -> String {
            s.count >= n ? s : (left ? String(repeating: " ", count: n - s.count) + s : s + String(repeating: " ", count: n - s.count))
        }
        print(
            pad("stage", 48) + pad("ours ms", 10, left: true) + "  " + pad("peer", 22) + pad("peer ms", 10, left: true)
                + pad("ours/peer", 10, left: true) + pad("GFLOPS", 8, left: true) + pad("of sgemm", 9, left: true) + pad("peer GF", 8, left: true)
                + "  note")
        for r in records {
            var note = r.note ?? ""
            if let m = r.peakMB {
                note =
                    String(format: "peak RSS %.0f MB", m) + (r.peerPeakMB.map { String(format: " (peer %.0f MB)", $0) } ?? "")
                    + (note.isEmpty ? "" : "; ") + note
            }
            let fraction = r.gflops.flatMap { g in sgemm.map { g / $0 * 100 } }
            print(
                pad(r.stage, 48) + pad(f(r.oursMs, "%.2f"), 10, left: true) + "  " + pad(r.peer ?? "-", 22) + pad(f(r.peerMs, "%.2f"), 10, left: true)
                    + pad(f(r.ratio, "%.2f"), 10, left: true) + pad(f(r.gflops, "%.1f"), 8, left: true) + pad(f(fraction, "%.1f%%"), 9, left: true)
                    + pad(f(r.peerGflops, "%.1f"), 8, left: true) + "  " + note)
        }
    }
}
