"""An independent implementation of the book's decoder model in PyTorch
(Debian's python3-torch, float64), checked against the book's C++.

model_reference (C++) writes the book model's initial state as a
checkpoint (chapter 31's format: magic, version, sections, SHA-256) and
prints the model's configuration and initial parameters, the logits of a
fixed input, and 20+ training steps (each step's batch, learning rate,
gradient norm before clipping and loss). This script reads the
checkpoint with its own reader (and requires it to hold exactly the
printed parameters), rebuilds the same model from torch operations (embedding,
pre-norm blocks with RMSNorm, causal multi-head attention with RoPE on
adjacent pairs, SwiGLU, final RMSNorm, output tied to the embedding),
computes the logits, then trains from the same initial parameters on the
same batches with torch.optim.AdamW, its own warm-up + cosine schedule
and its own clipping by global norm, and compares:
  - logits: max |book - torch| / max |torch| <= 1e-12;
  - every step's loss and gradient norm: relative difference <= 1e-9;
  - every step's learning rate: relative difference <= 1e-15.
Usage: /usr/bin/python3 model_torch.py MODEL_REFERENCE (which it runs with
a checkpoint path in a temporary directory)
Fails (non-zero) if torch is missing, the program fails or any check fails.
"""
import hashlib
import math
import os
import struct
import subprocess
import sys
import tempfile

import torch

LOGITS_TOLERANCE = 1e-12
LOSS_TOLERANCE = 1e-9
LR_TOLERANCE = 1e-15
DT = torch.float64


def hexes(words):
    return [float.fromhex(w) for w in words]


class Reader:
    def __init__(self, text):
        self.lines = text.splitlines()
        self.at = 0

    def next(self, tag):
        words = self.lines[self.at].split()
        self.at += 1
        assert words[0] == tag, "expected '%s', got: %s" % (tag, " ".join(words)[:60])
        return words[1:]

    def peek(self):
        return self.lines[self.at].split()[0] if self.at < len(self.lines) else ""


class Model:
    def __init__(self, cfg, params):
        self.V, self.d, self.N, self.h, self.f, self.T = cfg["ints"]
        self.base, self.eps = cfg["base"], cfg["eps"]
        self.p = params
        self.dh = self.d // self.h

    def rms_norm(self, x, gain):
        return x / torch.sqrt((x * x).mean(-1, keepdim=True) + self.eps) * gain

    def rope(self, x, T):  # x [B, h, T, dh]: pair (2k, 2k+1) turned by t theta_k
        k = torch.arange(self.dh // 2, dtype=DT)
        theta = self.base ** (-2.0 * k / self.dh)
        angle = torch.arange(T, dtype=DT)[:, None] * theta[None, :]
        cos, sin = torch.cos(angle), torch.sin(angle)
        a, b = x[..., 0::2], x[..., 1::2]
        return torch.stack((a * cos - b * sin, a * sin + b * cos), -1).flatten(-2)

    def attention(self, x, pre):
        B, T, _ = x.shape
        def heads(y):
            return y.reshape(B, T, self.h, self.dh).transpose(1, 2)
        q = self.rope(heads(x @ self.p[pre + "attn.w_q"]), T)
        k = self.rope(heads(x @ self.p[pre + "attn.w_k"]), T)
        v = heads(x @ self.p[pre + "attn.w_v"])
        s = (q @ k.transpose(-2, -1)) / math.sqrt(self.dh)
        mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        a = torch.softmax(s.masked_fill(mask, float("-inf")), -1)
        return (a @ v).transpose(1, 2).reshape(B, T, self.d) @ self.p[pre + "attn.w_o"]

    def logits(self, ids):  # ids [B, T] -> [B, T, V]
        E = self.p["embed.weight"]
        x = E[ids]
        for l in range(self.N):
            pre = "block%d." % l
            x = x + self.attention(self.rms_norm(x, self.p[pre + "norm1.gain"]), pre)
            n2 = self.rms_norm(x, self.p[pre + "norm2.gain"])
            gate = n2 @ self.p[pre + "ffn.w_gate"]
            x = x + (torch.nn.functional.silu(gate) * (n2 @ self.p[pre + "ffn.w_up"])) @ self.p[pre + "ffn.w_down"]
        return self.rms_norm(x, self.p["final_norm.gain"]) @ E.T


def relative(a, b):
    return float((a - b).abs().max() / b.abs().max())


def learning_rate(lr_max, lr_min, warmup, steps, step):
    """Warm-up then cosine, written from the schedule's definition: linear
    from lr_max / warmup at step 0 to lr_max at step warmup - 1, then cosine
    from lr_max (step warmup - 1) down to lr_min at step steps - 1."""
    if step < warmup:
        return lr_max * (step + 1) / warmup
    progress = (step - (warmup - 1)) / (steps - warmup) if steps > warmup else 1.0
    return lr_min + 0.5 * (lr_max - lr_min) * (1 + math.cos(math.pi * progress))


def read_model(r):
    """The `config` line and the `param` lines that follow it, as a Model
    whose parameters are leaves that require gradients."""
    c = r.next("config")
    cfg = {"ints": [int(w) for w in c[:6]], "base": float.fromhex(c[6]), "eps": float.fromhex(c[7])}
    params = {}
    while r.peek() == "param":
        w = r.next("param")
        name, rank = w[0], int(w[1])
        shape = [int(s) for s in w[2:2 + rank]]
        values = hexes(w[2 + rank:])
        assert len(values) == math.prod(shape), name
        params[name] = torch.tensor(values, dtype=DT).reshape(shape).requires_grad_(True)
    return Model(cfg, params)


def read_checkpoint(path):
    """The configuration and the parameters of a checkpoint file, read
    from the format's definition (little-endian): "LLMCKPT\n", version 1,
    5 sections (tag, u64 size, payload), then the SHA-256 of all before."""
    data = open(path, "rb").read()
    assert data[:8] == b"LLMCKPT\n", "not a checkpoint"
    body, digest = data[:-32], data[-32:]
    assert hashlib.sha256(body).digest() == digest, "checksum"
    version, count = struct.unpack_from("<II", data, 8)
    assert (version, count) == (1, 5)
    sections, at = {}, 16
    for _ in range(count):
        tag = data[at:at + 4].decode()
        (size,) = struct.unpack_from("<Q", data, at + 4)
        sections[tag] = data[at + 12:at + 12 + size]
        at += 12 + size
    assert at == len(body), "bytes before the checksum"
    conf = sections["CONF"]
    cfg = {"ints": list(struct.unpack_from("<6Q", conf, 0)),
           "base": struct.unpack_from("<d", conf, 48)[0],
           "eps": struct.unpack_from("<d", conf, 56)[0]}
    parm, params = sections["PARM"], {}
    (n,) = struct.unpack_from("<I", parm, 8)  # after the registry's u64 seed
    at = 12
    for _ in range(n):
        (length,) = struct.unpack_from("<I", parm, at)
        name = parm[at + 4:at + 4 + length].decode()
        at += 4 + length
        (rank,) = struct.unpack_from("<I", parm, at)
        shape = list(struct.unpack_from("<%dQ" % rank, parm, at + 4))
        at += 4 + 8 * rank
        count = math.prod(shape)
        values = struct.unpack_from("<%dd" % count, parm, at)
        at += 8 * count
        params[name] = torch.tensor(values, dtype=DT).reshape(shape)
    assert at == len(parm), "bytes after the last tensor"
    return cfg, params


def read_batch(r, step):
    """A `batch` line: inputs and targets [B, T]."""
    bw = r.next("batch")
    assert int(bw[0]) == step
    Bs, Ts = int(bw[1]), int(bw[2])
    n = Bs * Ts
    inputs = torch.tensor([int(x) for x in bw[3:3 + n]]).reshape(Bs, Ts)
    targets = torch.tensor([int(x) for x in bw[3 + n:3 + 2 * n]]).reshape(Bs, Ts)
    return inputs, targets


def adamw(params, b1, b2, eps, wd):
    """torch.optim.AdamW with the book's decay rule: rank >= 2 decays."""
    decayed = [p for p in params.values() if p.dim() >= 2]
    plain = [p for p in params.values() if p.dim() < 2]
    return torch.optim.AdamW([{"params": decayed, "weight_decay": wd},
                              {"params": plain, "weight_decay": 0.0}],
                             lr=1.0, betas=(b1, b2), eps=eps)


def train_step(model, opt, inputs, targets, lr, clip):
    """One step: the mean loss, backward, clipping by the global norm, one
    AdamW update at rate lr. Returns the loss and the norm before clipping."""
    for g in opt.param_groups:
        g["lr"] = lr
    opt.zero_grad()
    n = inputs.numel()
    logits = model.logits(inputs)
    loss = torch.nn.functional.cross_entropy(logits.reshape(n, -1), targets.reshape(n))
    loss.backward()
    norm = math.sqrt(sum(float((p.grad * p.grad).sum()) for p in model.p.values()))
    if norm > clip:
        for p in model.p.values():
            p.grad.mul_(clip / norm)
    opt.step()
    return loss.item(), norm


def main():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "initial.ckpt")
        out = subprocess.run([sys.argv[1], path], check=True, capture_output=True,
                             text=True).stdout
        cfg, loaded = read_checkpoint(path)
    r = Reader(out)
    printed = read_model(r)
    # The model is built from the checkpoint; the printed state must be
    # the same, bit for bit, or the file is not what the book trained from.
    same = cfg == {"ints": [printed.V, printed.d, printed.N, printed.h, printed.f, printed.T],
                   "base": printed.base, "eps": printed.eps} \
        and list(loaded) == list(printed.p) \
        and all(torch.equal(loaded[k], printed.p[k].detach()) for k in loaded)
    print("checkpoint: %d tensors, configuration and parameters %s the printed ones"
          % (len(loaded), "equal" if same else "DIFFER FROM"))
    if not same:
        print("FAILED: the checkpoint does not hold the book's initial state")
        sys.exit(1)
    model = Model(cfg, {k: v.clone().requires_grad_(True) for k, v in loaded.items()})

    w = r.next("input")
    B, T = int(w[0]), int(w[1])
    ids = torch.tensor([int(x) for x in w[2:]]).reshape(B, T)
    book_logits = torch.tensor(hexes(r.next("logits")), dtype=DT).reshape(B, T, -1)
    with torch.no_grad():
        err = relative(book_logits, model.logits(ids))
    print("logits [%d, %d, %d]: max relative difference %.3e (tolerance %g)"
          % (B, T, book_logits.shape[-1], err, LOGITS_TOLERANCE))
    ok = err <= LOGITS_TOLERANCE

    t = r.next("train")
    steps, warmup = int(t[0]), int(t[1])
    lr_max, lr_min, clip, b1, b2, eps, wd = hexes(t[2:9])
    opt = adamw(model.p, b1, b2, eps, wd)
    worst_loss = worst_norm = worst_lr = 0.0
    for step in range(steps):
        inputs, targets = read_batch(r, step)
        sw = r.next("step")
        assert int(sw[0]) == step
        book_lr, book_norm, book_loss = hexes(sw[1:4])
        lr = learning_rate(lr_max, lr_min, warmup, steps, step)
        loss, norm = train_step(model, opt, inputs, targets, lr, clip)
        el = abs(book_loss - loss) / abs(loss)
        en = abs(book_norm - norm) / norm
        er = abs(book_lr - lr) / lr
        worst_loss, worst_norm, worst_lr = max(worst_loss, el), max(worst_norm, en), max(worst_lr, er)
        print("step %2d: lr %.6e loss %.12f (book %.12f) grad norm %.6f%s"
              % (step, lr, loss, book_loss, norm, " clipped" if norm > clip else ""))
    print("%d steps: worst relative difference loss %.3e, gradient norm %.3e "
          "(tolerance %g), learning rate %.3e (tolerance %g)"
          % (steps, worst_loss, worst_norm, LOSS_TOLERANCE, worst_lr, LR_TOLERANCE))
    ok = ok and steps >= 20 and worst_loss <= LOSS_TOLERANCE and worst_norm <= LOSS_TOLERANCE \
        and worst_lr <= LR_TOLERANCE
    if not ok:
        print("FAILED: the book's model and the PyTorch model disagree")
        sys.exit(1)
    print("the book's model agrees with PyTorch")


if __name__ == "__main__":
    main()
