// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Processes that share one computation (MPI): ExecutionOptions::processes.

#include <cstddef>
#include <memory>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

struct ProcessesFactory;

/**
 * @brief A group of processes that run one computation together: an MPI communicator.
 *
 * Give it in ExecutionOptions::processes, the same call with the same inputs on every process
 * of the group (each reads its inputs itself: the same file, the same options). The work is cut
 * into fixed items (MC-CV splits, explained-row blocks); each process runs a contiguous share of
 * them with its own threads, the shares' results are exchanged, and every process ends with the
 * whole result, bitwise what one process computes, for any number of processes and threads.
 * The library writes no file and prints nothing; a front end lets process 0 (rank 0) report.
 *
 * Calls into MPI come from the thread that called the computation only (MPI_THREAD_FUNNELED).
 */
class PERFSHAP_EXPORT Processes {
 public:
  ~Processes();
  Processes(const Processes&) = delete;
  Processes& operator=(const Processes&) = delete;

  /** @brief This process's rank in the group, 0 <= rank() < size(). */
  int rank() const noexcept { return rank_; }
  /** @brief Number of processes in the group. */
  int size() const noexcept { return size_; }

  /** @brief True when this build of perfshap was made with MPI (CMake option PERFSHAP_MPI). */
  static bool MpiAvailable() noexcept;
  /** @brief True when an MPI launcher (mpirun, mpiexec, srun) started this process: its
   *  environment names a world size (OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_RANK...). */
  static bool Launched() noexcept;
  /**
   * @brief Every process of the MPI job (a duplicate of MPI_COMM_WORLD). Initializes MPI when
   * an MPI launcher started the process and nobody has (finalized at exit then); this process
   * alone when no launcher started it and MPI is not initialized (MPI is then not started).
   * @throws InvalidArgument when the process was launched by mpirun but the build has no MPI.
   */
  static std::shared_ptr<const Processes> World();
  /**
   * @brief The processes of a caller's MPI communicator: `mpi_comm` points to an MPI_Comm
   * (mpi4py: MPI._addressof(comm)), which is duplicated, so perfshap's messages never meet the
   * caller's. MPI must be initialized (by the caller) with at least MPI_THREAD_FUNNELED.
   * @throws InvalidArgument when the build has no MPI, mpi_comm is null or MPI is not
   *   initialized.
   */
  static std::shared_ptr<const Processes> FromMpiComm(const void* mpi_comm);

  /** @brief Implementation (the communicator). */
  struct Impl;
  /** @brief For the library: the communicator (null for a process alone). */
  const Impl* impl() const noexcept { return impl_.get(); }

 private:
  friend struct ProcessesFactory;
  Processes(std::unique_ptr<Impl> impl, int rank, int size);
  std::unique_ptr<Impl> impl_;
  int rank_ = 0;
  int size_ = 1;
};

}}  // namespace perfshap
