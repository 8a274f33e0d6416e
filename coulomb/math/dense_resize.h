#pragma once
// Resizing a dense vector without giving back its block. Eigen's VectorXd::resize frees and
// mallocs whenever the size changes, so a vector sized per contact allocates on every step the
// contact count moves (a ball whose one contact comes and goes; a pile whose count climbs while
// it lands). Eigen keeps no capacity, but the C library knows the usable size of each block it
// handed out: a new size that fits the block reuses it, and a size that does not gets a block
// twice the old one, as std::vector grows.

#include <Eigen/Core>

namespace coulomb::math {

// As v.conservativeResize(n): v holds n values afterwards, the leading min(old size, n) kept and
// the new ones unspecified. Allocates only when n exceeds the block v already holds; never gives
// a block back. Where the allocator cannot report a block's usable size (a sanitizer's, or
// Eigen's own aligned blocks) it is v.conservativeResize(n).
void ResizeKeepingStorage(Eigen::VectorXd& v, Eigen::Index n);

// As m.resize(rows, cols), keeping m's block when rows · cols fits in it: the values afterwards
// are unspecified (a matrix whose shape changes keeps none of its old entries in place).
// Allocates only when rows · cols exceeds the block m already holds.
void ResizeKeepingStorage(Eigen::MatrixXd& m, Eigen::Index rows, Eigen::Index cols);

// Makes v's block hold at least n values, keeping its size and values (a Data sized up front
// for a contact count, sim::ReserveContacts).
void ReserveStorage(Eigen::VectorXd& v, Eigen::Index n);

// How many values v's block holds (v.size() where the allocator cannot say).
Eigen::Index StorageCapacity(const Eigen::VectorXd& v);
Eigen::Index StorageCapacity(const Eigen::MatrixXd& m);

}  // namespace coulomb::math
