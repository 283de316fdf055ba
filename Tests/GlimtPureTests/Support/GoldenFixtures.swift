import Foundation
@testable import Imaging
@testable import GlimtPure
import TestSupport

// The schemas of the golden JSON fixtures (Fixtures/PROVENANCE.md and yunet/README.md describe
// them), as far as the tests read them. Decoded with `Fixtures.decode`, so a fixture whose schema
// changes fails the test reading it, naming the key, instead of crashing the test process.

/// `sface/golden.json`, one entry per aligned crop.
struct SFaceGoldenEntry: Decodable {
    let name: String
    let file: String
    /// onnxruntime's raw 128-d `fc1`.
    let embedding: Floats
}

/// `sface/layers.json`: activations of one crop, sampled layer by layer.
struct SFaceLayerProbe: Decodable {
    struct Layer: Decodable {
        let name: String
        /// NCHW.
        let shape: [Int]
        let positions: [TensorIndex]
        /// The activation at each of `positions`.
        let values: Floats
        let mean: Double
    }

    let crop: String
    let layers: [Layer]
}

/// `yunet/raw.json`: YuNet's 12 head outputs for each input.
struct YuNetRawOutputs: Decodable {
    struct Case: Decodable {
        let name: String
        let inputPNG: String
        /// The part of `inputPNG` fed to the network; nil for the whole image.
        let crop: PixelRect?
        /// [width, height].
        let size: [Int]
        /// Keyed `<kind>_<stride>`, e.g. `cls_8`.
        let outputs: [String: Output]

        enum CodingKeys: String, CodingKey {
            case name, crop, size, outputs
            case inputPNG = "input_png"
        }
    }

    struct Output: Decodable {
        /// Little-endian float32, relative to `yunet/`.
        let file: String
    }

    let cases: [Case]
}

/// `yunet/faces.json`: OpenCV FaceDetectorYN's faces on each photo.
struct YuNetFaces: Decodable {
    typealias Photo = FixturePhoto<Face>

    struct Face: Decodable {
        let box: FixtureBox
        let landmarks: [FixturePoint]
        let score: Double
    }

    let scoreThreshold: Double
    let photos: [Photo]

    enum CodingKeys: String, CodingKey {
        case photos
        case scoreThreshold = "score_threshold"
    }
}

/// `yunet/align.json`: OpenCV's alignCrop and feature() for every face of some photos.
struct YuNetAlignment: Decodable {
    typealias Photo = FixturePhoto<Face>

    struct Face: Decodable {
        let box: FixtureBox
        let landmarks: [FixturePoint]
        /// Stored only for the first faces of a photo.
        let crop: String?
        /// OpenCV's raw 128-d feature().
        let embedding: Floats
    }

    let photos: [Photo]
}

// Value shapes shared by the fixtures.

/// Numbers read as Double and narrowed to Float, as the tests have always compared them.
struct Floats: Decodable {
    let values: [Float]

    init(from decoder: any Decoder) throws {
        values = try decoder.singleValueContainer().decode([Double].self).map(Float.init)
    }
}

/// `[x, y]`.
struct FixturePoint: Decodable {
    let point: Point

    init(from decoder: any Decoder) throws {
        let v: [Double] = try decodeArray(decoder, count: 2, "[x, y]")
        point = Point(Float(v[0]), Float(v[1]))
    }
}

/// `[x, y, w, h]` in pixels, fractional.
struct FixtureBox: Decodable {
    let box: Box

    init(from decoder: any Decoder) throws {
        let v: [Double] = try decodeArray(decoder, count: 4, "[x, y, w, h]")
        box = Box(x: Float(v[0]), y: Float(v[1]), width: Float(v[2]), height: Float(v[3]))
    }
}

/// `[x, y, w, h]` in whole pixels.
struct PixelRect: Decodable {
    let x: Int, y: Int, width: Int, height: Int

    init(from decoder: any Decoder) throws {
        let v: [Int] = try decodeArray(decoder, count: 4, "[x, y, w, h]")
        (x, y, width, height) = (v[0], v[1], v[2], v[3])
    }
}

/// `[c, y, x]` into a CHW tensor.
struct TensorIndex: Decodable {
    let c: Int, y: Int, x: Int

    init(from decoder: any Decoder) throws {
        let v: [Int] = try decodeArray(decoder, count: 3, "[c, y, x]")
        (c, y, x) = (v[0], v[1], v[2])
    }
}

/// A fixed-length array, so a wrong length is a decoding error rather than an index out of range.
private func decodeArray<T: Decodable>(_ decoder: any Decoder, count: Int, _ layout: String) throws -> [T] {
    let container = try decoder.singleValueContainer()
    let v = try container.decode([T].self)
    guard v.count == count else {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(layout), found \(v.count) values")
    }
    return v
}

/// A photo of a fixture and what the reference found on each of its faces.
struct FixturePhoto<Face: Decodable>: Decodable {
    let file: String
    let faces: [Face]
}
