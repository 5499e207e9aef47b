"""Recomputes the book's interpolated Kneser-Ney test scores (chapter
bigram-baseline) from the token ids alone, in plain Python, and compares
them with the library's.

Usage: /usr/bin/python3 kneser_ney.py KNESER_NEY_REFERENCE CORPUS_FILE
   or: /usr/bin/python3 kneser_ney.py --dump FILE  (the program's output)

The definitions, as the chapter states them, computed here another way
(sets of the ids seen before each run, and the recursion written top
down; the library derives the same counts from its hash-map keys and
evaluates bottom up):
- a prediction is every id after the first of a document, from the at
  most n-1 ids before it in the same document;
- a k-gram is counted at order k when it ends on a predicted id;
- a_n(g) is the number of occurrences; for k < n, a_k(g) is the number
  of distinct ids seen right before g, plus its occurrences at the very
  start of a document (where nothing precedes it);
- p_k(w|u) = max(a_k(uw) - D_k, 0) / S_k(u) + D_k T_k(u) / S_k(u)
  p_{k-1}(w|u'), p_0 = 1/V, and p_{k-1}(w|u') alone when S_k(u) = 0;
- D_k = n1 / (n1 + 2 n2) over the a_k.

Exits non-zero when any order's test bits per byte differs from the
library's by more than 1e-9 relative, or a discount by more than 1e-12.
"""
import math
import subprocess
import sys
from collections import Counter, defaultdict

MAX_ORDER = 5
TOLERANCE = 1e-9


def parse(text):
    lines = iter(text.splitlines())
    vocab = int(next(lines).split()[1])
    nbytes = int(next(lines).split()[1])
    library = {}
    line = next(lines)
    while line.startswith("order "):
        w = line.split()
        library[int(w[1])] = (float.fromhex(w[2]), int(w[3]),
                              [float.fromhex(x) for x in w[4:]])
        line = next(lines)
    splits = {}
    for _ in range(2):
        tag, count = line.split()
        docs = []
        for _ in range(int(count)):
            words = next(lines).split()
            assert int(words[0]) == len(words) - 1
            docs.append(tuple(int(x) for x in words[1:]))
        splits[tag] = docs
        line = next(lines, "")
    return vocab, nbytes, library, splits["train"], splits["test"]


def statistics(docs):
    """occurrences[k][g], starts[k][g] (occurrences at a document's
    first id) and before[k][g] (the set of ids right before g) for the
    k-grams g ending on a predicted id, k = 1 .. MAX_ORDER."""
    occurrences = [Counter() for _ in range(MAX_ORDER + 1)]
    starts = [Counter() for _ in range(MAX_ORDER + 1)]
    before = [defaultdict(set) for _ in range(MAX_ORDER + 1)]
    for d in docs:
        for t in range(1, len(d)):
            for k in range(1, MAX_ORDER + 1):
                s = t - k + 1
                if s < 0:
                    break
                g = d[s:t + 1]
                occurrences[k][g] += 1
                if s == 0:
                    starts[k][g] += 1
                else:
                    before[k][g].add(d[s - 1])
    return occurrences, starts, before


class Model:
    def __init__(self, stats, vocab, n):
        occurrences, starts, before = stats
        self.vocab, self.n = vocab, n
        self.a = [None] * (n + 1)
        for k in range(1, n + 1):
            if k == n:
                self.a[k] = dict(occurrences[k])
            else:
                self.a[k] = {g: starts[k][g] + len(before[k][g])
                             for g in occurrences[k]}
        self.total = [defaultdict(int) for _ in range(n + 1)]
        self.types = [defaultdict(int) for _ in range(n + 1)]
        self.discount = [0.0] * (n + 1)
        for k in range(1, n + 1):
            for g, a in self.a[k].items():
                self.total[k][g[:-1]] += a
                self.types[k][g[:-1]] += 1
            values = Counter(self.a[k].values())
            self.discount[k] = values[1] / (values[1] + 2 * values[2])

    def p(self, k, u, w):
        """p_k(w | u), u a tuple of k-1 ids."""
        if k == 0:
            return 1.0 / self.vocab
        lower = self.p(k - 1, u[1:], w)
        s = self.total[k].get(u, 0)
        if s == 0:
            return lower
        d = self.discount[k]
        a = self.a[k].get(u + (w,), 0)
        return max(a - d, 0.0) / s + d * self.types[k][u] / s * lower

    def nll(self, docs):
        total, predictions = 0.0, 0
        for d in docs:
            for t in range(1, len(d)):
                m = min(t, self.n - 1)
                total -= math.log(self.p(m + 1, d[t - m:t], d[t]))
                predictions += 1
        return total, predictions


def main():
    if sys.argv[1] == "--dump":
        text = open(sys.argv[2]).read()
    else:
        text = subprocess.run(sys.argv[1:3], check=True, capture_output=True,
                              text=True).stdout
    vocab, nbytes, library, train, test = parse(text)
    stats = statistics(train)
    failed = False
    for n in sorted(library):
        model = Model(stats, vocab, n)
        nll, predictions = model.nll(test)
        bpb = nll / (nbytes * math.log(2))
        lib_nll, lib_predictions, lib_discounts = library[n]
        lib_bpb = lib_nll / (nbytes * math.log(2))
        rel = abs(bpb - lib_bpb) / lib_bpb
        worst_d = max(abs(a - b) for a, b in
                      zip(model.discount[1:], lib_discounts))
        ok = (rel <= TOLERANCE and predictions == lib_predictions and
              len(lib_discounts) == n and worst_d <= 1e-12)
        failed |= not ok
        print(f"order {n}: python {bpb:.12f} library {lib_bpb:.12f} "
              f"bits per byte, relative difference {rel:.2e}, "
              f"discounts {' '.join(f'{d:.6f}' for d in model.discount[1:])}"
              f"{'' if ok else '  MISMATCH'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
