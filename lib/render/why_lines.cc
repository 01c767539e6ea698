#include "lib/render/why_lines.h"

#include <algorithm>

#include "lib/render/cells.h"

namespace alignbench {
namespace {

bool Says(const std::vector<std::string>& sentences, const std::string& one) {
  return std::find(sentences.begin(), sentences.end(), one) != sentences.end();
}

std::string Join(const std::vector<std::string>& sentences) {
  std::string text;
  for (const std::string& s : sentences) text += (text.empty() ? "" : " ") + s;
  return text;
}

// The sentences of the first measured pair that every measured pair says.
std::vector<std::string> Common(const std::vector<PairResult>& pairs,
                                std::size_t from, std::size_t to) {
  std::vector<std::vector<std::string>> measured;
  for (std::size_t i = from; i < to; ++i) {
    if (pairs[i].Measured())
      measured.push_back(Sentences(pairs[i].explanation));
  }
  if (measured.size() < 2) return {};
  std::vector<std::string> common;
  for (const std::string& sentence : measured.front()) {
    const bool everywhere = std::all_of(
        measured.begin(), measured.end(),
        [&](const std::vector<std::string>& s) { return Says(s, sentence); });
    if (everywhere && !Says(common, sentence)) common.push_back(sentence);
  }
  return common;
}

}  // namespace

std::vector<std::string> Sentences(const std::string& text) {
  std::vector<std::string> sentences;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find(". ", start);
    const std::size_t stop = end == std::string::npos ? text.size() : end + 1;
    sentences.push_back(text.substr(start, stop - start));
    start = text.find_first_not_of(' ', stop);
    if (start == std::string::npos) break;
  }
  return sentences;
}

WhyLines WhyLinesOf(const std::vector<PairResult>& pairs, std::size_t from,
                    std::size_t to) {
  WhyLines why;
  why.common = Common(pairs, from, to);
  for (std::size_t i = from; i < to; ++i) {
    std::vector<std::string> rest;
    for (const std::string& s : Sentences(pairs[i].explanation)) {
      if (!pairs[i].Measured() || !Says(why.common, s)) rest.push_back(s);
    }
    if (!rest.empty()) {
      why.per_size.emplace_back(SizeColumn(pairs[i].spec.size), Join(rest));
    }
  }
  return why;
}

}  // namespace alignbench
