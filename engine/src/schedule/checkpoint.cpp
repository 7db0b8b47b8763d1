// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "schedule/checkpoint.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include <nlohmann/json.hpp>

#include "perfshap/error.hpp"
#include "perfshap/version.hpp"
#include "schedule/distribute.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMagic = 0x32544B4348535050ULL;  // "PPSHCKT2"
constexpr const char* kFormat = "perfshap-checkpoint-2";

std::string ItemName(std::size_t id) {
  char name[40];
  std::snprintf(name, sizeof name, "item-%08zu.bin", id);
  return name;
}

/** Writes bytes to path through a file beside it: write, fsync, rename, fsync the directory. */
void WriteAtomically(const fs::path& path, std::span<const std::byte> head, std::span<const std::byte> body) {
  const fs::path tmp = path.string() + ".tmp-" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const auto fail = [&](const char* what) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    throw DataError("checkpoint " + path.parent_path().string() + ": cannot " + what + " " + path.filename().string() +
                        " (" + std::strerror(err) + "); check that the directory is writable and has space",
                    {"checkpoint"});
  };
  if (fd < 0) fail("create");
  for (const std::span<const std::byte> part : {head, body}) {
    std::size_t at = 0;
    while (at < part.size()) {
      const ssize_t n = ::write(fd, part.data() + at, part.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("write");
      at += static_cast<std::size_t>(n);
    }
  }
  if (::fsync(fd) != 0) fail("sync");
  if (::close(fd) != 0) {
    ::unlink(tmp.c_str());
    throw DataError("checkpoint: cannot close " + tmp.string(), {"checkpoint"});
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail("rename into place");
  const int dir = ::open(path.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

/** Removes the item files a killed run left half-written (item-*.bin.tmp-PID). Called by the
 *  first process while it opens the checkpoint, before any process saves an item. */
void RemoveTemporaries(const fs::path& root) {
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(root, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("item-", 0) == 0 && name.find(".bin.tmp-") != std::string::npos) {
      std::error_code ignored;
      fs::remove(entry.path(), ignored);
    }
  }
}

std::string OpenOrCheck(const std::string& dir, const std::string& fingerprint, std::size_t n_items) {
  const fs::path root(dir);
  const fs::path manifest = root / "manifest.json";
  std::error_code ec;
  const std::string remedy = "; use a new checkpoint directory, or delete this one to start over";
  if (fs::exists(root, ec) && !fs::is_directory(root, ec))
    return "checkpoint " + dir + " is a file, not a directory" + remedy;
  if (fs::exists(manifest, ec)) {
    // perfshap writes a manifest of a few hundred bytes: anything far larger (a device, a file
    // put there by hand) is not one, and is not read.
    const auto size = fs::file_size(manifest, ec);
    if (ec || size > (std::uintmax_t{1} << 20))
      return "checkpoint " + dir + ": manifest.json is not a perfshap checkpoint's manifest" + remedy;
    std::ifstream in(manifest);
    nlohmann::json m;
    try {
      in >> m;
    } catch (const std::exception&) {
      return "checkpoint " + dir + ": manifest.json cannot be read" + remedy;
    }
    // Each member read by its type: a manifest edited by hand is "another run", never a crash.
    const auto text_of = [&m](const char* key) {
      const auto it = m.is_object() ? m.find(key) : m.end();
      return it != m.end() && it->is_string() ? it->get<std::string>() : std::string("?");
    };
    if (text_of("format") != kFormat) return "checkpoint " + dir + " is not a perfshap checkpoint" + remedy;
    const std::string version(Version());
    if (text_of("version") != version)
      return "checkpoint " + dir + " was written by perfshap " + text_of("version") + ", this is " + version + remedy;
    const auto items = m.find("items");
    if (text_of("fingerprint") != fingerprint || items == m.end() || !items->is_number_unsigned() ||
        items->get<std::size_t>() != n_items)
      return "checkpoint " + dir +
             " belongs to another run (other arguments, options or data); a run resumes only with the same "
             "inputs" +
             remedy;
    RemoveTemporaries(root);
    return {};
  }
  if (fs::exists(root, ec) && !fs::is_empty(root, ec))
    return "checkpoint " + dir + " is a directory with other files and no manifest.json" + remedy;
  fs::create_directories(root, ec);
  if (ec) return "checkpoint " + dir + ": cannot create the directory (" + ec.message() + ")";
  nlohmann::json m = {{"format", kFormat}, {"version", std::string(Version())}, {"fingerprint", fingerprint}, {"items", n_items}};
  const std::string text = m.dump(2) + "\n";
  try {
    WriteAtomically(manifest, {}, std::as_bytes(std::span<const char>(text.data(), text.size())));
  } catch (const DataError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

std::uint64_t Fnv1a(std::span<const std::byte> bytes, std::uint64_t hash) {
  for (const std::byte b : bytes) {
    hash ^= static_cast<std::uint64_t>(b);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string Fingerprint(std::span<const std::byte> bytes) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(Fnv1a(bytes)));
  return text;
}

Checkpoint::Checkpoint(std::string dir, const std::string& fingerprint, std::size_t n_items, const Processes* group)
    : dir_(std::move(dir)),
      // An item's checksum starts from the run's fingerprint: an item file of another run (another
      // seed, model or data) copied into the directory fails its check and is computed again.
      seed_(Fnv1a(std::as_bytes(std::span<const char>(fingerprint.data(), fingerprint.size())))) {
  // The first process makes or checks the manifest; every process then says its verdict.
  std::string error;
  if (group == nullptr || group->rank() == 0) error = OpenOrCheck(dir_, fingerprint, n_items);
  if (group != nullptr && group->size() > 1) {
    ByteWriter mine;
    mine.PutString(error);
    const std::vector<std::vector<std::byte>> all = AllGather(*group, mine.bytes());
    ByteReader first(all[0]);
    error = first.GetString();
  }
  if (!error.empty()) throw InvalidArgument(error, {"checkpoint"});
}

std::optional<std::vector<std::byte>> Checkpoint::Load(std::size_t id) const {
  std::ifstream in(fs::path(dir_) / ItemName(id), std::ios::binary);
  if (!in) return std::nullopt;
  std::uint64_t head[4] = {};
  in.read(reinterpret_cast<char*>(head), sizeof head);
  if (!in || head[0] != kMagic || head[1] != id) return std::nullopt;
  std::vector<std::byte> bytes(static_cast<std::size_t>(head[2]));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!in || in.peek() != std::char_traits<char>::eof() || Fnv1a(bytes, seed_) != head[3]) return std::nullopt;
  return bytes;
}

void Checkpoint::Save(std::size_t id, std::span<const std::byte> bytes) const {
  const std::uint64_t head[4] = {kMagic, id, bytes.size(), Fnv1a(bytes, seed_)};
  WriteAtomically(fs::path(dir_) / ItemName(id), std::as_bytes(std::span<const std::uint64_t>(head)), bytes);
}

std::vector<std::optional<std::vector<std::byte>>> LoadKept(const std::shared_ptr<const Processes>& group,
                                                             const Checkpoint& checkpoint, std::size_t n,
                                                             std::size_t first) {
  const bool shared = group != nullptr && group->size() > 1;
  ByteWriter found;
  if (!shared || group->rank() == 0)
    for (std::size_t i = 0; i < n; ++i)
      if (auto bytes = checkpoint.Load(first + i)) {
        found.Put<std::uint64_t>(i);
        found.PutVector(*bytes);
      }
  std::vector<std::byte> rank0 = std::move(found.bytes());
  if (shared) rank0 = std::move(AllGather(*group, rank0)[0]);
  std::vector<std::optional<std::vector<std::byte>>> kept(n);
  ByteReader in(rank0);
  while (!in.done()) {
    const auto i = static_cast<std::size_t>(in.Get<std::uint64_t>());
    const std::span<const std::byte> bytes = in.GetBytes();
    kept[i].emplace(bytes.begin(), bytes.end());
  }
  return kept;
}

void RunKeptItems(const std::shared_ptr<const Processes>& group, std::size_t n, const Checkpoint* checkpoint,
                  const std::function<std::vector<std::byte>(std::size_t)>& compute,
                  const std::function<void(std::size_t, ByteReader&)>& read) {
  const bool shared = group != nullptr && group->size() > 1;
  std::vector<std::vector<std::byte>> items(n);
  std::vector<std::size_t> todo;
  std::vector<std::optional<std::vector<std::byte>>> kept(n);
  if (checkpoint != nullptr) kept = LoadKept(group, *checkpoint, n);
  for (std::size_t i = 0; i < n; ++i) {
    if (kept[i]) items[i] = std::move(*kept[i]);
    else todo.push_back(i);
  }
  const auto computed = [&](std::size_t i) {
    std::vector<std::byte> bytes = compute(i);
    if (checkpoint != nullptr) checkpoint->Save(i, bytes);
    return bytes;
  };
  if (!shared) {
    for (const std::size_t i : todo) items[i] = computed(i);
  } else {
    RunShared(
        *group, todo.size(),
        [&](ItemRange share, const std::function<ByteWriter&(std::size_t)>& write) {
          for (std::size_t t = share.begin; t < share.end; ++t) write(t).PutVector(computed(todo[t]));
        },
        [&](std::size_t t, ByteReader& in) {
          const std::span<const std::byte> bytes = in.GetBytes();
          items[todo[t]].assign(bytes.begin(), bytes.end());
        });
  }
  for (std::size_t i = 0; i < n; ++i) {
    ByteReader in(items[i]);
    read(i, in);
  }
}

}}}  // namespace perfshap::detail
