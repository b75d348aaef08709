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

#include "explorer/execution.hpp"
#include "explorer/primitives.hpp"

#include <memory>
#include <string>
#include <vector>

namespace interleave::literature {

/// readers(N): one writer writes x, N readers read it. Traces: 2^N (which readers run before the
/// write).
inline Program readers(int n) {
  return [n](Execution& ex) {
    auto& x = ex.make<Shared<int>>(ex, "x", 0);
    ex.spawn("writer", [&x](Actor& a) { x.write(a, "write", 42); });
    for (int i = 1; i <= n; ++i)
      ex.spawn("reader" + std::to_string(i), [&x](Actor& a) { x.read(a, "read"); });
  };
}

/// lastzero(N): array[0..N] = 0. Thread 0 searches for the last zero:
/// `for (i = N; array[i] != 0; i--);`. Thread j (1..N): `array[j] = array[j-1] + 1` (a read, then a
/// write).
inline Program lastzero(int n) {
  return [n](Execution& ex) {
    auto& array = ex.make<std::vector<std::unique_ptr<Shared<int>>>>();
    for (int i = 0; i <= n; ++i)
      array.push_back(std::make_unique<Shared<int>>(ex, "array[" + std::to_string(i) + "]", 0));
    ex.spawn("T0", [&array, n](Actor& a) {
      for (int i = n; array[static_cast<std::size_t>(i)]->read(a, "load") != 0; --i) {
      }
    });
    for (int j = 1; j <= n; ++j) {
      ex.spawn("T" + std::to_string(j), [&array, j](Actor& a) {
        const int v = array[static_cast<std::size_t>(j - 1)]->read(a, "load");
        array[static_cast<std::size_t>(j)]->write(a, "store", v + 1);
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
  return [n](Execution& ex) {
    struct Table {
      std::array<int, kSize> slot{};
      std::array<ObjectId, kSize> id{};
    };
    auto& table = ex.make<Table>();
    for (int h = 0; h < kSize; ++h)
      table.id[static_cast<std::size_t>(h)] = ex.object("table[" + std::to_string(h) + "]");
    for (int tid = 0; tid < n; ++tid) {
      ex.spawn("T" + std::to_string(tid), [&table, tid](Actor& a) {
        for (int m = 1; m <= kMax; ++m) {
          const int w = m * 11 + tid;
          int h = (w * 7) % kSize;
          for (;;) {
            const auto s = static_cast<std::size_t>(h);
            a.step("cas", {read_modify_write(table.id[s])});
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
  return [n](Execution& ex) {
    struct Fs {
      std::vector<std::unique_ptr<Mutex>> locki, lockb;
      std::vector<std::unique_ptr<Shared<int>>> inode, busy;
    };
    auto& fs = ex.make<Fs>();
    for (int i = 0; i < kInodes; ++i) {
      fs.locki.push_back(std::make_unique<Mutex>(ex, "locki[" + std::to_string(i) + "]"));
      fs.inode.push_back(std::make_unique<Shared<int>>(ex, "inode[" + std::to_string(i) + "]", 0));
    }
    for (int b = 0; b < kBlocks; ++b) {
      fs.lockb.push_back(std::make_unique<Mutex>(ex, "lockb[" + std::to_string(b) + "]"));
      fs.busy.push_back(std::make_unique<Shared<int>>(ex, "busy[" + std::to_string(b) + "]", 0));
    }
    for (int tid = 0; tid < n; ++tid) {
      ex.spawn("T" + std::to_string(tid), [&fs, tid](Actor& a) {
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
