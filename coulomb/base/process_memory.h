#pragma once
// The resident memory of this process, from Linux's /proc/self/status, for the benchmarks' peak
// memory of one run (a peer engine on a scene, a clutter size): the peak is reset before the run
// (writing 5 to /proc/self/clear_refs sets VmHWM back to the current VmRSS) and read after it.

namespace coulomb {

// kB of VmRSS (current) and VmHWM (peak since the last reset); −1 when /proc does not say.
long ResidentKb();
long PeakResidentKb();
// Returns freed heap to the kernel (glibc) and sets the peak back to the current resident size.
// False when the kernel does not let the peak be reset (the peak is then the process's).
bool ResetPeakResident();

}  // namespace coulomb
