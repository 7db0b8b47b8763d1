// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// A run's outputs as one set (report/output.hpp): published into a new directory, an empty one,
// or over an earlier run's set (no earlier file left beside the new ones); a reporter that throws,
// a file that cannot be written or a refused replacement leaves the earlier set exactly as it was
// and no temporary directory behind; temporaries of dead processes are removed; the checks
// before a run refuse what would be lost.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 {
namespace {

namespace fs = std::filesystem;
using detail::FigureSet;
using detail::OutputDir;
using detail::ReportFile;

/** A fresh scratch folder of the running test, removed again when the test ends. */
class Scratch {
 public:
  Scratch() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() / ("perfshap_outset_" + std::to_string(::getpid()) + "_" +
                                         info->test_suite_name() + "_" + info->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

/** Every entry of `dir` (hidden ones too) by name, with the content of the files. */
std::map<std::string, std::string> Listing(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    files[entry.path().filename().string()] =
        entry.is_directory() ? "<dir>" : std::string(std::istreambuf_iterator<char>(in), {});
  }
  return files;
}

/** Listing without the manifest PublishFiles adds: the files a reporter wrote. */
std::map<std::string, std::string> Files(const fs::path& dir) {
  std::map<std::string, std::string> files = Listing(dir);
  files.erase(detail::kManifestName);
  return files;
}

std::map<std::string, std::string> AsMap(const std::vector<ReportFile>& files) {
  std::map<std::string, std::string> m;
  for (const auto& f : files) m[f.name] = f.content;
  return m;
}

void WriteSet(const fs::path& dir, const std::map<std::string, std::string>& files) {
  fs::create_directories(dir);
  for (const auto& [name, content] : files) std::ofstream(dir / name, std::ios::binary) << content;
}

const std::vector<ReportFile> kNewSet = {{"contributions.csv", "row,a\n0,1\n"},
                                         {"result.json", "{\"new\": 1}\n"}};
const std::map<std::string, std::string> kOldSet = {
    {"result.json", "{\"old\": 1}\n"},
    {"phi.csv", "old\n"},
    {"roc.svg", "<svg/>"},
    {detail::kManifestName, "{\"files\": [\"result.json\", \"phi.csv\", \"roc.svg\"]}\n"}};

TEST(OutputSet, PublishesIntoANewDirectoryAndLeavesNothingBeside) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  detail::PublishFiles(root / "out", kNewSet, false);
  EXPECT_EQ(Files(root / "out"), AsMap(kNewSet));
  EXPECT_EQ(Listing(root).size(), 1u) << "a temporary directory was left beside the output";
}

TEST(OutputSet, ReplacesAnEmptyDirectoryKeepingItsPermissions) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  fs::create_directories(root / "out");
  ASSERT_EQ(::chmod((root / "out").c_str(), 0750), 0);
  detail::PublishFiles(root / "out", kNewSet, false);
  EXPECT_EQ(Files(root / "out"), AsMap(kNewSet));
  struct stat st {};
  ASSERT_EQ(::stat((root / "out").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0750u);
  EXPECT_EQ(Listing(root).size(), 1u);
}

TEST(OutputSet, ForceReplacesTheWholeEarlierSet) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  WriteSet(root / "out", kOldSet);
  detail::PrepareOutputDir(root / "out", true);
  detail::PublishFiles(root / "out", kNewSet, true);
  // No file of the earlier run beside the new result.json (phi.csv and roc.svg are gone).
  EXPECT_EQ(Files(root / "out"), AsMap(kNewSet));
  EXPECT_EQ(Listing(root).size(), 1u);
}

TEST(OutputSet, ThroughASymbolicLinkTheLinkStaysAndItsDirectoryHoldsTheNewSet) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  WriteSet(root / "real", kOldSet);
  fs::create_directory_symlink(root / "real", root / "link");
  detail::PublishFiles(root / "link", kNewSet, true);
  EXPECT_TRUE(fs::is_symlink(root / "link"));
  EXPECT_EQ(Files(root / "real"), AsMap(kNewSet));
  EXPECT_EQ(Listing(root).size(), 2u);
}

TEST(OutputSet, ANonEmptyDirectoryIsNotReplacedWithoutForce) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  WriteSet(root / "out", kOldSet);
  EXPECT_THROW(detail::PublishFiles(root / "out", kNewSet, false), Error);
  EXPECT_EQ(Listing(root / "out"), kOldSet);
  EXPECT_EQ(Listing(root).size(), 1u);
}

TEST(OutputSet, AReporterThatThrowsHalfwayLeavesTheEarlierSet) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  WriteSet(root / "out", kOldSet);
  detail::PrepareOutputDir(root / "out", true);
  // What every front end does (RunReporter): the report's content through the format writers
  // into an OutputDir, then Commit; here a figure the SVG writer refuses (a NaN bar) stops it.
  detail::ReportContent content;
  detail::CsvTable table({"row", "a"});
  table.Row().Count(0).Number(1);
  content.Table("contributions.csv", std::move(table));
  detail::BarChart bad;
  bad.labels = {"a"};
  bad.values = {std::nan("")};
  EXPECT_TRUE(content.Figure("shap_bar.svg", FigureSet::kSummary, [&] { return bad; }));
  content.Result({"shap", {"a"}, 0, 1, 0.0}, detail::Json::object());
  const auto run = [&] {
    OutputDir out(root / "out", true);
    detail::WriteReport(out, content);
    out.Commit();
  };
  EXPECT_THROW(run(), InvalidArgument);
  EXPECT_EQ(Listing(root / "out"), kOldSet);
  EXPECT_EQ(Listing(root).size(), 1u);
}

TEST(OutputSet, AFileThatCannotBeWrittenLeavesTheEarlierSetAndNoTemporary) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  WriteSet(root / "out", kOldSet);
  // A name longer than any file system takes (ENAMETOOLONG) fails after the first file is written.
  std::vector<ReportFile> files = kNewSet;
  files.insert(files.begin() + 1, ReportFile{std::string(300, 'x') + ".csv", "1\n"});
  try {
    detail::PublishFiles(root / "out", files, true);
    ADD_FAILURE() << "the write did not fail";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("left as it was"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_EQ(Listing(root / "out"), kOldSet);
  EXPECT_EQ(Listing(root).size(), 1u);
}

TEST(OutputSet, TemporariesOfDeadProcessesAreRemovedOthersKept) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) ::_exit(0);
  ASSERT_EQ(::waitpid(child, nullptr, 0), child);  // reaped: its pid no longer runs
  const std::string dead = ".out.perfshap-tmp-" + std::to_string(child) + "-0";
  const std::string alive = ".out.perfshap-tmp-" + std::to_string(::getppid()) + "-3";
  const std::string other = ".other.perfshap-tmp-" + std::to_string(child) + "-0";  // another output's
  const std::string unlike = ".out.perfshap-tmp-" + std::to_string(child) + "-0x";  // not a name of ours
  for (const std::string& name : {dead, alive, other, unlike})
    WriteSet(root / name, {{"result.json", "{}\n"}});
  detail::PrepareOutputDir(root / "out", false);
  EXPECT_FALSE(fs::exists(root / dead));
  EXPECT_TRUE(fs::exists(root / alive));
  EXPECT_TRUE(fs::exists(root / other));
  EXPECT_TRUE(fs::exists(root / unlike));
  WriteSet(root / dead, {{"result.json", "{}\n"}});  // the next run's publication removes them too
  detail::PublishFiles(root / "out", kNewSet, false);
  EXPECT_FALSE(fs::exists(root / dead));
  EXPECT_TRUE(fs::exists(root / alive));
}

TEST(OutputSet, PrepareChecksWithoutCreatingTheDirectory) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  detail::PrepareOutputDir(root / "a" / "b" / "out", false);
  EXPECT_TRUE(fs::is_directory(root / "a" / "b"));
  EXPECT_FALSE(fs::exists(root / "a" / "b" / "out")) << "a run that fails must leave no empty --out";
  fs::create_directories(root / "empty");
  EXPECT_NO_THROW(detail::PrepareOutputDir(root / "empty", false));
  std::ofstream(root / "file") << "x";
  EXPECT_THROW(detail::PrepareOutputDir(root / "file", true), Error);
}

TEST(OutputSet, ForceReplacesOnlyAnEarlierRunsResults) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  WriteSet(root / "run", kOldSet);
  EXPECT_THROW(detail::PrepareOutputDir(root / "run", false), Error);
  EXPECT_NO_THROW(detail::PrepareOutputDir(root / "run", true));
  // A folder of the user's own files is never replaced, --force or not.
  WriteSet(root / "mine", {{"notes.txt", "keep me\n"}});
  try {
    detail::PrepareOutputDir(root / "mine", true);
    ADD_FAILURE() << "a directory without result.json was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'notes.txt'"), std::string::npos) << e.what();
  }
  WriteSet(root / "nested", kOldSet);
  fs::create_directories(root / "nested" / "data");
  EXPECT_THROW(detail::PrepareOutputDir(root / "nested", true), Error);
  EXPECT_EQ(Listing(root / "mine").size(), 1u);
}

TEST(OutputSet, ForceNeverRemovesAUsersFileBesideAnEarlierRun) {
  // Hardening round 2, item 11: an earlier run's folder that also holds the user's own data and
  // notes is refused, naming a file, and both files stay.
  const Scratch scratch;
  const fs::path& root = scratch.path();
  detail::PublishFiles(root / "out", kNewSet, false);
  const auto manifest = Listing(root / "out").at(detail::kManifestName);
  EXPECT_NE(manifest.find("\"contributions.csv\""), std::string::npos) << manifest;
  std::ofstream(root / "out" / "mydata.csv") << "x,label\n1,0\n";
  std::ofstream(root / "out" / "notes.txt") << "mine\n";
  for (const bool prepare : {true, false}) {
    try {
      if (prepare)
        detail::PrepareOutputDir(root / "out", true);
      else
        detail::PublishFiles(root / "out", kNewSet, true);
      ADD_FAILURE() << "a user's file beside an earlier run was replaced";
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_TRUE(what.find("'mydata.csv'") != std::string::npos || what.find("'notes.txt'") != std::string::npos)
          << what;
      EXPECT_NE(what.find("no perfshap run wrote"), std::string::npos) << what;
    }
  }
  EXPECT_EQ(Listing(root / "out").count("mydata.csv"), 1u);
  EXPECT_EQ(Listing(root / "out").count("notes.txt"), 1u);
  // A set written before the manifest: result.json names its files and figures.
  WriteSet(root / "older", {{"result.json", "{\"files\": [\"phi.csv\"], \"figures\": [\"roc.svg\"]}\n"},
                            {"phi.csv", "old\n"},
                            {"roc.svg", "<svg/>"}});
  EXPECT_NO_THROW(detail::PrepareOutputDir(root / "older", true));
  std::ofstream(root / "older" / "mine.txt") << "mine\n";
  EXPECT_THROW(detail::PrepareOutputDir(root / "older", true), Error);
}

TEST(OutputSet, TheWorkingDirectoryIsRefused) {
  const Scratch scratch;
  const fs::path& root = scratch.path();
  fs::create_directories(root / "work" / "sub");
  const fs::path before = fs::current_path();
  fs::current_path(root / "work" / "sub");
  const auto restore = [&] { fs::current_path(before); };
  try {
    EXPECT_THROW(detail::PrepareOutputDir(".", true), Error);
    EXPECT_THROW(detail::PrepareOutputDir("..", true), Error);
    EXPECT_NO_THROW(detail::PrepareOutputDir("results", false));
  } catch (...) {
    restore();
    throw;
  }
  restore();
}

TEST(OutputSet, FiguresFollowTheOptions) {
  int built = 0;
  const auto build = [&]() -> detail::Chart {
    ++built;
    detail::BarChart chart;
    chart.labels = {"a"};
    chart.values = {1.0};
    return chart;
  };
  detail::ReportContent none(detail::ReportOptions{FigureSet::kNone});
  EXPECT_FALSE(none.Figure("a.svg", FigureSet::kSummary, build));
  EXPECT_EQ(built, 0) << "--figures none built a figure";
  EXPECT_TRUE(none.items().empty());
  detail::ReportContent summary;  // the default
  EXPECT_TRUE(summary.Figure("a.svg", FigureSet::kSummary, build));
  EXPECT_FALSE(summary.Figure("row1.svg", FigureSet::kAll, build));
  EXPECT_EQ(summary.figures(), std::vector<std::string>({"a.svg"}));
  detail::ReportContent all(detail::ReportOptions{FigureSet::kAll});
  EXPECT_TRUE(all.Figure("a.svg", FigureSet::kSummary, build));
  EXPECT_TRUE(all.Figure("row1.svg", FigureSet::kAll, build));
  EXPECT_EQ(built, 3);
  EXPECT_EQ(detail::FilesDrawn(summary, {"x.csv", "a.svg", "row1.svg"}),
            std::vector<std::string>({"x.csv", "a.svg"}));
  // The SVG writer draws what was built, result.json last.
  all.Result({"shap", {"a"}, 0, 1, 0.0}, detail::Json::object());
  OutputDir out;
  detail::WriteReport(out, all);
  ASSERT_EQ(out.contents().size(), 3u);
  EXPECT_EQ(out.contents()[0].content, detail::RenderSvg(build()));
  EXPECT_EQ(out.contents()[2].name, "result.json");
  EXPECT_EQ(detail::ParseFigureSet("none"), FigureSet::kNone);
  EXPECT_EQ(detail::ParseFigureSet("all"), FigureSet::kAll);
  EXPECT_THROW(detail::ParseFigureSet("some"), InvalidArgument);
}

}  // namespace
}}  // namespace perfshap
