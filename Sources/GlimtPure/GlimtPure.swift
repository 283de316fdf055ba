// The facade: the one module the CLI imports. It holds the use cases (the library, films,
// sheets, photos and references, one-shot analysis) that wire the layers together, and
// re-exports the modules whose types those jobs take and return. It goes through three doors,
// the library, the analysis engine and the film: media, face models and kernels stay behind them.
@_exported import Analysis
@_exported import AnalysisEngine
@_exported import Film
@_exported import GlimtCore
@_exported import Imaging
@_exported import Library

public enum Glimt {
    public static let version = OwnMark.version
}
