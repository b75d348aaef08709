// Classic benchmarks of the DPOR literature, written on the public API (shared by the tests and by
// tests/bench/bench_dpor.cpp).
//
// Sources: Flanagan and Godefroid, "Dynamic partial-order reduction for model checking software",
// POPL 2005 (indexer, filesystem); Abdulla, Aronis, Jonsson and Sagonas, "Optimal dynamic partial
// order reduction", POPL 2014, and "Source sets: a foundation for optimal dynamic partial order
// reduction", JACM 64(4) 2017 (lastzero, readers, and the trace counts of all four). The programs
// follow the C versions in Nidhugg's benchmark suite (benchmarks/SV-COMP/indexer.c,
// .../from_TRACER/filesystem.c, tests/smoke/C-tests/lastzero_*.c and readers_*.c).
#pragma once

#include "explorer/core/execution.hpp"
#include "explorer/core/primitives.hpp"

#include <memory>
#include <string>
#include <vector>

namespace interleave::literature {

// The names of a program's objects and actors are built once, when the program is made, not in
// every execution: the engine copies them into tables it reuses, so an execution's set-up allocates
// nothing once warm (what a user writing a program for speed would do too).
inline std::vector<std::string> numbered(const std::string& prefix, int count,
                                         const std::string& suffix = "") {
  std::vector<std::string> names;
  for (int i = 0; i < count; ++i)
    names.push_back(prefix + std::to_string(i) + suffix);
  return names;
}

/// readers(N): one writer writes x, N readers read it. Traces: 2^N (which readers run before the
/// write).
inline Program readers(int n) {
  return [n, reader = numbered("reader", n + 1)](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("writer", [&x](Actor& a) { x.write(a, "write", 42); });
    for (int i = 1; i <= n; ++i)
      ex.spawn(reader[static_cast<std::size_t>(i)], [&x](Actor& a) { x.read(a, "read"); });
  };
}

/// lastzero(N): array[0..N] = 0. Thread 0 searches for the last zero:
/// `for (i = N; array[i] != 0; i--);`. Thread j (1..N): `array[j] = array[j-1] + 1` (a read, then a
/// write).
inline Program lastzero(int n) {
  return [n, thread = numbered("T", n + 1)](Execution& ex) {
    struct Array {
      std::vector<int> value;
      ObjectId first = kNoObject;  // array[i] is the object first + i
      ObjectId cell(int i) const { return static_cast<ObjectId>(first + static_cast<ObjectId>(i)); }
    };
    auto& array = ex.make<Array>();
    array.value.assign(static_cast<std::size_t>(n) + 1, 0);
    array.first = ex.objects("array", static_cast<std::size_t>(n) + 1);
    ex.spawn(thread[0], [&array, n](Actor& a) {
      for (int i = n;; --i) {
        a.step("load", {read(array.cell(i))});
        if (array.value[static_cast<std::size_t>(i)] == 0) break;
      }
    });
    for (int j = 1; j <= n; ++j) {
      ex.spawn(thread[static_cast<std::size_t>(j)], [&array, j](Actor& a) {
        a.step("load", {read(array.cell(j - 1))});
        const int v = array.value[static_cast<std::size_t>(j - 1)];
        a.step("store", {write(array.cell(j))});
        array.value[static_cast<std::size_t>(j)] = v + 1;
      });
    }
  };
}

/// indexer(N): N threads insert 4 messages each into a 128-slot hash table with compare-and-swap
/// and linear probing: message m of thread t is w = 11m + t, hashed to 7w mod 128. Up to 11 threads
/// no slot is contended; from the 12th on, each thread shares 3 slots with an earlier one. The CAS
/// is one read-modify-write step.
inline Program indexer(int n) {
  constexpr int kSize = 128;
  constexpr int kMax = 4;
  return [n, thread = numbered("T", n)](Execution& ex) {
    struct Table {
      std::array<int, kSize> slot{};
      ObjectId first = kNoObject;  // slot h is the object first + h, named table[h]
    };
    auto& table = ex.make<Table>();
    table.first = ex.objects("table", kSize);
    for (int tid = 0; tid < n; ++tid) {
      ex.spawn(thread[static_cast<std::size_t>(tid)], [&table, tid](Actor& a) {
        for (int m = 1; m <= kMax; ++m) {
          const int w = m * 11 + tid;
          int h = (w * 7) % kSize;
          for (;;) {
            const auto s = static_cast<std::size_t>(h);
            a.step("cas", {read_modify_write(static_cast<ObjectId>(table.first + s))});
            if (table.slot[s] == 0) {
              table.slot[s] = w;
              break;
            }
            h = (h + 1) % kSize;
          }
        }
      });
    }
  };
}

/// filesystem(N): N threads each allocate an inode (under its lock) and, if it is free, a block
/// (under the block's lock, probing on while blocks are busy). Inodes: 32, blocks: 26; thread t
/// uses inode t and starts at block 2t mod 26, so from 14 threads on, threads 13.. contend with 0..
/// for a block.
inline Program filesystem(int n) {
  constexpr int kBlocks = 26;
  constexpr int kInodes = 32;
  struct Names {
    std::vector<std::string> locki, inode, lockb, busy, thread;
  };
  Names names{numbered("locki[", kInodes, "]"), numbered("inode[", kInodes, "]"),
              numbered("lockb[", kBlocks, "]"), numbered("busy[", kBlocks, "]"), numbered("T", n)};
  return [n, names = std::move(names)](Execution& ex) {
    struct Fs {
      std::vector<std::unique_ptr<Mutex>> locki, lockb;
      std::vector<std::unique_ptr<Shared<int>>> inode, busy;
    };
    auto& fs = ex.make<Fs>();
    for (std::size_t i = 0; i < kInodes; ++i) {
      fs.locki.push_back(std::make_unique<Mutex>(ex, names.locki[i]));
      fs.inode.push_back(std::make_unique<Shared<int>>(ex, names.inode[i], 0));
    }
    for (std::size_t b = 0; b < kBlocks; ++b) {
      fs.lockb.push_back(std::make_unique<Mutex>(ex, names.lockb[b]));
      fs.busy.push_back(std::make_unique<Shared<int>>(ex, names.busy[b], 0));
    }
    for (int tid = 0; tid < n; ++tid) {
      ex.spawn(names.thread[static_cast<std::size_t>(tid)], [&fs, tid](Actor& a) {
        const auto i = static_cast<std::size_t>(tid % kInodes);
        fs.locki[i]->lock(a, "lock inode");
        if (fs.inode[i]->read(a, "read inode") == 0) {
          auto b = static_cast<std::size_t>((i * 2) % kBlocks);
          for (;;) {
            fs.lockb[b]->lock(a, "lock block");
            if (fs.busy[b]->read(a, "read busy") == 0) {
              fs.busy[b]->write(a, "set busy", 1);
              fs.inode[i]->write(a, "set inode", static_cast<int>(b) + 1);
              fs.lockb[b]->unlock(a, "unlock block");
              break;
            }
            fs.lockb[b]->unlock(a, "unlock block");
            b = (b + 1) % kBlocks;
          }
        }
        fs.locki[i]->unlock(a, "unlock inode");
      });
    }
  };
}

}  // namespace interleave::literature
