#pragma once
// The resident memory of this process, from Linux's /proc/self/status, to report each peer
// engine's peak memory on a scene: the peak is reset before a run (writing 5 to
// /proc/self/clear_refs sets VmHWM back to the current VmRSS) and read after it.

namespace coulomb::peers {

// kB of VmRSS (current) and VmHWM (peak since the last reset); −1 when /proc does not say.
long ResidentKb();
long PeakResidentKb();
// False when the kernel does not let the peak be reset (the peak is then the process's).
bool ResetPeakResident();

}  // namespace coulomb::peers
