import Imaging

/// How much the picture changed from one sample to the next, to find scene cuts: a second that
/// straddles one shows a few frames of another shot.
///
/// Two measures of a sample: the mean colour of each cell of an 8x8 grid (where things are) and
/// a 16-bin histogram of each channel (what colours there are). A cut changes both; a camera
/// pan or a child running through the picture moves the grid but keeps the histograms, and a
/// light coming on shifts the histograms with little change in layout. The change is the lesser
/// of the two, the grid's doubled: the joins of the test clips measure 0.09 (two shots of one
/// room) to 0.6, while no sample of the bundled sample's and shared folder's single shots
/// measures over 0.07, and those in moving shots beside others nearly as large. So a cut is a
/// change of `cutThreshold`, or a smaller one that stands out from the changes around it
/// (`standOut` times their mean, over `standOutFrom`), as PySceneDetect's adaptive detector
/// does. The change is kept (the library stores it), the rule applied when judging.
public struct ShotSignature: Sendable, Equatable {
    static let grid = 8, bins = 16
    /// Cell means, r g b per cell, row by row.
    var cells: [Float]
    /// Per channel, the fraction of the picture in each bin.
    var histograms: [Float]

    /// A change of at least this much between two samples 1/8 s apart is a scene cut.
    public static let cutThreshold: Float = 0.1
    public static let standOut: Float = 3, standOutFrom: Float = 0.04

    /// Per sample, whether a cut lies between it and the sample before (`changes`: each one's
    /// change from the sample before it, nil where there is none).
    public static func cuts(_ changes: [Float?]) -> [Bool] {
        changes.indices.map { i in
            guard let c = changes[i] else { return false }
            if c >= cutThreshold { return true }
            guard c >= standOutFrom else { return false }
            // The changes of the two samples each side of this one, in the same run of samples.
            var around: [Float] = []
            var j = i
            while j > 0, changes[j] != nil, around.count < 2 {
                j -= 1
                if let x = changes[j] { around.append(x) }
            }
            j = i + 1
            while j < changes.count, let x = changes[j], around.count < 4 {
                around.append(x)
                j += 1
            }
            guard !around.isEmpty else { return false }
            return c >= standOut * around.reduce(0, +) / Float(around.count)
        }
    }

    public static func measure(_ image: RGBImage) -> ShotSignature {
        let g = grid, w = image.width, h = image.height
        var sums = [Int](repeating: 0, count: 3 * g * g), counts = [Int](repeating: 0, count: g * g)
        var bins = [Int](repeating: 0, count: 3 * Self.bins)
        // Every fourth pixel of every fourth row: a cut changes the whole picture.
        image.pixels.withUnsafeBufferPointer { p in
            for y in stride(from: 0, to: h, by: 4) {
                let cy = y * g / max(h, 1)
                for x in stride(from: 0, to: w, by: 4) {
                    let cell = cy * g + x * g / max(w, 1), i = 3 * (y * w + x)
                    counts[cell] += 1
                    for c in 0..<3 {
                        let v = Int(p[i + c])
                        sums[3 * cell + c] += v
                        bins[c * Self.bins + v * Self.bins / 256] += 1
                    }
                }
            }
        }
        let cells = sums.indices.map { Float(sums[$0]) / Float(max(counts[$0 / 3], 1)) / 255 }
        let total = Float(max(counts.reduce(0, +), 1))
        return ShotSignature(cells: cells, histograms: bins.map { Float($0) / total })
    }

    /// The change from `other` in [0, 1]: the lesser of the grid's mean colour difference
    /// (doubled) and the histograms' mean half-L1 distance.
    public func change(from other: ShotSignature) -> Float {
        guard cells.count == other.cells.count, histograms.count == other.histograms.count else { return 0 }
        var grid: Float = 0, histogram: Float = 0
        for i in cells.indices { grid += abs(cells[i] - other.cells[i]) }
        for i in histograms.indices { histogram += abs(histograms[i] - other.histograms[i]) }
        return min(2 * grid / Float(cells.count), histogram / 2 / 3)
    }
}
