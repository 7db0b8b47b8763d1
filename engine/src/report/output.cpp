// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/output.hpp"

#include <cstdio>
#include <fstream>
#include <system_error>

#include <unistd.h>

#include "perfshap/error.hpp"

namespace perfshap::detail {

namespace fs = std::filesystem;

void PrepareOutputDir(const fs::path& dir, bool force) {
  std::error_code ec;
  if (fs::exists(dir, ec)) {
    if (!fs::is_directory(dir, ec))
      throw Error("output path '" + dir.string() + "' exists and is not a directory; choose another output directory",
                  {"out"});
    if (!fs::is_empty(dir, ec) && !force)
      throw Error("output directory '" + dir.string() +
                  "' is not empty; allow overwriting its results or choose another output directory",
                  {"force", "out"});
    return;
  }
  fs::create_directories(dir, ec);
  if (ec) throw Error("cannot create output directory '" + dir.string() + "': " + ec.message());
}

void WriteFileAtomic(const fs::path& path, const std::string& content) {
  // GCC 12 warns falsely (-Wrestrict) on `"." + std::string`; build the name by appending.
  std::string tmp_name(".");
  tmp_name += path.filename().string();
  tmp_name += ".tmp.";
  tmp_name += std::to_string(::getpid());
  const fs::path tmp = path.parent_path() / tmp_name;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write '" + tmp.string() + "': check that the directory is writable");
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();  // close() reports a delayed write error (disk full, NFS) that flush() may not
    if (out.fail()) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw Error("writing '" + path.string() + "' failed (disk full?)");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw Error("cannot move '" + tmp.string() + "' to '" + path.string() + "': " + ec.message());
  }
}

void OutputDir::Write(const std::string& name, const std::string& content) {
  if (!dir_.empty()) WriteFileAtomic(dir_ / name, content);
  for (ReportFile& file : contents_)
    if (file.name == name) {
      file.content = content;
      return;
    }
  files_.push_back(name);
  contents_.push_back({name, content});
}

}  // namespace perfshap::detail
