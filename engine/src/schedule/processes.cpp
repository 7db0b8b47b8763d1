// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The processes of a computation (perfshap/processes.hpp) and their one collective, the byte
// exchange (schedule/distribute.hpp). The only translation unit that includes MPI.
#include "perfshap/processes.hpp"

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>

#include "perfshap/error.hpp"
#include "schedule/agreement.hpp"
#include "schedule/distribute.hpp"

#if defined(PERFSHAP_WITH_MPI)
#include <mpi.h>
#endif

namespace perfshap { inline namespace v0 {

#if defined(PERFSHAP_WITH_MPI)
struct Processes::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  ~Impl() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized && comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }
};
#else
struct Processes::Impl {};
#endif

struct ProcessesFactory {
  static std::shared_ptr<const Processes> Make(std::unique_ptr<Processes::Impl> impl, int rank, int size) {
    return std::shared_ptr<const Processes>(new Processes(std::move(impl), rank, size));
  }
};

Processes::Processes(std::unique_ptr<Impl> impl, int rank, int size)
    : impl_(std::move(impl)), rank_(rank), size_(size) {}

Processes::~Processes() = default;

bool Processes::MpiAvailable() noexcept {
#if defined(PERFSHAP_WITH_MPI)
  return true;
#else
  return false;
#endif
}

bool Processes::Launched() noexcept {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return true;
  }
  return false;
}

#if defined(PERFSHAP_WITH_MPI)
namespace {

std::shared_ptr<const Processes> Duplicate(MPI_Comm comm);

// MPI initialized by perfshap is finalized when the process exits (after every Processes of
// the world has gone: they are held by the computations, which are over by then).
void FinalizeAtExit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

void RequireThreadLevel() {
  int provided = MPI_THREAD_SINGLE;
  MPI_Query_thread(&provided);
  if (provided < MPI_THREAD_FUNNELED)
    throw InvalidArgument(
        "MPI was initialized without thread support (MPI_THREAD_SINGLE); perfshap runs threads and calls MPI "
        "from the calling thread only: initialize MPI with MPI_THREAD_FUNNELED or higher (mpi4py's default is "
        "MPI_THREAD_MULTIPLE)",
        {"processes"});
}

}  // namespace
#endif

std::shared_ptr<const Processes> Processes::World() {
#if defined(PERFSHAP_WITH_MPI)
  int already = 0;
  MPI_Initialized(&already);
  if (!already && !Launched()) {
    // Not an MPI job and nobody initialized MPI: a process alone, without starting MPI.
    static const std::shared_ptr<const Processes> alone = ProcessesFactory::Make(nullptr, 0, 1);
    return alone;
  }
  static std::once_flag once;
  std::call_once(once, [] {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      std::atexit(FinalizeAtExit);
    }
  });
  RequireThreadLevel();
  static const std::shared_ptr<const Processes> world = Duplicate(MPI_COMM_WORLD);
  return world;
#else
  if (Launched())
    throw InvalidArgument(
        "this perfshap was built without MPI (CMake option PERFSHAP_MPI=OFF) but was started by an MPI launcher: "
        "rebuild with -DPERFSHAP_MPI=ON (Debian: libopenmpi-dev), or run it without mpirun",
        {"processes"});
  static const std::shared_ptr<const Processes> alone = ProcessesFactory::Make(nullptr, 0, 1);
  return alone;
#endif
}

#if defined(PERFSHAP_WITH_MPI)
namespace {
std::shared_ptr<const Processes> Duplicate(MPI_Comm comm) {
  auto impl = std::make_unique<Processes::Impl>();
  MPI_Comm_dup(comm, &impl->comm);
  // A failing peer ends the run rather than leaving this process waiting (the default handler
  // aborts the job; mpirun then ends every process and names the one that failed).
  MPI_Comm_set_errhandler(impl->comm, MPI_ERRORS_ARE_FATAL);
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(impl->comm, &rank);
  MPI_Comm_size(impl->comm, &size);
  return ProcessesFactory::Make(std::move(impl), rank, size);
}
}  // namespace
#endif

std::shared_ptr<const Processes> Processes::FromMpiComm(const void* mpi_comm) {
#if defined(PERFSHAP_WITH_MPI)
  PERFSHAP_CHECK(mpi_comm != nullptr, "Processes::FromMpiComm: the communicator's address is null", {"processes"});
  int initialized = 0;
  MPI_Initialized(&initialized);
  PERFSHAP_CHECK(initialized != 0,
                 "Processes::FromMpiComm: MPI is not initialized; initialize it first (MPI_Init_thread, or import "
                 "mpi4py.MPI)",
                 {"processes"});
  RequireThreadLevel();
  return Duplicate(*static_cast<const MPI_Comm*>(mpi_comm));
#else
  (void)mpi_comm;
  throw InvalidArgument(
      "this perfshap was built without MPI (CMake option PERFSHAP_MPI=OFF): rebuild with -DPERFSHAP_MPI=ON "
      "(Debian: libopenmpi-dev) to run across processes",
      {"processes"});
#endif
}

namespace detail {

std::vector<std::vector<std::byte>> AllGather(const Processes& group, std::span<const std::byte> mine) {
  std::vector<std::vector<std::byte>> all(static_cast<std::size_t>(group.size()));
#if defined(PERFSHAP_WITH_MPI)
  if (group.size() > 1) {
    const MPI_Comm comm = group.impl()->comm;
    // Every rank's buffer in turn, in pieces of at most 1 GiB (MPI counts are int).
    constexpr std::size_t kPiece = std::size_t{1} << 30;
    for (int root = 0; root < group.size(); ++root) {
      std::vector<std::byte>& buffer = all[static_cast<std::size_t>(root)];
      std::uint64_t size = root == group.rank() ? mine.size() : 0;
      MPI_Bcast(&size, 1, MPI_UINT64_T, root, comm);
      if (root == group.rank()) buffer.assign(mine.begin(), mine.end());
      else buffer.resize(static_cast<std::size_t>(size));
      for (std::size_t at = 0; at < buffer.size(); at += kPiece) {
        const std::size_t piece = std::min(kPiece, buffer.size() - at);
        MPI_Bcast(buffer.data() + at, static_cast<int>(piece), MPI_BYTE, root, comm);
      }
    }
    return all;
  }
#endif
  all[static_cast<std::size_t>(group.rank())].assign(mine.begin(), mine.end());
  return all;
}

void AbortProcesses(const Processes& group, int code) {
#if defined(PERFSHAP_WITH_MPI)
  if (group.impl() != nullptr && group.size() > 1) MPI_Abort(group.impl()->comm, code);
#else
  (void)group;
#endif
  std::_Exit(code);
}

}  // namespace detail

}}  // namespace perfshap
