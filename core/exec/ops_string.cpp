// String ops: StringNormalizer (opset 10) and TfIdfVectorizer (opset 9).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/exec/OpContext.h"

namespace fw::exec {
namespace {

// --- UTF-8 case mapping --------------------------------------------------------------------------
// Simple one-to-one case mapping, independent of the process locale: ASCII, Latin-1, Latin
// Extended-A, Greek and Cyrillic. That covers the European languages the op is used for; special
// cases (German sharp s to "SS", Turkish dotless i) are left as they are, and so is invalid UTF-8.

// Decodes one code point at s[i], advancing i; returns -1 (and advances one byte) on a bad sequence.
int32_t decodeUtf8(const std::string& s, size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  int len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 0;
  if (len == 0 || i + static_cast<size_t>(len) > s.size()) {
    ++i;
    return -1;
  }
  int32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1f) : len == 3 ? (b0 & 0x0f) : (b0 & 0x07);
  for (int k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
    if ((b >> 6) != 0x2) {
      ++i;
      return -1;
    }
    cp = (cp << 6) | (b & 0x3f);
  }
  i += static_cast<size_t>(len);
  return cp;
}

void encodeUtf8(int32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

int32_t toLowerCp(int32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if ((c >= 0xc0 && c <= 0xde && c != 0xd7)) return c + 32;  // Latin-1, not the multiplication sign
  if (c >= 0x100 && c <= 0x137 && c != 0x130) return c | 1;  // Latin Extended-A pairs (upper even)
  if (c >= 0x139 && c <= 0x148) return (c & 1) ? c + 1 : c;  // pairs with upper odd
  if (c >= 0x14a && c <= 0x177) return c | 1;
  if (c == 0x178) return 0xff;
  if (c >= 0x179 && c <= 0x17e) return (c & 1) ? c + 1 : c;
  if (c >= 0x391 && c <= 0x3ab && c != 0x3a2) return c + 32;  // Greek
  if (c >= 0x410 && c <= 0x42f) return c + 32;                // Cyrillic
  if (c >= 0x400 && c <= 0x40f) return c + 80;
  return c;
}

int32_t toUpperCp(int32_t c) {
  if (c >= 'a' && c <= 'z') return c - 32;
  if (c >= 0xe0 && c <= 0xfe && c != 0xf7) return c - 32;
  if (c == 0xff) return 0x178;
  if (c >= 0x100 && c <= 0x137 && c != 0x131) return c & ~1;
  if (c >= 0x139 && c <= 0x148) return (c & 1) ? c : c - 1;
  if (c >= 0x14a && c <= 0x177) return c & ~1;
  if (c >= 0x179 && c <= 0x17e) return (c & 1) ? c : c - 1;
  if (c == 0x3c2) return 0x3a3;  // final sigma
  if (c >= 0x3b1 && c <= 0x3cb) return c - 32;
  if (c >= 0x430 && c <= 0x44f) return c - 32;
  if (c >= 0x450 && c <= 0x45f) return c - 80;
  return c;
}

std::string changeCase(const std::string& s, bool upper) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const size_t start = i;
    const int32_t cp = decodeUtf8(s, i);
    if (cp < 0) {
      out.append(s, start, i - start);  // invalid byte kept as is
      continue;
    }
    encodeUtf8(upper ? toUpperCp(cp) : toLowerCp(cp), out);
  }
  return out;
}

// A STRINGS attribute, nullopt when absent (or of another kind).
std::optional<std::vector<std::string>> stringsAttr(const OpContext& c, std::string_view name) {
  const Attribute* a = c.attrs.find(name);
  if (a == nullptr || a->kind != AttrKind::Strings) return std::nullopt;
  return a->strings;
}

// StringNormalizer: drops stopwords from a [C] or [1, C] string tensor, then optionally changes case.
// When every element is dropped the output is one empty string ([1] or [1, 1]), as the spec says.
Status opStringNormalizer(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input X");
  const RtTensor& x = c.input(0);
  if (x.store() != Store::Str) return c.fail("X must be a string tensor, got " + std::string(dtypeName(x.dtype)));
  const bool twoD = x.rank() == 2;
  if (!(x.rank() == 1 || (twoD && x.dims[0] == 1)))
    return c.fail("X must have shape [C] or [1, C], got " + dimsStr(x.dims));
  const std::string action = c.attrStr("case_change_action", "NONE");
  if (action != "NONE" && action != "LOWER" && action != "UPPER")
    return c.fail("case_change_action must be NONE, LOWER or UPPER, got '" + action + "'");
  const bool caseSensitive = c.attrInt("is_case_sensitive", 0) != 0;
  std::unordered_set<std::string> stop;
  for (const auto& w : stringsAttr(c, "stopwords").value_or(std::vector<std::string>{}))
    stop.insert(caseSensitive ? w : changeCase(w, false));
  std::vector<std::string> kept;
  const int64_t n = x.numel();
  for (int64_t k = 0; k < n; ++k) {
    const std::string& s = x.s()[k];
    if (!stop.empty() && stop.count(caseSensitive ? s : changeCase(s, false))) continue;
    kept.push_back(action == "NONE" ? s : changeCase(s, action == "UPPER"));
  }
  if (kept.empty()) kept.emplace_back();
  const auto m = static_cast<int64_t>(kept.size());
  RtTensor y = RtTensor::alloc(DType::String, twoD ? std::vector<int64_t>{1, m} : std::vector<int64_t>{m});
  for (int64_t k = 0; k < m; ++k) y.ms()[k] = std::move(kept[static_cast<size_t>(k)]);
  c.out[0] = std::move(y);
  return {};
}

// --- TfIdfVectorizer ---------------------------------------------------------------------------

// One token as bytes: an int64 as its 8 bytes, a string as its length (8 bytes) and its bytes, so
// concatenated tokens form an unambiguous n-gram key.
void appendToken(const RtTensor& x, int64_t k, std::string& key) {
  if (x.store() == Store::Str) {
    const std::string& s = x.s()[k];
    const uint64_t len = s.size();
    key.append(reinterpret_cast<const char*>(&len), 8);
    key += s;
  } else {
    key.append(reinterpret_cast<const char*>(&x.i()[k]), 8);
  }
}

// Counts, per row of a [C] or [N, C] int or string tensor, the n-grams of a pool: n-grams of every
// length in [min_gram_length, max_gram_length], their items (skip + 1) apart for every skip in
// [0, max_skip_count] (a 1-gram counted once per position); Y[ngram_indexes[i]] is the count of pool
// n-gram i, then TF keeps counts, IDF uses min(count, 1) * weight, TFIDF count * weight.
Status opTfIdfVectorizer(OpContext& c) {
  if (!c.has(0)) return c.fail("missing input X");
  const RtTensor& x = c.input(0);
  const bool strIn = x.store() == Store::Str;
  if (!strIn && x.store() != Store::I64) return c.fail("X must be a string or integer tensor, got " + std::string(dtypeName(x.dtype)));
  if (x.rank() != 1 && x.rank() != 2) return c.fail("X must be 1-D or 2-D, got " + dimsStr(x.dims));
  const std::string mode = c.attrStr("mode", "");
  if (mode != "TF" && mode != "IDF" && mode != "TFIDF") return c.fail("mode must be TF, IDF or TFIDF, got '" + mode + "'");
  const int64_t minN = c.attrInt("min_gram_length", 0), maxN = c.attrInt("max_gram_length", 0);
  const int64_t maxSkip = c.attrInt("max_skip_count", 0);
  if (minN < 1 || maxN < minN)
    return c.fail("needs 1 <= min_gram_length <= max_gram_length, got " + std::to_string(minN) + " and " + std::to_string(maxN));
  if (maxSkip < 0) return c.fail("max_skip_count must be >= 0, got " + std::to_string(maxSkip));
  const auto counts = c.attrInts("ngram_counts");
  const auto indexes = c.attrInts("ngram_indexes");
  const auto poolInts = c.attrs.getInts("pool_int64s");
  const auto poolStrs = stringsAttr(c, "pool_strings");
  if (poolInts.has_value() == poolStrs.has_value()) return c.fail("exactly one of pool_int64s and pool_strings must be set");
  if (poolStrs.has_value() != strIn)
    return c.fail(strIn ? "a string X needs pool_strings" : "an integer X needs pool_int64s");
  const int64_t poolSize = static_cast<int64_t>(strIn ? poolStrs->size() : poolInts->size());
  const auto weights = c.attrs.getFloats("weights").value_or(std::vector<float>{});
  if (!weights.empty() && weights.size() != indexes.size())
    return c.fail("weights has " + std::to_string(weights.size()) + " values, ngram_indexes " + std::to_string(indexes.size()));
  int64_t outLen = 0;
  for (int64_t v : indexes) {
    if (v < 0) return c.fail("ngram_indexes holds a negative index " + std::to_string(v));
    outLen = std::max(outLen, v + 1);
  }
  // Pool n-grams by length: maps[n-1] from key to the n-gram's number (its ngram_indexes slot).
  RtTensor pool;
  if (strIn) {
    pool = RtTensor::alloc(DType::String, {poolSize});
    for (int64_t k = 0; k < poolSize; ++k) pool.ms()[k] = (*poolStrs)[static_cast<size_t>(k)];
  } else {
    pool = RtTensor::vecI(*poolInts);
  }
  std::vector<std::unordered_map<std::string, int64_t>> maps(counts.size());
  int64_t gramNo = 0;
  for (size_t lvl = 0; lvl < counts.size(); ++lvl) {
    const int64_t n = static_cast<int64_t>(lvl) + 1;
    const int64_t b = counts[lvl], e = lvl + 1 < counts.size() ? counts[lvl + 1] : poolSize;
    if (b < 0 || e < b || e > poolSize || (e - b) % n != 0)
      return c.fail("ngram_counts " + dimsStr(counts) + " do not split a pool of " + std::to_string(poolSize) + " items into " +
                    std::to_string(n) + "-grams");
    for (int64_t p = b; p < e; p += n, ++gramNo) {
      std::string key;
      for (int64_t k = 0; k < n; ++k) appendToken(pool, p + k, key);
      if (gramNo >= static_cast<int64_t>(indexes.size()))
        return c.fail("the pool holds more n-grams than ngram_indexes (" + std::to_string(indexes.size()) + ")");
      maps[lvl].emplace(std::move(key), gramNo);
    }
  }
  if (gramNo != static_cast<int64_t>(indexes.size()))
    return c.fail("the pool holds " + std::to_string(gramNo) + " n-grams, ngram_indexes " + std::to_string(indexes.size()));

  const int64_t rows = x.rank() == 2 ? x.dims[0] : 1, cols = x.dims.back();
  RtTensor y = RtTensor::zeros(DType::Float32, x.rank() == 2 ? std::vector<int64_t>{rows, outLen} : std::vector<int64_t>{outLen});
  const int64_t topN = std::min<int64_t>(maxN, static_cast<int64_t>(maps.size()));
  // A skip that spreads an n-gram past the row finds nothing: cap it at the row length.
  const int64_t skipCap = std::min<int64_t>(maxSkip, cols);
  const int64_t perRow = cols * (skipCap + 1) * std::max<int64_t>(1, topN) * topN;
  parallelFor(rows, perRow, [&](int64_t rb, int64_t re) {
    std::vector<int64_t> hits(static_cast<size_t>(gramNo));
    std::string key;
    for (int64_t r = rb; r < re; ++r) {
      std::fill(hits.begin(), hits.end(), 0);
      const int64_t base = r * cols;
      for (int64_t n = minN; n <= topN; ++n) {
        const auto& map = maps[static_cast<size_t>(n - 1)];
        if (map.empty()) continue;
        const int64_t skips = n == 1 ? 0 : skipCap;
        for (int64_t s = 0; s <= skips; ++s) {
          const int64_t span = (n - 1) * (s + 1);
          for (int64_t start = 0; start + span < cols; ++start) {
            key.clear();
            for (int64_t k = 0; k < n; ++k) appendToken(x, base + start + k * (s + 1), key);
            const auto it = map.find(key);
            if (it != map.end()) ++hits[static_cast<size_t>(it->second)];
          }
        }
      }
      float* out = y.mf() + r * outLen;
      for (int64_t g = 0; g < gramNo; ++g) {
        const int64_t h = hits[static_cast<size_t>(g)];
        if (h == 0) continue;
        const float w = weights.empty() ? 1.f : weights[static_cast<size_t>(g)];
        const float v = mode == "TF" ? float(h) : mode == "IDF" ? w : float(h) * w;
        out[indexes[static_cast<size_t>(g)]] += v;
      }
    }
  });
  c.out[0] = std::move(y);
  return {};
}

}  // namespace

std::vector<OpEntry> stringOps() { return {{"StringNormalizer", opStringNormalizer}, {"TfIdfVectorizer", opTfIdfVectorizer}}; }

}  // namespace fw::exec
