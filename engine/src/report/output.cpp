// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/output.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <system_error>

#include "data/json_text.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace fs = std::filesystem;

namespace {

/** What a temporary directory's name holds after ".<name>": the tag, then "<pid>-<n>". */
constexpr std::string_view kTempTag = ".perfshap-tmp-";

std::string SystemReason(int error) { return std::generic_category().message(error); }

/** The directory a run publishes into, with symbolic links resolved (a link to a directory
 *  keeps pointing at the directory that then holds the new set) and no trailing separator. */
struct Target {
  fs::path path;
  fs::path parent;
  std::string name;
};

Target ResolveTarget(const fs::path& dir) {
  std::error_code ec;
  fs::path path = fs::weakly_canonical(fs::absolute(dir, ec), ec);
  if (ec) path = fs::absolute(dir).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();  // "out/" -> "out"
  const std::string name = path.filename().string();
  if (name.empty() || name == "." || name == ".." || path == path.root_path())
    throw Error(
        "output directory '" + dir.string() + "' is a file system's root; choose a directory below it",
        {"out"});
  return {path, path.parent_path(), name};
}

/** The pid in the name of a temporary directory of `name` (".<name>.perfshap-tmp-<pid>-<n>"),
 *  or 0 when `entry` is no such name. */
pid_t TempOwner(std::string_view entry, const std::string& name) {
  const std::string prefix = "." + name + std::string(kTempTag);
  if (entry.substr(0, std::min(entry.size(), prefix.size())) != prefix) return 0;
  std::string_view rest = entry.substr(prefix.size());
  long long pid = 0;
  auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
  if (ec != std::errc() || p == rest.data() || pid <= 0 || p == rest.data() + rest.size() || *p != '-')
    return 0;
  const char* q = p + 1;
  unsigned long long n = 0;
  auto [end, ec2] = std::from_chars(q, rest.data() + rest.size(), n);
  if (ec2 != std::errc() || end == q || end != rest.data() + rest.size()) return 0;
  return static_cast<pid_t>(pid);
}

/** Removes the temporary directories beside the target that a process which no longer runs
 *  left (a killed run; kill(pid, 0) says ESRCH). Another process's, and this one's, are kept:
 *  they may be in use. Best effort: a directory that cannot be removed stays. */
void RemoveStaleTemporaries(const Target& target) {
  std::error_code ec;
  fs::directory_iterator it(target.parent, ec);
  if (ec) return;
  for (const fs::directory_entry& entry : it) {
    const pid_t pid = TempOwner(entry.path().filename().string(), target.name);
    if (pid == 0 || pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;
    std::error_code ignored;
    fs::remove_all(entry.path(), ignored);
  }
}

/** A fresh, uniquely named temporary directory beside the target (mode 0777 less the umask). */
fs::path MakeTemporary(const Target& target) {
  static std::atomic<unsigned long long> counter{0};
  for (;;) {
    const fs::path tmp =
        target.parent / ("." + target.name + std::string(kTempTag) + std::to_string(::getpid()) + "-" +
                         std::to_string(counter.fetch_add(1)));
    if (::mkdir(tmp.c_str(), 0777) == 0) return tmp;
    if (errno != EEXIST)
      throw Error("cannot create a directory beside '" + target.path.string() + "' (" + tmp.string() +
                      "): " + SystemReason(errno) + "; check that '" + target.parent.string() +
                      "' is writable or choose another output directory",
                  {"out"});
  }
}

/** fsync of a file or directory by path; returns errno, 0 on success. */
int SyncPath(const fs::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return errno;
  const int rc = ::fsync(fd) == 0 ? 0 : errno;
  ::close(fd);
  // A directory on a file system that cannot sync one (EINVAL) is no error: its entries are as
  // durable as that file system makes them.
  return rc == EINVAL ? 0 : rc;
}

/** Writes `content` to the new file `path`, flushed to the disk; returns errno, 0 on success. */
int WriteDurably(const fs::path& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return errno;
  const char* p = content.data();
  std::size_t left = content.size();
  int rc = 0;
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      rc = errno;
      break;
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (rc == 0 && ::fsync(fd) != 0) rc = errno;  // a delayed write error (disk full, NFS) shows here
  if (::close(fd) != 0 && rc == 0) rc = errno;
  return rc;
}

/** Whether `path` is an empty directory (false when it cannot be read). */
bool IsEmptyDirectory(const fs::path& path) {
  std::error_code ec;
  const bool empty = fs::is_empty(path, ec);
  return !ec && empty;
}

/** Removes `path` and what it holds, and says nothing when it cannot: what is left is a hidden
 *  directory of this process, removed by the next run into the same directory. */
void RemoveQuietly(const fs::path& path) {
  std::error_code ignored;
  fs::remove_all(path, ignored);
}

/** The names a string array of `doc` holds (none when it is absent or of another shape). */
void AddNames(const nlohmann::json& doc, const char* key, std::set<std::string>& names) {
  if (!doc.is_object()) return;
  const auto it = doc.find(key);
  if (it == doc.end() || !it->is_array()) return;
  for (const nlohmann::json& name : *it)
    if (name.is_string()) names.insert(name.get<std::string>());
}

/** A JSON file of an earlier run (the manifest, result.json), or null when it cannot be read. */
nlohmann::json ReadRunJson(const fs::path& path) {
  try {
    return nlohmann::json::parse(ReadJsonFileText(path.string(), path.string() + ": "));
  } catch (const std::exception&) {
    return nullptr;
  }
}

/**
 * The files of `target` that a perfshap run wrote: those its manifest (kManifestName) lists,
 * itself included; for a set written before the manifest, result.json with the files and
 * figures it lists. Empty when `target` holds neither.
 */
std::set<std::string> FilesRunsWrote(const Target& target) {
  std::set<std::string> names;
  const nlohmann::json manifest = ReadRunJson(target.path / kManifestName);
  if (!manifest.is_null()) {
    AddNames(manifest, "files", names);
    names.insert(kManifestName);
    return names;
  }
  const nlohmann::json result = ReadRunJson(target.path / "result.json");
  if (result.is_object()) {
    AddNames(result, "files", names);
    AddNames(result, "figures", names);
    names.insert("result.json");
  }
  return names;
}

/**
 * Throws unless every entry of the non-empty directory `target` is a file an earlier run wrote
 * there (FilesRunsWrote): replacing the set replaces the whole directory, and nothing a user put
 * there is ever removed.
 */
void CheckReplaceable(const Target& target, const fs::path& dir) {
  const std::set<std::string> ours = FilesRunsWrote(target);
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(target.path, ec)) {
    const std::string name = entry.path().filename().string();
    if (ours.count(name) > 0 && !entry.is_directory(ec)) continue;
    const std::string what = ours.empty() ? "holds no earlier perfshap run's results (no " + std::string(kManifestName) +
                                                " or result.json) and holds '" + name + "'"
                                          : "holds '" + name + "', which no perfshap run wrote there";
    throw Error("output directory '" + dir.string() + "' " + what +
                    "; overwriting replaces only an earlier run's files: move that " +
                    (entry.is_directory(ec) ? "folder" : "file") + " out or choose another output directory",
                {"force", "out"});
  }
  if (ec)
    throw Error("cannot list output directory '" + dir.string() + "': " + ec.message() +
                    "; choose another output directory",
                {"out"});
}

}  // namespace

std::vector<std::string> FigureSetNames() { return {"none", "summary", "all"}; }

FigureSet ParseFigureSet(const std::string& name) {
  if (name == "none") return FigureSet::kNone;
  if (name == "summary") return FigureSet::kSummary;
  if (name == "all") return FigureSet::kAll;
  throw InvalidArgument("figures '" + name + "': choose none, summary or all", {"figures"});
}

void PrepareOutputDir(const fs::path& dir, bool force) {
  const Target target = ResolveTarget(dir);
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (!ec) {
    // The set replaces the whole directory: not the one a user (or this process) works in.
    const auto [end, rest] = std::mismatch(target.path.begin(), target.path.end(), cwd.begin(), cwd.end());
    if (end == target.path.end())
      throw Error(
          "output directory '" + dir.string() +
              "' is the working directory or holds it, and a run replaces its output directory as a whole; "
              "choose a new directory for the results",
          {"out"});
  }
  const fs::file_status status = fs::status(target.path, ec);
  if (fs::exists(status)) {
    if (!fs::is_directory(status))
      throw Error(
          "output path '" + dir.string() + "' exists and is not a directory; choose another output directory",
          {"out"});
    if (!IsEmptyDirectory(target.path)) {
      if (!force)
        throw Error("output directory '" + dir.string() +
                        "' is not empty; allow overwriting its results or choose another output directory",
                    {"force", "out"});
      // Overwriting replaces the whole directory: only an earlier run's set, never a file of the
      // user's own (their data among them).
      CheckReplaceable(target, dir);
    }
  } else {
    fs::create_directories(target.parent, ec);
    if (ec)
      throw Error("cannot create the folder '" + target.parent.string() +
                      "' of the output directory: " + ec.message(),
                  {"out"});
  }
  if (::access(target.parent.c_str(), W_OK | X_OK) != 0)
    throw Error(
        "cannot write into '" + target.parent.string() + "' (" + SystemReason(errno) +
            "), where the output directory's files are written before they are renamed into place; choose "
            "an output directory in a writable folder",
        {"out"});
  RemoveStaleTemporaries(target);
}

void PublishFiles(const fs::path& dir, const std::vector<ReportFile>& files, bool replace) {
  const Target target = ResolveTarget(dir);
  RemoveStaleTemporaries(target);
  // The manifest: what this run wrote, so that a later --force replaces those files and no other.
  nlohmann::json listed = nlohmann::json::array();
  for (const ReportFile& file : files) listed.push_back(file.name);
  std::vector<ReportFile> set = files;
  set.push_back({kManifestName, nlohmann::json{{"written_by", "perfshap"}, {"files", listed}}.dump(1) + "\n"});
  const fs::path tmp = MakeTemporary(target);
  try {
    for (const ReportFile& file : set) {
      PERFSHAP_DCHECK(!file.name.empty() && file.name.find('/') == std::string::npos && file.name != "." &&
                      file.name != "..");
      if (const int rc = WriteDurably(tmp / file.name, file.content); rc != 0)
        throw Error("cannot write '" + (target.path / file.name).string() + "' (into " + tmp.string() +
                    "): " + SystemReason(rc) + (rc == ENOSPC || rc == EDQUOT ? "; free some space" : "") +
                    "; the output directory is left as it was");
    }
    if (const int rc = SyncPath(tmp, O_RDONLY | O_DIRECTORY); rc != 0)
      throw Error("cannot flush '" + tmp.string() + "' to the disk: " + SystemReason(rc));

    struct stat old {};
    if (::stat(target.path.c_str(), &old) == 0) {
      if (!S_ISDIR(old.st_mode))
        throw Error("output path '" + dir.string() +
                        "' exists and is not a directory; choose another output directory",
                    {"out"});
      if (!replace && !IsEmptyDirectory(target.path))
        throw Error(
            "output directory '" + dir.string() +
                "' is not empty (it was when the run started); allow overwriting its results or choose "
                "another output directory",
            {"force", "out"});
      if (!IsEmptyDirectory(target.path)) CheckReplaceable(target, dir);  // what came in while it ran
      ::chmod(tmp.c_str(), old.st_mode & 07777);  // the new set keeps the directory's permissions
      // One atomic step: `dir` now names the new set, `tmp` the earlier one.
      if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, target.path.c_str(), RENAME_EXCHANGE) != 0) {
        const int rc = errno;
        if (rc != EINVAL && rc != ENOSYS && rc != EOPNOTSUPP)
          throw Error("cannot replace '" + dir.string() + "' with the new results: " + SystemReason(rc));
        // The file system cannot swap (EINVAL): two renames, `dir` aside then the new set in; a
        // reader may find no directory in between, never a mix.
        const fs::path aside = MakeTemporary(target);
        ::rmdir(aside.c_str());
        if (::rename(target.path.c_str(), aside.c_str()) != 0)
          throw Error("cannot move '" + dir.string() + "' aside for the new results: " + SystemReason(errno));
        if (::rename(tmp.c_str(), target.path.c_str()) != 0) {
          const int rc2 = errno;
          ::rename(aside.c_str(), target.path.c_str());
          throw Error("cannot move the new results to '" + dir.string() + "': " + SystemReason(rc2));
        }
        SyncPath(target.parent, O_RDONLY | O_DIRECTORY);
        RemoveQuietly(aside);
        return;
      }
      SyncPath(target.parent, O_RDONLY | O_DIRECTORY);
      RemoveQuietly(tmp);  // the earlier set
      return;
    }
    if (::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, target.path.c_str(), RENAME_NOREPLACE) != 0) {
      int rc = errno;
      // Without RENAME_NOREPLACE, rename(2) still never replaces a non-empty directory.
      if (rc == EINVAL || rc == ENOSYS || rc == EOPNOTSUPP)
        rc = ::rename(tmp.c_str(), target.path.c_str()) == 0 ? 0 : errno;
      if (rc == EEXIST || rc == ENOTEMPTY)
        throw Error(
            "output directory '" + dir.string() +
                "' was created by someone else while the run computed; choose another output directory",
            {"out"});
      if (rc != 0) throw Error("cannot move the new results to '" + dir.string() + "': " + SystemReason(rc));
    }
    SyncPath(target.parent, O_RDONLY | O_DIRECTORY);
  } catch (...) {
    RemoveQuietly(tmp);
    throw;
  }
}

void OutputDir::Write(const std::string& name, std::string content) {
  for (ReportFile& file : contents_)
    if (file.name == name) {
      file.content = std::move(content);
      return;
    }
  contents_.push_back({name, std::move(content)});
}

void OutputDir::WriteResult(const RunRecord& run, const Json& body) {
  document_ = ResultJsonDocument(run, body);
  Write("result.json", document_.dump(2) + "\n");
}

void OutputDir::Commit() const {
  if (!dir_.empty()) PublishFiles(dir_, contents_, replace_);
}
}}}  // namespace perfshap::detail
