"""The PyTorch side of tools/bench-train.sh: the book's model, rebuilt by
tests/reference/model_torch.py, trained from the parameters and on the
batches that `bench_train dump` printed, with torch.optim.AdamW, the same
warm-up + cosine schedule and the same clipping, in float64 (the book's
precision) or float32 (what a reader would use).

usage: /usr/bin/python3 tools/bench-train.py DUMP_FILE THREADS [float32]
Prints "step I SECONDS LOSS" for each step, the loss as float.hex().
"""
import os
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests", "reference"))
import model_torch  # noqa: E402  (the path above first)


def main():
    dump, threads = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3 and sys.argv[3] == "float32":
        model_torch.DT = torch.float32  # read_model and rope read it
    torch.set_num_threads(threads)
    with open(dump) as f:
        r = model_torch.Reader(f.read())
    model = model_torch.read_model(r)
    t = r.next("train")
    steps, warmup = int(t[0]), int(t[1])
    lr_max, lr_min, clip, b1, b2, eps, wd = model_torch.hexes(t[2:9])
    opt = model_torch.adamw(model.p, b1, b2, eps, wd)
    step = 0
    while r.peek() == "batch":
        inputs, targets = model_torch.read_batch(r, step)
        lr = model_torch.learning_rate(lr_max, lr_min, warmup, steps, step)
        start = time.perf_counter()
        loss, _ = model_torch.train_step(model, opt, inputs, targets, lr, clip)
        took = time.perf_counter() - start
        print("step %d %.6f %s" % (step, took, float.hex(loss)), flush=True)
        step += 1


main()
