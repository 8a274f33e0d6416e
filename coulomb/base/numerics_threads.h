#pragma once
// Coulomb steps on one thread and promises bit-identical runs. CHOLMOD's supernodal path calls
// BLAS (OpenBLAS on Debian) and OpenMP, whose worker threads spin on a 2-core machine: the
// iiwa + Allegro + ball scene spent 12.8 s of a 22.7 s run in the kernel scheduling them, and
// threaded BLAS sums in a varying order. A program that uses the library calls this once at
// start-up (the CLI, the benchmarks and the tests do).

namespace coulomb {

// Asks OpenBLAS and OpenMP, if they are loaded, for one thread (OpenMP: also no active parallel
// level, which holds against a library's own num_threads clauses); returns whether either was
// found. Looked up at run time, so other BLAS builds (reference, MKL) simply are not touched.
bool UseSingleThreadedNumerics();

}  // namespace coulomb
