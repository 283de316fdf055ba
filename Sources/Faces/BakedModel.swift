import Foundation
import GlimtCore
import SFaceWeights

/// A network built from a `.glw` weight file, with the baked copy loaded once per process.
public protocol BakedModel: AnyObject {
    /// The resource name of the baked weights (`sface`, `yunet`).
    static var bakedName: String { get }
    init(weights: WeightFile) throws
}

/// One loaded instance per model type, made on first use: loading dequantizes and folds
/// megabytes of weights, so it happens once, whichever thread asks first. Each type loads under
/// a lock of its own, so two models can load side by side.
public enum BakedModelCache {
    static let lock = NSLock()
    nonisolated(unsafe) static var models: [ObjectIdentifier: AnyObject] = [:]
    nonisolated(unsafe) static var loading: [ObjectIdentifier: NSLock] = [:]

    /// Forgets every loaded model, so its weights and scratch are freed once no one else holds
    /// it (a film's render needs the memory more); the next `shared()` loads afresh.
    public static func unloadAll() {
        lock.lock()
        defer { lock.unlock() }
        models.removeAll()
    }

    static func model(_ key: ObjectIdentifier) -> AnyObject? {
        lock.lock()
        defer { lock.unlock() }
        return models[key]
    }

    static func keep(_ model: AnyObject, _ key: ObjectIdentifier) {
        lock.lock()
        models[key] = model
        lock.unlock()
    }

    static func loadingLock(_ key: ObjectIdentifier) -> NSLock {
        lock.lock()
        defer { lock.unlock() }
        if let l = loading[key] { return l }
        let l = NSLock()
        loading[key] = l
        return l
    }
}

extension BakedModel {
    public static func shared() throws -> Self {
        let key = ObjectIdentifier(self)
        let gate = BakedModelCache.loadingLock(key)
        gate.lock()
        defer { gate.unlock() }
        if let m = BakedModelCache.model(key) as? Self { return m }
        let m = try fromBakedWeights { try Self(weights: $0) }
        BakedModelCache.keep(m, key)
        return m
    }

    /// `make` given the baked weights, loaded afresh; errors name the file.
    static func fromBakedWeights<Model>(_ make: (WeightFile) throws -> Model) throws -> Model {
        let url: URL
        switch BakedWeights.locate(bakedName) {
        case .success(let found): url = found
        case .failure(let missing): throw GlimtError(missing.description)
        }
        let file = try WeightFile(contentsOf: url)
        do { return try make(file) } catch let e as GlimtError { throw e.at(url.path) }
    }
}
