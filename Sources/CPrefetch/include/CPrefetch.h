#ifndef GLIMT_CPREFETCH_H
#define GLIMT_CPREFETCH_H

// A software prefetch for TensorLite's kernels, which Swift cannot spell: a layer's next weights
// are asked for while its current ones are in use, so they arrive from memory in the meantime.
static inline void glimt_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

#endif
