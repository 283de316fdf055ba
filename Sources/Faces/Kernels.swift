import TensorLite

/// The kernels the models run on, for the facade (which does not see TensorLite): which variant
/// this build compiled and what CPU each needs, to say it (`glimt-pure --version`) and to choose
/// the build to run (see `KernelChoice`).
public typealias Kernels = KernelVariant

/// The running CPU's instruction-set flags, for the same choice.
public typealias MachineCPU = CPUFlags
