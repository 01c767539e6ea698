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

// A sentence with its figures taken out (each a kFigure in `form`), and the
// figures in order.
constexpr char kFigure = '\x01';
struct Shape {
  std::string form;
  std::vector<std::string> figures;
};

Shape ShapeOf(const std::string& sentence) {
  Shape shape;
  const auto digit = [&](std::size_t i) {
    return i < sentence.size() && sentence[i] >= '0' && sentence[i] <= '9';
  };
  for (std::size_t i = 0; i < sentence.size();) {
    if (!digit(i)) {
      shape.form += sentence[i++];
      continue;
    }
    std::size_t j = i;
    while (digit(j) || (sentence[j] == '.' && digit(j + 1))) ++j;
    shape.figures.push_back(sentence.substr(i, j - i));
    shape.form += kFigure;
    i = j;
  }
  return shape;
}

// The form with each figure as it is in every shape, or as "LOW to HIGH".
std::string Ranged(const std::string& form,
                   const std::vector<const Shape*>& shapes) {
  std::string text;
  std::size_t figure = 0;
  for (char c : form) {
    if (c != kFigure) {
      text += c;
      continue;
    }
    const std::string* low = &shapes.front()->figures[figure];
    const std::string* high = low;
    for (const Shape* shape : shapes) {
      const std::string& value = shape->figures[figure];
      if (std::stod(value) < std::stod(*low)) low = &value;
      if (std::stod(value) > std::stod(*high)) high = &value;
    }
    text += *low == *high ? *low : *low + " to " + *high;
    ++figure;
  }
  return text;
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
      why.per_size.emplace_back(SizeText(pairs[i].spec.size), Join(rest));
    }
  }
  return why;
}

SharedWhy SharedWhyOf(const std::vector<PairResult>& pairs, std::size_t from,
                      std::size_t to) {
  std::vector<std::vector<Shape>> measured;
  std::vector<std::uint64_t> sizes;
  SharedWhy why;
  for (std::size_t i = from; i < to; ++i) {
    if (!pairs[i].Measured()) {
      if (!pairs[i].explanation.empty()) {
        why.saying_more.push_back(pairs[i].spec.size);
      }
      continue;
    }
    measured.emplace_back();
    sizes.push_back(pairs[i].spec.size);
    for (const std::string& s : Sentences(pairs[i].explanation)) {
      measured.back().push_back(ShapeOf(s));
    }
  }
  if (measured.empty()) return why;
  std::vector<std::string> shared;
  for (const Shape& first : measured.front()) {
    std::vector<const Shape*> each;
    for (const std::vector<Shape>& shapes : measured) {
      auto it = std::find_if(shapes.begin(), shapes.end(), [&](const Shape& s) {
        return s.form == first.form;
      });
      if (it == shapes.end()) break;
      each.push_back(&*it);
    }
    if (each.size() < measured.size() || Says(shared, first.form)) continue;
    shared.push_back(first.form);
    why.text += (why.text.empty() ? "" : " ") + Ranged(first.form, each);
  }
  for (std::size_t k = 0; k < measured.size(); ++k) {
    const bool more =
        std::any_of(measured[k].begin(), measured[k].end(),
                    [&](const Shape& s) { return !Says(shared, s.form); });
    if (more) why.saying_more.push_back(sizes[k]);
  }
  return why;
}

}  // namespace alignbench
