import Analysis
import Faces
import Imaging
import MediaIO

/// Blinks that fall between samples. A blink lasts 100-300 ms and samples are 1/8 s apart, so a
/// second about to be chosen is decoded again and read at the video's own frame rate. Faces are
/// not detected again: each face whose eyes count at a sample is followed to the next sample,
/// its landmarks moved in a straight line, and its more visible eye is read in every frame
/// between (a blink closes both); one closed is confirmed by the other eye (`EyeReader.confirmed`).
enum EyesBetweenSamples {
    /// The same face at the next sample: its centre moved less than this share of its height.
    static let sameFace: Float = 0.5

    /// One frame's reading of one followed face, in the analysed picture's pixels; `between`:
    /// of a frame between samples (false: a sample's own, read with the samples).
    struct Reading {
        var time: Double
        var box: Box
        var openness: Float
        var between: Bool
        /// The other eye's crop, until the reading is confirmed or found open.
        var other: RGBImage? = nil
    }

    /// A frame this near a sample's time is that sample.
    static let sameTime = 0.001

    /// The times of the readings between samples whose eyes are closed: under
    /// `EyeOpenness.dipBelow` of the open level of all the readings at the same place (under
    /// `EyeOpenness.closedBelow` when there are too few of those).
    static func closed(in readings: [Reading]) -> [Double] {
        closedIndices(in: readings).map { readings[$0].time }
    }

    /// The indices of the readings between samples that `closed(in:)` reports.
    static func closedIndices(in readings: [Reading]) -> [Int] {
        readings.indices.filter { i in
            let r = readings[i]
            guard r.between else { return false }
            let open = EyeOpenness.openLevel(of: readings.filter { $0.box.contains(r.box.center) }.map(\.openness))
            return EyeOpenness.isClosed(r.openness, open: open)
        }
    }

    /// The readings of the samples in `span`, and of the followed faces in every frame of
    /// `pictures` (those of `span`) that is not a sample. `scale`: video pixels per
    /// analysed-picture pixel.
    static func read(
        _ pictures: SampledFrames, span: Range<Double>, frames: [ObservedFrame], scale: Float, reader: any EyeReading
    ) throws -> [Reading] {
        let times = frames.map(\.time)
        var readings: [Reading] = []
        for f in frames where span.contains(f.time) {
            for face in f.faces where face.landmarks != nil {
                if let e = face.eyes { readings.append(Reading(time: f.time, box: face.box.scaled(by: 1 / scale), openness: e, between: false)) }
            }
        }
        while let picture = try pictures.next() {
            let t = picture.time
            let after = BestWindow.firstIndex(in: times, from: t - sameTime)
            // A sample's own frame was read with the sample.
            if after < times.count && abs(times[after] - t) <= sameTime { continue }
            guard after > 0 else { continue }
            let a = frames[after - 1], b = after < frames.count ? frames[after] : nil
            let share = Float(b.map { (t - a.time) / ($0.time - a.time) } ?? 0)
            for face in a.faces {
                guard let from = face.landmarks else { continue }
                let box = face.box.scaled(by: 1 / scale)
                let next = b?.faces.first { f in
                    guard f.landmarks != nil else { return false }
                    let p = f.box.scaled(by: 1 / scale).center, q = box.center
                    return ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() < sameFace * box.height
                }
                let to = next?.landmarks ?? from
                let points = zip(from, to).map { Point($0.x + ($1.x - $0.x) * share, $0.y + ($1.y - $0.y) * share) }
                let moved =
                    next.map { n -> Box in
                        let nb = n.box.scaled(by: 1 / scale)
                        return Box(
                            x: box.x + (nb.x - box.x) * share, y: box.y + (nb.y - box.y) * share, width: box.width + (nb.width - box.width) * share,
                            height: box.height + (nb.height - box.height) * share)
                    } ?? box
                // The eye the sample before read: the same eye in every frame up to the next sample.
                let detected = DetectedFace(box: moved, landmarks: points, score: face.score), right = EyeReader.rightIsVisible(from)
                let reading = reader.openness(ofCrop: EyeReader.crop(of: detected, right: right, in: picture.image))
                // Only a reading `confirmed` would average needs the other eye kept.
                let other = reading < EyeReader.confirmBelow ? EyeReader.crop(of: detected, right: !right, in: picture.image) : nil
                readings.append(Reading(time: t, box: moved, openness: reading, between: true, other: other))
            }
        }
        // Only a closed reading is worth the second run of the model.
        for i in closedIndices(in: readings) {
            guard let other = readings[i].other else { continue }
            readings[i].openness = reader.confirmed(readings[i].openness, byCrop: other)
        }
        for i in readings.indices { readings[i].other = nil }
        return readings
    }
}
