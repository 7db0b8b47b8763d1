// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/model.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 {
namespace {

// Reading `text` fails with a DataError naming `part`, no flag, and the option `coefficients`.
void ExpectBadFile(const std::string& name, const std::string& text, const std::string& part) {
  try {
    ReadGlmCoefficients(testing::WriteTempFile(name, text));
    ADD_FAILURE() << name << ": nothing was thrown";
  } catch (const DataError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(part), std::string::npos) << what;
    EXPECT_NE(what.find("coefficients file"), std::string::npos) << what;
    EXPECT_EQ(what.find("--"), std::string::npos) << "library message names a flag: " << what;
    EXPECT_EQ(e.options(), (std::vector<std::string>{"coefficients"})) << what;
  }
}

TEST(GlmCoefficients, ReadsNamesAndValuesInFileOrder) {
  const GlmCoefficients c = ReadGlmCoefficients(
      testing::WriteTempFile("ok.csv", "\xEF\xBB\xBFname,coef,se\r\nconst,0.5,1\n\nx2,-1.5e-1,2\n\"x1\", +2 ,3\n"));
  EXPECT_EQ(c.names, (std::vector<std::string>{"x2", "x1"}));
  EXPECT_EQ(c.values, (std::vector<double>{0.5, -0.15, 2.0}));
  EXPECT_EQ(c.lines, (std::vector<std::size_t>{4, 5}));
  const auto model = MakeGlm(Link::kIdentity, c.values, false);
  EXPECT_NE(model, nullptr);
}

TEST(GlmCoefficients, BadFilesNameTheFileAndLine) {
  ExpectBadFile("empty.csv", "\n\n", "the file is empty");
  ExpectBadFile("header.csv", "feature,value\nconst,1\n",
                "line 1: the header needs the columns name and coef");
  ExpectBadFile("ragged.csv", "name,coef\nconst,1\nx1,2,3\n", "line 3: 3 cells, the header has 2");
  ExpectBadFile("text.csv", "name,coef\nconst,0.1\nx1,abc\n", "line 3: the coefficient of 'x1' is 'abc'");
  ExpectBadFile("nan.csv", "name,coef\nconst,nan\n", "line 2: the coefficient of 'const' is 'nan'");
  // Found by fuzz_coefficients: a carriage return in the header is escaped (one-line message).
  ExpectBadFile("cr_header.csv", "name,coefJ\rx1,1\n", "(found 'name,coefJ\\rx1,1')");
  ExpectBadFile("cr_name.csv", "name,coef\ncon\r\r\x7f,0.5\n", "found 'con\\r\\r\\x7f'");
  ExpectBadFile("noconst.csv", "name,coef\nx1,0.5\n", "the first coefficient must be 'const'");
  ExpectBadFile("twice.csv", "name,coef\nconst,1\nx1,2\nx1,3\n",
                "line 4: 'x1' appears twice (first on line 3)");
  ExpectBadFile("const2.csv", "name,coef\nconst,1\nx1,2\nconst,3\n", "'const' appears twice");
  ExpectBadFile("onlyconst.csv", "name,coef\nconst,1\n", "no feature coefficient after 'const'");
  ExpectBadFile("unnamed.csv", "name,coef\nconst,1\n,2\n", "line 3: empty name");
}

}  // namespace
}}  // namespace perfshap
