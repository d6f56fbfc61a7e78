#include "core/ir/Einsum.h"

#include <algorithm>
#include <initializer_list>

namespace fw {
namespace {

int letterLabel(char ch) {
  if (ch >= 'a' && ch <= 'z') return ch - 'a';
  if (ch >= 'A' && ch <= 'Z') return 26 + (ch - 'A');
  return -1;
}

char labelLetter(int l) { return l < 26 ? static_cast<char>('a' + l) : static_cast<char>('A' + l - 26); }

std::string dimsText(const std::vector<int64_t>& d) {
  std::string s = "[";
  for (size_t k = 0; k < d.size(); ++k) s += (k ? "," : "") + std::to_string(d[k]);
  return s + "]";
}

// One term of the equation: letter labels with the ellipsis position (-1 when absent).
struct Term {
  std::vector<int> letters;
  int ellAt = -1;  // index into letters where the ellipsis sits
};

Result<Term> parseTerm(const std::string& s) {
  Term t;
  for (size_t p = 0; p < s.size(); ++p) {
    if (s[p] == '.') {
      if (t.ellAt >= 0 || s.compare(p, 3, "...") != 0)
        return Error::badInput("malformed ellipsis in equation term '" + s + "'");
      t.ellAt = static_cast<int>(t.letters.size());
      p += 2;
      continue;
    }
    const int l = letterLabel(s[p]);
    if (l < 0)
      return Error::badInput("invalid character '" + std::string(1, s[p]) + "' in equation term '" + s + "'");
    t.letters.push_back(l);
  }
  return t;
}

std::vector<std::string> splitOn(const std::string& s, char sep) {
  std::vector<std::string> parts(1);
  for (char ch : s) {
    if (ch == sep)
      parts.emplace_back();
    else
      parts.back() += ch;
  }
  return parts;
}

}  // namespace

Result<EinsumForm> resolveEinsum(const std::string& equation, const std::vector<std::vector<int64_t>>& dims) {
  std::string eq;
  for (char ch : equation)
    if (ch != ' ' && ch != '\t' && ch != '\n') eq += ch;
  if (eq.empty()) return Error::badInput("missing attribute 'equation'");
  const size_t arrow = eq.find("->");
  const auto termStrs = splitOn(eq.substr(0, arrow), ',');
  const size_t nIn = termStrs.size();
  if (nIn != dims.size())
    return Error::badInput("equation '" + eq + "' has " + std::to_string(nIn) +
                           " operands but the node has " + std::to_string(dims.size()) + " inputs");
  std::vector<Term> terms;
  for (const auto& s : termStrs) {
    FW_ASSIGN_OR_RETURN(Term t, parseTerm(s));
    terms.push_back(std::move(t));
  }
  EinsumForm f;
  f.axisLabels.resize(nIn);
  // Ellipsis dims are right-aligned across operands.
  int ellRank = 0;
  for (size_t k = 0; k < nIn; ++k) {
    const int r = static_cast<int>(dims[k].size());
    const int nl = static_cast<int>(terms[k].letters.size());
    if (terms[k].ellAt < 0 ? r != nl : r < nl)
      return Error::badInput("equation term '" + termStrs[k] + "' does not match input " + std::to_string(k) +
                             " of shape " + dimsText(dims[k]));
    if (terms[k].ellAt >= 0) ellRank = std::max(ellRank, r - nl);
  }
  if (ellRank > kEinsumLabels - kEinsumEllipsis)
    return Error::badInput("the ellipsis covers " + std::to_string(ellRank) + " dims, more than " +
                           std::to_string(kEinsumLabels - kEinsumEllipsis) + " supported");
  f.size.fill(-1);
  std::array<int, kEinsumLabels> count{};  // operands that have each label
  for (size_t k = 0; k < nIn; ++k) {
    const int r = static_cast<int>(dims[k].size());
    const Term& t = terms[k];
    const int ne = r - static_cast<int>(t.letters.size());
    for (int li = 0; li <= static_cast<int>(t.letters.size()); ++li) {
      if (li == t.ellAt)
        for (int j = 0; j < ne; ++j) f.axisLabels[k].push_back(kEinsumEllipsis + (ellRank - ne) + j);
      if (li < static_cast<int>(t.letters.size()))
        f.axisLabels[k].push_back(t.letters[static_cast<size_t>(li)]);
    }
    std::array<bool, kEinsumLabels> seen{};
    for (int p = 0; p < r; ++p) {
      const int l = f.axisLabels[k][static_cast<size_t>(p)];
      const int64_t d = dims[k][static_cast<size_t>(p)];
      int64_t& sz = f.size[static_cast<size_t>(l)];
      if (l >= kEinsumEllipsis) {
        if (sz == -1 || sz == 1)
          sz = d;
        else if (d != 1 && d != sz)
          return Error::badInput("ellipsis dims of the inputs do not broadcast: " + dimsText(dims[k]));
      } else {
        if (sz != -1 && sz != d)
          return Error::badInput("label '" + std::string(1, labelLetter(l)) + "' has sizes " +
                                 std::to_string(sz) + " and " + std::to_string(d));
        sz = d;
      }
      if (!seen[static_cast<size_t>(l)]) ++count[static_cast<size_t>(l)];
      seen[static_cast<size_t>(l)] = true;
    }
  }
  if (arrow != std::string::npos) {
    FW_ASSIGN_OR_RETURN(Term ot, parseTerm(eq.substr(arrow + 2)));
    for (size_t li = 0; li <= ot.letters.size(); ++li) {
      if (static_cast<int>(li) == ot.ellAt)
        for (int j = 0; j < ellRank; ++j) f.outLabels.push_back(kEinsumEllipsis + j);
      if (li < ot.letters.size()) {
        const int l = ot.letters[li];
        if (f.size[static_cast<size_t>(l)] < 0)
          return Error::badInput("output label '" + std::string(1, labelLetter(l)) +
                                 "' does not appear in the inputs");
        if (std::find(f.outLabels.begin(), f.outLabels.end(), l) != f.outLabels.end())
          return Error::badInput("output label repeated in '" + eq + "'");
        f.outLabels.push_back(l);
      }
    }
  } else {
    for (int j = 0; j < ellRank; ++j) f.outLabels.push_back(kEinsumEllipsis + j);
    // Letters appearing in exactly one operand, in ASCII order (upper case before lower case).
    for (int l = 26; l < 52; ++l)
      if (count[static_cast<size_t>(l)] == 1) f.outLabels.push_back(l);
    for (int l = 0; l < 26; ++l)
      if (count[static_cast<size_t>(l)] == 1) f.outLabels.push_back(l);
  }
  for (int l = 0; l < kEinsumLabels; ++l)
    if (f.size[static_cast<size_t>(l)] >= 0 &&
        std::find(f.outLabels.begin(), f.outLabels.end(), l) == f.outLabels.end())
      f.sumLabels.push_back(l);
  return f;
}

std::optional<EinsumProduct> einsumProduct(const EinsumForm& f,
                                           const std::vector<std::vector<int64_t>>& dims) {
  if (f.axisLabels.size() != 2 || dims.size() != 2) return std::nullopt;
  std::array<int, kEinsumLabels> where{};  // bit 0: first operand, bit 1: second, bit 2: output
  for (size_t k = 0; k < 2; ++k) {
    if (f.axisLabels[k].size() != dims[k].size()) return std::nullopt;
    for (size_t p = 0; p < f.axisLabels[k].size(); ++p) {
      const auto l = static_cast<size_t>(f.axisLabels[k][p]);
      if ((where[l] & (1 << k)) || dims[k][p] != f.size[l]) return std::nullopt;  // a diagonal, a broadcast
      where[l] |= 1 << k;
    }
  }
  for (int l : f.outLabels) where[static_cast<size_t>(l)] |= 4;
  std::vector<int> batch, m, n, k;
  for (int l : f.outLabels) {
    const int w = where[static_cast<size_t>(l)];
    if (w != 7 && w != 5 && w != 6) return std::nullopt;
    (w == 7 ? batch : w == 5 ? m : n).push_back(l);
  }
  for (int l : f.axisLabels[0]) {
    const int w = where[static_cast<size_t>(l)];
    if (w == 3)
      k.push_back(l);
    else if (w == 1)
      return std::nullopt;  // summed within the first operand alone
  }
  for (int l : f.axisLabels[1])
    if (where[static_cast<size_t>(l)] == 2) return std::nullopt;
  auto prod = [&](const std::vector<int>& ls) {
    int64_t v = 1;
    for (int l : ls) v *= f.size[static_cast<size_t>(l)];
    return v;
  };
  // Label order with size-1 labels left out (they do not move data).
  auto order = [&](std::initializer_list<const std::vector<int>*> parts) {
    std::vector<int> o;
    for (const auto* part : parts)
      for (int l : *part)
        if (f.size[static_cast<size_t>(l)] != 1) o.push_back(l);
    return o;
  };
  const std::vector<int> none;
  auto plan = [&](std::vector<int> b, std::vector<int> pm, std::vector<int> pn,
                  EinsumProduct::Shared shared) {
    EinsumProduct p;
    p.batch = std::move(b), p.m = std::move(pm), p.n = std::move(pn), p.k = k;
    p.shared = shared;
    const auto* aBatch = shared == EinsumProduct::Shared::A ? &none : &p.batch;
    const auto* bBatch = shared == EinsumProduct::Shared::B ? &none : &p.batch;
    p.moveA = order({&f.axisLabels[0]}) != order({aBatch, &p.m, &p.k});
    const auto bAxes = order({&f.axisLabels[1]});
    const bool plainB = bAxes == order({bBatch, &p.k, &p.n});
    p.transB = !plainB && bAxes == order({bBatch, &p.n, &p.k});
    p.moveB = !plainB && !p.transB;
    p.moveC = order({&f.outLabels}) != order({&p.batch, &p.m, &p.n});
    p.batches = prod(p.batch);
    p.M = prod(p.m);
    p.N = prod(p.n);
    p.K = prod(p.k);
    return p;
  };
  EinsumProduct p = plan(batch, m, n, EinsumProduct::Shared::None);
  // No label in all three and the output led by labels of one operand: those labels as the batch, the
  // other operand shared, where that moves fewer elements.
  const std::vector<int> out = order({&f.outLabels});
  if (batch.empty() && p.movedElements() > 0 && !out.empty()) {
    const int side = where[static_cast<size_t>(out[0])];
    std::vector<int> lead;
    for (int l : out) {
      if (where[static_cast<size_t>(l)] != side) break;
      lead.push_back(l);
    }
    auto without = [&](const std::vector<int>& ls) {
      std::vector<int> r;
      for (int l : ls)
        if (std::find(lead.begin(), lead.end(), l) == lead.end()) r.push_back(l);
      return r;
    };
    const EinsumProduct q = side == 5 ? plan(lead, without(m), n, EinsumProduct::Shared::B)
                                      : plan(lead, m, without(n), EinsumProduct::Shared::A);
    if (q.movedElements() < p.movedElements()) p = q;
  }
  return p;
}

}  // namespace fw
