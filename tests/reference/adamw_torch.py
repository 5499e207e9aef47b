"""Replays the AdamW runs printed by adamw_reference with Debian's
torch.optim.AdamW in float64 and compares every parameter and moment
after every step. Usage: /usr/bin/python3 adamw_torch.py ADAMW_REFERENCE

Exits non-zero when PyTorch is missing (the import fails), when the
program fails, or when any tensor differs by more than 1e-12 relative
(max |book - torch| over the tensor, divided by max |torch|)."""
import subprocess
import sys

import torch

TOLERANCE = 1e-12


def main():
    out = subprocess.run([sys.argv[1]], check=True, capture_output=True,
                         text=True).stdout
    lines = iter(out.splitlines())
    worst, compared, runs = 0.0, 0, 0

    def values(line, tag, name=None):
        words = line.split()
        assert words[0] == tag, (tag, line[:40])
        assert name is None or words[1] == name, (name, line[:40])
        n = int(words[2])
        return words[1], torch.tensor([float.fromhex(w) for w in words[3:3 + n]],
                                      dtype=torch.float64)

    line = next(lines)
    while line.startswith("run "):
        runs += 1
        lr, b1, b2, eps, wd = (float.fromhex(w) for w in line.split()[1:6])
        steps = int(line.split()[6])
        params, decayed = {}, {}
        line = next(lines)
        while line.startswith("decayed "):
            name = line.split()[1]
            decayed[name] = line.split()[2] == "1"
            _, params[name] = values(next(lines), "param", name)
            params[name].requires_grad_(True)
            line = next(lines)
        groups = [
            {"params": [p for n, p in params.items() if decayed[n]],
             "weight_decay": wd},
            {"params": [p for n, p in params.items() if not decayed[n]],
             "weight_decay": 0.0},
        ]
        opt = torch.optim.AdamW(groups, lr=lr, betas=(b1, b2), eps=eps)
        for _ in range(steps):
            assert line.startswith("step "), line[:40]
            for _ in params:
                name, g = values(next(lines), "grad")
                params[name].grad = g
            opt.step()
            for _ in params:
                name, book_p = values(next(lines), "param")
                _, book_m = values(next(lines), "m", name)
                _, book_v = values(next(lines), "v", name)
                state = opt.state[params[name]]
                for book, ref in ((book_p, params[name].detach()),
                                  (book_m, state["exp_avg"]),
                                  (book_v, state["exp_avg_sq"])):
                    scale = ref.abs().max().item()
                    diff = (book - ref).abs().max().item()
                    rel = diff / scale if scale > 0 else diff
                    worst = max(worst, rel)
                    compared += 1
                    if rel > TOLERANCE:
                        print(f"run {runs} {name}: book and torch differ by "
                              f"{rel:.3e} relative (> {TOLERANCE})")
                        return 1
            line = next(lines)
    assert line == "end", line[:40]
    print(f"adamw-torch: {runs} runs, {compared} tensors agree with "
          f"torch.optim.AdamW {torch.__version__} to {worst:.2e} relative "
          f"(tolerance {TOLERANCE})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
