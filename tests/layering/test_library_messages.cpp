// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The library never mentions a command-line flag (ARCHITECTURE.md): its messages speak of its
// options in words and list the option names in Error::options(); the CLI appends its flags.
// This test reads every string literal of engine/src, engine/include, engine/c_api and
// python/src (the front ends beside the command line) and fails on a flag
// spelling such as "--positive", naming the file and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace perfshap { inline namespace v0 {
namespace {

namespace fs = std::filesystem;

/** @brief One string literal of a source file: its text between the quotes and its first line. */
struct Literal {
  std::string text;
  int line = 0;
};

// The string literals of C++ source text: comments, character literals and preprocessor
// #include lines are skipped; raw strings R"d(...)d" are read whole. Adjacent literals stay
// separate (a flag split across two of them is not a flag anyone wrote).
std::vector<Literal> StringLiterals(const std::string& src) {
  std::vector<Literal> out;
  int line = 1;
  std::size_t i = 0;
  const std::size_t n = src.size();
  const auto advance = [&](std::size_t to) {
    for (; i < to && i < n; ++i)
      if (src[i] == '\n') ++line;
  };
  while (i < n) {
    const char c = src[i];
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      advance(src.find('\n', i) == std::string::npos ? n : src.find('\n', i));
    } else if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      const std::size_t end = src.find("*/", i + 2);
      advance(end == std::string::npos ? n : end + 2);
    } else if (c == '#' && src.compare(i, 8, "#include") == 0) {
      advance(src.find('\n', i) == std::string::npos ? n : src.find('\n', i));
    } else if (c == 'R' && i + 1 < n && src[i + 1] == '"' &&
               (i == 0 || !(std::isalnum(static_cast<unsigned char>(src[i - 1])) || src[i - 1] == '_') ||
                src[i - 1] == '8' || src[i - 1] == 'u' || src[i - 1] == 'U' || src[i - 1] == 'L')) {
      const std::size_t open = src.find('(', i + 2);
      // GCC 12 warns falsely (-Wrestrict) on `")" + std::string`; build the delimiter by appending.
      std::string close(")");
      close.append(src, i + 2, open - (i + 2));
      close += '"';
      const std::size_t end = src.find(close, open);
      const std::size_t stop = end == std::string::npos ? n : end;
      out.push_back({src.substr(open + 1, stop - open - 1), line});
      advance(stop + close.size());
    } else if (c == '"' || c == '\'') {
      const bool is_char = c == '\'';
      // A digit separator (1'000) is not a character literal.
      if (is_char && i > 0 && std::isxdigit(static_cast<unsigned char>(src[i - 1])) && i + 1 < n &&
          std::isxdigit(static_cast<unsigned char>(src[i + 1]))) {
        ++i;
        continue;
      }
      const int start_line = line;
      std::string text;
      std::size_t j = i + 1;
      for (; j < n && src[j] != c && src[j] != '\n'; ++j) {
        if (src[j] == '\\' && j + 1 < n) text += src[j++];
        text += src[j];
      }
      if (!is_char) out.push_back({text, start_line});
      advance(j + 1);
    } else {
      if (c == '\n') ++line;
      ++i;
    }
  }
  return out;
}

// "--" followed by a lower-case letter, not inside a longer run of dashes: "--positive", "--cv".
bool HasFlagSpelling(const std::string& text) {
  for (std::size_t k = 0; k + 2 < text.size(); ++k)
    if (text[k] == '-' && text[k + 1] == '-' && std::islower(static_cast<unsigned char>(text[k + 2])) &&
        (k == 0 || text[k - 1] != '-'))
      return true;
  return false;
}

/** @brief A message that may still spell a flag, and why. */
struct Allowed {
  const char* file;     // relative to engine/
  const char* literal;  // a part of the literal's text
  const char* reason;
};

// Kept short on purpose: every entry is a message still to be converted.
const std::vector<Allowed>& AllowedFlagSpellings() {
  // Every library message speaks of options: nothing is allowed today.
  static const std::vector<Allowed> allowed = {};
  return allowed;
}

bool IsAllowed(const std::string& file, const std::string& literal) {
  return std::any_of(AllowedFlagSpellings().begin(), AllowedFlagSpellings().end(), [&](const Allowed& a) {
    return file == a.file && literal.find(a.literal) != std::string::npos;
  });
}

TEST(LibraryMessages, ScannerFindsFlagsInLiteralsOnly) {
  const std::string src =
      "// --comment\n/* --block\n */ f(\"use --positive\", '\"', \"a -- b\", \"---x\");\n"
      "g(R\"x(raw --seed)x\"); h(\"esc \\\" --out\");\n#include \"--no\"\n";
  const std::vector<Literal> lits = StringLiterals(src);
  std::vector<std::string> flagged;
  for (const Literal& l : lits)
    if (HasFlagSpelling(l.text)) flagged.push_back(l.text + "@" + std::to_string(l.line));
  EXPECT_EQ(flagged, (std::vector<std::string>{"use --positive@3", "raw --seed@4", "esc \\\" --out@4"}));
}

TEST(LibraryMessages, NameOptionsNotCommandLineFlags) {
  const fs::path engine(PERFSHAP_ENGINE_DIR);
  int files = 0;
  std::ostringstream found;
  // The library, and the front ends beside the command line (the C API, the Python module): none
  // writes another front end's words.
  for (const char* part : {"src", "include", "c_api", "../python/src"}) {
    for (const auto& entry : fs::recursive_directory_iterator(engine / part)) {
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h")) continue;
      ++files;
      std::ifstream in(entry.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      const std::string rel = fs::relative(entry.path(), engine).lexically_normal().generic_string();
      for (const Literal& lit : StringLiterals(text.str()))
        if (HasFlagSpelling(lit.text) && !IsAllowed(rel, lit.text))
          found << "\n  engine/" << rel << ":" << lit.line << ": \"" << lit.text << "\"";
    }
  }
  EXPECT_GT(files, 40);
  EXPECT_TRUE(found.str().empty())
      << "library messages spell command-line flags; say the option in words and pass its name to "
         "Error / PERFSHAP_CHECK (the CLI appends its flag, engine/cli/commands.cpp):"
      << found.str();
}

}  // namespace
}}  // namespace perfshap
