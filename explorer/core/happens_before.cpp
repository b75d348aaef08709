#include "explorer/core/happens_before.hpp"

namespace interleave {

void close_causal_past(std::span<const Event> trace, std::span<char> past, std::size_t last) {
  for (std::size_t i = last + 1; i-- > 0;) {
    if (!past[i]) continue;
    const Event& e = trace[i];
    if (e.hb_pred >= 0) past[static_cast<std::size_t>(e.hb_pred)] = 1;
    for (std::size_t j = 0; j < i; ++j)
      if (!past[j] && (trace[j].actor == e.actor || conflicts(trace[j].op, e.op))) past[j] = 1;
  }
}

HappensBefore::HappensBefore(std::span<const Event> trace)
    : n_(trace.size()), words_((n_ + 63) / 64) {
  past_.assign(n_ * words_, 0);
  for (std::size_t j = 0; j < n_; ++j) {
    std::uint64_t* pj = &past_[j * words_];
    for (std::size_t i = 0; i < j; ++i) {
      if (test(pj, i)) continue;
      const bool direct = trace[i].actor == trace[j].actor ||
                          trace[j].hb_pred == static_cast<std::int32_t>(i) ||
                          conflicts(trace[i].op, trace[j].op);
      if (!direct) continue;
      const std::uint64_t* pi = &past_[i * words_];
      for (std::size_t w = 0; w < words_; ++w)
        pj[w] |= pi[w];
      pj[i / 64] |= std::uint64_t{1} << (i % 64);
    }
  }
}

}  // namespace interleave
